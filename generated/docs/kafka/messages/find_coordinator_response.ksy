meta:
  id: find_coordinator_response
  title: FindCoordinatorResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FindCoordinatorResponse (response), versions 0-6; flexible in 3+.
doc-ref: FindCoordinatorResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 1
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
  if: api_version <= 3
- id: len_error_message
  type: s2
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
  valid:
    min: -1
  if: api_version >= 1 and api_version <= 2
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
  if: api_version >= 3 and api_version <= 3
- id: error_message
  doc: The error message, or null if there was no error.
  size: '(api_version >= 3 and api_version <= 3 ? len_error_message_compact.value : len_error_message)'
  type: str
  encoding: UTF-8
  if: 'api_version >= 1 and api_version <= 3 and (api_version >= 3 and api_version <= 3 ? len_error_message_compact.value
    : len_error_message) >= 0'
- id: node_id
  type: s4
  doc: The node id.
  if: api_version <= 3
- id: len_host
  type: s2
  doc: Length in bytes of `host`.
  -lc-size-of: host
  if: api_version <= 2
- id: len_host_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `host`.
  -lc-size-of: host
  if: api_version >= 3 and api_version <= 3
- id: host
  doc: The host name.
  size: '(api_version >= 3 and api_version <= 3 ? len_host_compact.value : len_host)'
  type: str
  encoding: UTF-8
  if: api_version <= 3
- id: port
  type: s4
  doc: The port.
  if: api_version <= 3
- id: num_coordinators_compact
  type: biased_uvarint(32)
  doc: Number of elements of `coordinators`.
  -lc-count-of: coordinators
  if: api_version >= 4
- id: coordinators
  doc: Each coordinator result in the response
  type: coordinator(api_version)
  repeat: expr
  repeat-expr: num_coordinators_compact.value
  if: api_version >= 4
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 3
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 3
types:
  coordinator:
    doc: Coordinator.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_key_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `key`.
      -lc-size-of: key
      if: api_version >= 4
    - id: key
      doc: The coordinator key.
      size: len_key_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 4
    - id: node_id
      type: s4
      doc: The node id.
      if: api_version >= 4
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 4
    - id: host
      doc: The host name.
      size: len_host_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 4
    - id: port
      type: s4
      doc: The port.
      if: api_version >= 4
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
      if: api_version >= 4
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 4
    - id: error_message
      doc: The error message, or null if there was no error.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 4 and len_error_message_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 4
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 4

meta:
  id: sync_group_response
  title: SyncGroupResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: SyncGroupResponse (response), versions 0-5; flexible in 4+.
doc-ref: SyncGroupResponse.json
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
- id: len_protocol_type_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `protocol_type`, or -1 for null.
  -lc-size-of: protocol_type
  -lc-absent: -1
  if: api_version >= 5
- id: protocol_type
  doc: The group protocol type.
  size: len_protocol_type_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 5 and len_protocol_type_compact.value >= 0
- id: len_protocol_name_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `protocol_name`, or -1 for null.
  -lc-size-of: protocol_name
  -lc-absent: -1
  if: api_version >= 5
- id: protocol_name
  doc: The group protocol name.
  size: len_protocol_name_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 5 and len_protocol_name_compact.value >= 0
- id: len_assignment
  type: s4
  doc: Length in bytes of `assignment`.
  -lc-size-of: assignment
  if: api_version <= 3
- id: len_assignment_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `assignment`.
  -lc-size-of: assignment
  if: api_version >= 4
- id: assignment
  doc: The member assignment.
  size: '(api_version >= 4 ? len_assignment_compact.value : len_assignment)'
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

meta:
  id: alter_configs_response
  title: AlterConfigsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterConfigsResponse (response), versions 0-2; flexible in 2+.
doc-ref: AlterConfigsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: Duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_responses
  type: s4
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version <= 1
- id: num_responses_compact
  type: biased_uvarint(32)
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version >= 2
- id: responses
  doc: The responses for each resource.
  type: alter_configs_resource_response(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_responses_compact.value : num_responses)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 2
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 2
types:
  alter_configs_resource_response:
    doc: AlterConfigsResourceResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The resource error code.
    - id: len_error_message
      type: s2
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 2
    - id: error_message
      doc: The resource error message, or null if there was no error.
      size: '(api_version >= 2 ? len_error_message_compact.value : len_error_message)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 2 ? len_error_message_compact.value : len_error_message) >= 0'
    - id: resource_type
      type: s1
      doc: The resource type.
    - id: len_resource_name
      type: s2
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version <= 1
    - id: len_resource_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version >= 2
    - id: resource_name
      doc: The resource name.
      size: '(api_version >= 2 ? len_resource_name_compact.value : len_resource_name)'
      type: str
      encoding: UTF-8
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 2
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 2

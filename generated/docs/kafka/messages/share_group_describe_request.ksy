meta:
  id: share_group_describe_request
  title: ShareGroupDescribeRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ShareGroupDescribeRequest (request), versions 0; flexible in 0+.
doc-ref: ShareGroupDescribeRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_group_ids_compact
  type: biased_uvarint(32)
  doc: Number of elements of `group_ids`.
  -lc-count-of: group_ids
- id: group_ids
  doc: The ids of the groups to describe
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_group_ids_compact.value
- id: include_authorized_operations
  type: u1
  doc: Whether to include authorized operations.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
types:
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
    - id: value
      doc: The string.
      size: len_value_compact.value
      type: str
      encoding: UTF-8

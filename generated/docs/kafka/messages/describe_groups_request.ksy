meta:
  id: describe_groups_request
  title: DescribeGroupsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeGroupsRequest (request), versions 0-5; flexible in 5+.
doc-ref: DescribeGroupsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_groups
  type: s4
  doc: Number of elements of `groups`.
  -lc-count-of: groups
  if: api_version <= 4
- id: num_groups_compact
  type: biased_uvarint(32)
  doc: Number of elements of `groups`.
  -lc-count-of: groups
  if: api_version >= 5
- id: groups
  doc: The names of the groups to describe
  type: string_element(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 5 ? num_groups_compact.value : num_groups)'
- id: include_authorized_operations
  type: u1
  doc: Whether to include authorized operations.
  if: api_version >= 3
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 5
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 5
types:
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value
      type: s2
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version <= 4
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version >= 5
    - id: value
      doc: The string.
      size: '(api_version >= 5 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8

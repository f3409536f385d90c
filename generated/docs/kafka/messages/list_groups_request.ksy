meta:
  id: list_groups_request
  title: ListGroupsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListGroupsRequest (request), versions 0-5; flexible in 3+.
doc-ref: ListGroupsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_states_filter_compact
  type: biased_uvarint(32)
  doc: Number of elements of `states_filter`.
  -lc-count-of: states_filter
  if: api_version >= 4
- id: states_filter
  doc: The states of the groups we want to list. If empty, all groups are returned with their state.
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_states_filter_compact.value
  if: api_version >= 4
- id: num_types_filter_compact
  type: biased_uvarint(32)
  doc: Number of elements of `types_filter`.
  -lc-count-of: types_filter
  if: api_version >= 5
- id: types_filter
  doc: The types of the groups we want to list. If empty, all groups are returned with their type.
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_types_filter_compact.value
  if: api_version >= 5
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
      if: api_version <= 2
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version >= 3
    - id: value
      doc: The string.
      size: '(api_version >= 3 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8

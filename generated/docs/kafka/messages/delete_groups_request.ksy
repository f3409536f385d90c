meta:
  id: delete_groups_request
  title: DeleteGroupsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DeleteGroupsRequest (request), versions 0-2; flexible in 2+.
doc-ref: DeleteGroupsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_groups_names
  type: s4
  doc: Number of elements of `groups_names`.
  -lc-count-of: groups_names
  if: api_version <= 1
- id: num_groups_names_compact
  type: biased_uvarint(32)
  doc: Number of elements of `groups_names`.
  -lc-count-of: groups_names
  if: api_version >= 2
- id: groups_names
  doc: The group names to delete.
  type: string_element(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_groups_names_compact.value : num_groups_names)'
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
      if: api_version <= 1
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version >= 2
    - id: value
      doc: The string.
      size: '(api_version >= 2 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8

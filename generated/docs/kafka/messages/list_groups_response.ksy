meta:
  id: list_groups_response
  title: ListGroupsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListGroupsResponse (response), versions 0-5; flexible in 3+.
doc-ref: ListGroupsResponse.json
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
- id: num_groups
  type: s4
  doc: Number of elements of `groups`.
  -lc-count-of: groups
  if: api_version <= 2
- id: num_groups_compact
  type: biased_uvarint(32)
  doc: Number of elements of `groups`.
  -lc-count-of: groups
  if: api_version >= 3
- id: groups
  doc: Each group in the response.
  type: listed_group(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 3 ? num_groups_compact.value : num_groups)'
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
  listed_group:
    doc: ListedGroup.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_group_id
      type: s2
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version <= 2
    - id: len_group_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version >= 3
    - id: group_id
      doc: The group ID.
      size: '(api_version >= 3 ? len_group_id_compact.value : len_group_id)'
      type: str
      encoding: UTF-8
    - id: len_protocol_type
      type: s2
      doc: Length in bytes of `protocol_type`.
      -lc-size-of: protocol_type
      if: api_version <= 2
    - id: len_protocol_type_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `protocol_type`.
      -lc-size-of: protocol_type
      if: api_version >= 3
    - id: protocol_type
      doc: The group protocol type.
      size: '(api_version >= 3 ? len_protocol_type_compact.value : len_protocol_type)'
      type: str
      encoding: UTF-8
    - id: len_group_state_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_state`.
      -lc-size-of: group_state
      if: api_version >= 4
    - id: group_state
      doc: The group state name.
      size: len_group_state_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 4
    - id: len_group_type_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_type`.
      -lc-size-of: group_type
      if: api_version >= 5
    - id: group_type
      doc: The group type name.
      size: len_group_type_compact.value
      type: str
      encoding: UTF-8
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

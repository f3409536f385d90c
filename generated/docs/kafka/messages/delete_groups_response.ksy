meta:
  id: delete_groups_response
  title: DeleteGroupsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DeleteGroupsResponse (response), versions 0-2; flexible in 2+.
doc-ref: DeleteGroupsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_results
  type: s4
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version <= 1
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version >= 2
- id: results
  doc: The deletion results
  type: deletable_group_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_results_compact.value : num_results)'
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
  deletable_group_result:
    doc: DeletableGroupResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_group_id
      type: s2
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version <= 1
    - id: len_group_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version >= 2
    - id: group_id
      doc: The group id
      size: '(api_version >= 2 ? len_group_id_compact.value : len_group_id)'
      type: str
      encoding: UTF-8
    - id: error_code
      type: s2
      doc: The deletion error, or 0 if the deletion succeeded.
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

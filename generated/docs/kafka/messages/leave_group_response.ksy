meta:
  id: leave_group_response
  title: LeaveGroupResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: LeaveGroupResponse (response), versions 0-5; flexible in 4+.
doc-ref: LeaveGroupResponse.json
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
- id: num_members
  type: s4
  doc: Number of elements of `members`.
  -lc-count-of: members
  if: api_version >= 3 and api_version <= 3
- id: num_members_compact
  type: biased_uvarint(32)
  doc: Number of elements of `members`.
  -lc-count-of: members
  if: api_version >= 4
- id: members
  doc: List of leaving member responses.
  type: member_response(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_members_compact.value : num_members)'
  if: api_version >= 3
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
types:
  member_response:
    doc: MemberResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_member_id
      type: s2
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version >= 3 and api_version <= 3
    - id: len_member_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version >= 4
    - id: member_id
      doc: The member ID to remove from the group.
      size: '(api_version >= 4 ? len_member_id_compact.value : len_member_id)'
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: len_group_instance_id
      type: s2
      doc: Length in bytes of `group_instance_id`, or -1 for null.
      -lc-size-of: group_instance_id
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 3 and api_version <= 3
    - id: len_group_instance_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_instance_id`, or -1 for null.
      -lc-size-of: group_instance_id
      -lc-absent: -1
      if: api_version >= 4
    - id: group_instance_id
      doc: The group instance ID to remove from the group.
      size: '(api_version >= 4 ? len_group_instance_id_compact.value : len_group_instance_id)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 3 and (api_version >= 4 ? len_group_instance_id_compact.value : len_group_instance_id)
        >= 0'
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
      if: api_version >= 3
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

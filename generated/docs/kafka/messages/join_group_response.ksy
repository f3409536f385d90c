meta:
  id: join_group_response
  title: JoinGroupResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: JoinGroupResponse (response), versions 0-9; flexible in 6+.
doc-ref: JoinGroupResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 2
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: generation_id
  type: s4
  doc: The generation ID of the group.
- id: len_protocol_type_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `protocol_type`, or -1 for null.
  -lc-size-of: protocol_type
  -lc-absent: -1
  if: api_version >= 7
- id: protocol_type
  doc: The group protocol name.
  size: len_protocol_type_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 7 and len_protocol_type_compact.value >= 0
- id: len_protocol_name
  type: s2
  doc: Length in bytes of `protocol_name`, or -1 for null.
  -lc-size-of: protocol_name
  -lc-absent: -1
  valid:
    expr: _ >= 0 or (_ == -1 and (api_version >= 7))
  if: api_version <= 5
- id: len_protocol_name_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `protocol_name`, or -1 for null.
  -lc-size-of: protocol_name
  -lc-absent: -1
  valid:
    expr: _.value >= 0 or (_.value == -1 and (api_version >= 7))
  if: api_version >= 6
- id: protocol_name
  doc: The group protocol selected by the coordinator.
  size: '(api_version >= 6 ? len_protocol_name_compact.value : len_protocol_name)'
  type: str
  encoding: UTF-8
  if: '(api_version >= 6 ? len_protocol_name_compact.value : len_protocol_name) >= 0'
- id: len_leader
  type: s2
  doc: Length in bytes of `leader`.
  -lc-size-of: leader
  if: api_version <= 5
- id: len_leader_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `leader`.
  -lc-size-of: leader
  if: api_version >= 6
- id: leader
  doc: The leader of the group.
  size: '(api_version >= 6 ? len_leader_compact.value : len_leader)'
  type: str
  encoding: UTF-8
- id: skip_assignment
  type: u1
  doc: True if the leader must skip running the assignment.
  if: api_version >= 9
- id: len_member_id
  type: s2
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version <= 5
- id: len_member_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version >= 6
- id: member_id
  doc: The member ID assigned by the group coordinator.
  size: '(api_version >= 6 ? len_member_id_compact.value : len_member_id)'
  type: str
  encoding: UTF-8
- id: num_members
  type: s4
  doc: Number of elements of `members`.
  -lc-count-of: members
  if: api_version <= 5
- id: num_members_compact
  type: biased_uvarint(32)
  doc: Number of elements of `members`.
  -lc-count-of: members
  if: api_version >= 6
- id: members
  doc: Members.
  type: join_group_response_member(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 ? num_members_compact.value : num_members)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 6
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 6
types:
  join_group_response_member:
    doc: JoinGroupResponseMember.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_member_id
      type: s2
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version <= 5
    - id: len_member_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version >= 6
    - id: member_id
      doc: The group member ID.
      size: '(api_version >= 6 ? len_member_id_compact.value : len_member_id)'
      type: str
      encoding: UTF-8
    - id: len_group_instance_id
      type: s2
      doc: Length in bytes of `group_instance_id`, or -1 for null.
      -lc-size-of: group_instance_id
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 5 and api_version <= 5
    - id: len_group_instance_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_instance_id`, or -1 for null.
      -lc-size-of: group_instance_id
      -lc-absent: -1
      if: api_version >= 6
    - id: group_instance_id
      doc: The unique identifier of the consumer instance provided by end user.
      size: '(api_version >= 6 ? len_group_instance_id_compact.value : len_group_instance_id)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 5 and (api_version >= 6 ? len_group_instance_id_compact.value : len_group_instance_id)
        >= 0'
    - id: len_metadata
      type: s4
      doc: Length in bytes of `metadata`.
      -lc-size-of: metadata
      if: api_version <= 5
    - id: len_metadata_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `metadata`.
      -lc-size-of: metadata
      if: api_version >= 6
    - id: metadata
      doc: The group member metadata.
      size: '(api_version >= 6 ? len_metadata_compact.value : len_metadata)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6

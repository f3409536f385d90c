meta:
  id: sync_group_request
  title: SyncGroupRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: SyncGroupRequest (request), versions 0-5; flexible in 4+.
doc-ref: SyncGroupRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version <= 3
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version >= 4
- id: group_id
  doc: The unique group identifier.
  size: '(api_version >= 4 ? len_group_id_compact.value : len_group_id)'
  type: str
  encoding: UTF-8
- id: generation_id
  type: s4
  doc: The generation of the group.
- id: len_member_id
  type: s2
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version <= 3
- id: len_member_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version >= 4
- id: member_id
  doc: The member ID assigned by the group.
  size: '(api_version >= 4 ? len_member_id_compact.value : len_member_id)'
  type: str
  encoding: UTF-8
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
  doc: The unique identifier of the consumer instance provided by end user.
  size: '(api_version >= 4 ? len_group_instance_id_compact.value : len_group_instance_id)'
  type: str
  encoding: UTF-8
  if: 'api_version >= 3 and (api_version >= 4 ? len_group_instance_id_compact.value : len_group_instance_id)
    >= 0'
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
- id: num_assignments
  type: s4
  doc: Number of elements of `assignments`.
  -lc-count-of: assignments
  if: api_version <= 3
- id: num_assignments_compact
  type: biased_uvarint(32)
  doc: Number of elements of `assignments`.
  -lc-count-of: assignments
  if: api_version >= 4
- id: assignments
  doc: Each assignment.
  type: sync_group_request_assignment(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_assignments_compact.value : num_assignments)'
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
  sync_group_request_assignment:
    doc: SyncGroupRequestAssignment.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_member_id
      type: s2
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version <= 3
    - id: len_member_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version >= 4
    - id: member_id
      doc: The ID of the member to assign.
      size: '(api_version >= 4 ? len_member_id_compact.value : len_member_id)'
      type: str
      encoding: UTF-8
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

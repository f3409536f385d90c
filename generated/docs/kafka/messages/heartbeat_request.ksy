meta:
  id: heartbeat_request
  title: HeartbeatRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: HeartbeatRequest (request), versions 0-4; flexible in 4+.
doc-ref: HeartbeatRequest.json
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
  doc: The group id.
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
  doc: The member ID.
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

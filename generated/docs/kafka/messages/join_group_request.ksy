meta:
  id: join_group_request
  title: JoinGroupRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: JoinGroupRequest (request), versions 0-9; flexible in 6+.
doc-ref: JoinGroupRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version <= 5
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version >= 6
- id: group_id
  doc: The group identifier.
  size: '(api_version >= 6 ? len_group_id_compact.value : len_group_id)'
  type: str
  encoding: UTF-8
- id: session_timeout_ms
  type: s4
  doc: The coordinator considers the consumer dead if it receives no heartbeat after this timeout in milliseconds.
- id: rebalance_timeout_ms
  type: s4
  doc: The maximum time in milliseconds that the coordinator will wait for each member to rejoin when
    rebalancing the group.
  if: api_version >= 1
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
  doc: The member id assigned by the group coordinator.
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
- id: len_protocol_type
  type: s2
  doc: Length in bytes of `protocol_type`.
  -lc-size-of: protocol_type
  if: api_version <= 5
- id: len_protocol_type_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `protocol_type`.
  -lc-size-of: protocol_type
  if: api_version >= 6
- id: protocol_type
  doc: The unique name the for class of protocols implemented by the group we want to join.
  size: '(api_version >= 6 ? len_protocol_type_compact.value : len_protocol_type)'
  type: str
  encoding: UTF-8
- id: num_protocols
  type: s4
  doc: Number of elements of `protocols`.
  -lc-count-of: protocols
  if: api_version <= 5
- id: num_protocols_compact
  type: biased_uvarint(32)
  doc: Number of elements of `protocols`.
  -lc-count-of: protocols
  if: api_version >= 6
- id: protocols
  doc: The list of protocols that the member supports.
  type: join_group_request_protocol(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 ? num_protocols_compact.value : num_protocols)'
- id: len_reason_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `reason`, or -1 for null.
  -lc-size-of: reason
  -lc-absent: -1
  if: api_version >= 8
- id: reason
  doc: The reason why the member (re-)joins the group.
  size: len_reason_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 8 and len_reason_compact.value >= 0
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
  join_group_request_protocol:
    doc: JoinGroupRequestProtocol.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 5
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 6
    - id: name
      doc: The protocol name.
      size: '(api_version >= 6 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
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
      doc: The protocol metadata.
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

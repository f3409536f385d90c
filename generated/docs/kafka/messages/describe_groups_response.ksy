meta:
  id: describe_groups_response
  title: DescribeGroupsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeGroupsResponse (response), versions 0-5; flexible in 5+.
doc-ref: DescribeGroupsResponse.json
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
  doc: Each described group.
  type: described_group(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 5 ? num_groups_compact.value : num_groups)'
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
  described_group:
    doc: DescribedGroup.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The describe error, or 0 if there was no error.
    - id: len_group_id
      type: s2
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version <= 4
    - id: len_group_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version >= 5
    - id: group_id
      doc: The group ID string.
      size: '(api_version >= 5 ? len_group_id_compact.value : len_group_id)'
      type: str
      encoding: UTF-8
    - id: len_group_state
      type: s2
      doc: Length in bytes of `group_state`.
      -lc-size-of: group_state
      if: api_version <= 4
    - id: len_group_state_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_state`.
      -lc-size-of: group_state
      if: api_version >= 5
    - id: group_state
      doc: The group state string, or the empty string.
      size: '(api_version >= 5 ? len_group_state_compact.value : len_group_state)'
      type: str
      encoding: UTF-8
    - id: len_protocol_type
      type: s2
      doc: Length in bytes of `protocol_type`.
      -lc-size-of: protocol_type
      if: api_version <= 4
    - id: len_protocol_type_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `protocol_type`.
      -lc-size-of: protocol_type
      if: api_version >= 5
    - id: protocol_type
      doc: The group protocol type, or the empty string.
      size: '(api_version >= 5 ? len_protocol_type_compact.value : len_protocol_type)'
      type: str
      encoding: UTF-8
    - id: len_protocol_data
      type: s2
      doc: Length in bytes of `protocol_data`.
      -lc-size-of: protocol_data
      if: api_version <= 4
    - id: len_protocol_data_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `protocol_data`.
      -lc-size-of: protocol_data
      if: api_version >= 5
    - id: protocol_data
      doc: The group protocol data, or the empty string.
      size: '(api_version >= 5 ? len_protocol_data_compact.value : len_protocol_data)'
      type: str
      encoding: UTF-8
    - id: num_members
      type: s4
      doc: Number of elements of `members`.
      -lc-count-of: members
      if: api_version <= 4
    - id: num_members_compact
      type: biased_uvarint(32)
      doc: Number of elements of `members`.
      -lc-count-of: members
      if: api_version >= 5
    - id: members
      doc: The group members.
      type: described_group_member(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 5 ? num_members_compact.value : num_members)'
    - id: authorized_operations
      type: s4
      doc: 32-bit bitfield to represent authorized operations for this group.
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
  described_group_member:
    doc: DescribedGroupMember.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_member_id
      type: s2
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version <= 4
    - id: len_member_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
      if: api_version >= 5
    - id: member_id
      doc: The member ID assigned by the group coordinator.
      size: '(api_version >= 5 ? len_member_id_compact.value : len_member_id)'
      type: str
      encoding: UTF-8
    - id: len_group_instance_id
      type: s2
      doc: Length in bytes of `group_instance_id`, or -1 for null.
      -lc-size-of: group_instance_id
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 4 and api_version <= 4
    - id: len_group_instance_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_instance_id`, or -1 for null.
      -lc-size-of: group_instance_id
      -lc-absent: -1
      if: api_version >= 5
    - id: group_instance_id
      doc: The unique identifier of the consumer instance provided by end user.
      size: '(api_version >= 5 ? len_group_instance_id_compact.value : len_group_instance_id)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 4 and (api_version >= 5 ? len_group_instance_id_compact.value : len_group_instance_id)
        >= 0'
    - id: len_client_id
      type: s2
      doc: Length in bytes of `client_id`.
      -lc-size-of: client_id
      if: api_version <= 4
    - id: len_client_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `client_id`.
      -lc-size-of: client_id
      if: api_version >= 5
    - id: client_id
      doc: The client ID used in the member's latest join group request.
      size: '(api_version >= 5 ? len_client_id_compact.value : len_client_id)'
      type: str
      encoding: UTF-8
    - id: len_client_host
      type: s2
      doc: Length in bytes of `client_host`.
      -lc-size-of: client_host
      if: api_version <= 4
    - id: len_client_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `client_host`.
      -lc-size-of: client_host
      if: api_version >= 5
    - id: client_host
      doc: The client host.
      size: '(api_version >= 5 ? len_client_host_compact.value : len_client_host)'
      type: str
      encoding: UTF-8
    - id: len_member_metadata
      type: s4
      doc: Length in bytes of `member_metadata`.
      -lc-size-of: member_metadata
      if: api_version <= 4
    - id: len_member_metadata_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_metadata`.
      -lc-size-of: member_metadata
      if: api_version >= 5
    - id: member_metadata
      doc: The metadata corresponding to the current group protocol in use.
      size: '(api_version >= 5 ? len_member_metadata_compact.value : len_member_metadata)'
    - id: len_member_assignment
      type: s4
      doc: Length in bytes of `member_assignment`.
      -lc-size-of: member_assignment
      if: api_version <= 4
    - id: len_member_assignment_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_assignment`.
      -lc-size-of: member_assignment
      if: api_version >= 5
    - id: member_assignment
      doc: The current assignment provided by the group leader.
      size: '(api_version >= 5 ? len_member_assignment_compact.value : len_member_assignment)'
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

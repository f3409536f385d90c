meta:
  id: consumer_group_describe_response
  title: ConsumerGroupDescribeResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ConsumerGroupDescribeResponse (response), versions 0; flexible in 0+.
doc-ref: ConsumerGroupDescribeResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_groups_compact
  type: biased_uvarint(32)
  doc: Number of elements of `groups`.
  -lc-count-of: groups
- id: groups
  doc: Each described group.
  type: described_group(api_version)
  repeat: expr
  repeat-expr: num_groups_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
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
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
    - id: error_message
      doc: The top-level error message, or null if there was no error.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: len_error_message_compact.value >= 0
    - id: len_group_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
    - id: group_id
      doc: The group ID string.
      size: len_group_id_compact.value
      type: str
      encoding: UTF-8
    - id: len_group_state_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_state`.
      -lc-size-of: group_state
    - id: group_state
      doc: The group state string, or the empty string.
      size: len_group_state_compact.value
      type: str
      encoding: UTF-8
    - id: group_epoch
      type: s4
      doc: The group epoch.
    - id: assignment_epoch
      type: s4
      doc: The assignment epoch.
    - id: len_assignor_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `assignor_name`.
      -lc-size-of: assignor_name
    - id: assignor_name
      doc: The selected assignor.
      size: len_assignor_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_members_compact
      type: biased_uvarint(32)
      doc: Number of elements of `members`.
      -lc-count-of: members
    - id: members
      doc: The members.
      type: member(api_version)
      repeat: expr
      repeat-expr: num_members_compact.value
    - id: authorized_operations
      type: s4
      doc: 32-bit bitfield to represent authorized operations for this group.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  member:
    doc: Member.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_member_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_id`.
      -lc-size-of: member_id
    - id: member_id
      doc: The member ID.
      size: len_member_id_compact.value
      type: str
      encoding: UTF-8
    - id: len_instance_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `instance_id`, or -1 for null.
      -lc-size-of: instance_id
      -lc-absent: -1
    - id: instance_id
      doc: The member instance ID.
      size: len_instance_id_compact.value
      type: str
      encoding: UTF-8
      if: len_instance_id_compact.value >= 0
    - id: len_rack_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack_id`, or -1 for null.
      -lc-size-of: rack_id
      -lc-absent: -1
    - id: rack_id
      doc: The member rack ID.
      size: len_rack_id_compact.value
      type: str
      encoding: UTF-8
      if: len_rack_id_compact.value >= 0
    - id: member_epoch
      type: s4
      doc: The current member epoch.
    - id: len_client_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `client_id`.
      -lc-size-of: client_id
    - id: client_id
      doc: The client ID.
      size: len_client_id_compact.value
      type: str
      encoding: UTF-8
    - id: len_client_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `client_host`.
      -lc-size-of: client_host
    - id: client_host
      doc: The client host.
      size: len_client_host_compact.value
      type: str
      encoding: UTF-8
    - id: num_subscribed_topic_names_compact
      type: biased_uvarint(32)
      doc: Number of elements of `subscribed_topic_names`.
      -lc-count-of: subscribed_topic_names
    - id: subscribed_topic_names
      doc: The subscribed topic names.
      type: string_element(api_version)
      repeat: expr
      repeat-expr: num_subscribed_topic_names_compact.value
    - id: len_subscribed_topic_regex_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `subscribed_topic_regex`, or -1 for null.
      -lc-size-of: subscribed_topic_regex
      -lc-absent: -1
    - id: subscribed_topic_regex
      doc: the subscribed topic regex otherwise or null of not provided.
      size: len_subscribed_topic_regex_compact.value
      type: str
      encoding: UTF-8
      if: len_subscribed_topic_regex_compact.value >= 0
    - id: assignment
      type: assignment(api_version)
      doc: The current assignment.
    - id: target_assignment
      type: assignment(api_version)
      doc: The target assignment.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
    - id: value
      doc: The string.
      size: len_value_compact.value
      type: str
      encoding: UTF-8
  assignment:
    doc: Assignment.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: num_topic_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topic_partitions`.
      -lc-count-of: topic_partitions
    - id: topic_partitions
      doc: The assigned topic-partitions to the member.
      type: topic_partitions(api_version)
      repeat: expr
      repeat-expr: num_topic_partitions_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  topic_partitions:
    doc: TopicPartitions.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The topic ID.
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
    - id: topic_name
      doc: The topic name.
      size: len_topic_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The partitions.
      type: s4
      repeat: expr
      repeat-expr: num_partitions_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

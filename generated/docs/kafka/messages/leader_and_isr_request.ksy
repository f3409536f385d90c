meta:
  id: leader_and_isr_request
  title: LeaderAndIsrRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: LeaderAndIsrRequest (request), versions 0-7; flexible in 4+.
doc-ref: LeaderAndIsrRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: controller_id
  type: s4
  doc: The current controller ID.
- id: is_k_raft_controller
  type: u1
  doc: If KRaft controller id is used during migration. See KIP-866
  if: api_version >= 7
- id: controller_epoch
  type: s4
  doc: The current controller epoch.
- id: broker_epoch
  type: s8
  doc: The current broker epoch.
  if: api_version >= 2
- id: type
  type: s1
  doc: The type that indicates whether all topics are included in the request
  if: api_version >= 5
- id: num_ungrouped_partition_states
  type: s4
  doc: Number of elements of `ungrouped_partition_states`.
  -lc-count-of: ungrouped_partition_states
  if: api_version <= 1
- id: ungrouped_partition_states
  doc: The state of each partition, in a v0 or v1 message.
  type: leader_and_isr_partition_state(api_version)
  repeat: expr
  repeat-expr: num_ungrouped_partition_states
  if: api_version <= 1
- id: num_topic_states
  type: s4
  doc: Number of elements of `topic_states`.
  -lc-count-of: topic_states
  if: api_version >= 2 and api_version <= 3
- id: num_topic_states_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topic_states`.
  -lc-count-of: topic_states
  if: api_version >= 4
- id: topic_states
  doc: Each topic.
  type: leader_and_isr_topic_state(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_topic_states_compact.value : num_topic_states)'
  if: api_version >= 2
- id: num_live_leaders
  type: s4
  doc: Number of elements of `live_leaders`.
  -lc-count-of: live_leaders
  if: api_version <= 3
- id: num_live_leaders_compact
  type: biased_uvarint(32)
  doc: Number of elements of `live_leaders`.
  -lc-count-of: live_leaders
  if: api_version >= 4
- id: live_leaders
  doc: The current live leaders.
  type: leader_and_isr_live_leader(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_live_leaders_compact.value : num_live_leaders)'
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
  leader_and_isr_partition_state:
    doc: LeaderAndIsrPartitionState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 1
    - id: topic_name
      doc: The topic name.  This is only present in v0 or v1.
      size: len_topic_name
      type: str
      encoding: UTF-8
      if: api_version <= 1
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: controller_epoch
      type: s4
      doc: The controller epoch.
    - id: leader
      type: s4
      doc: The broker ID of the leader.
    - id: leader_epoch
      type: s4
      doc: The leader epoch.
    - id: num_isr
      type: s4
      doc: Number of elements of `isr`.
      -lc-count-of: isr
      if: api_version <= 3
    - id: num_isr_compact
      type: biased_uvarint(32)
      doc: Number of elements of `isr`.
      -lc-count-of: isr
      if: api_version >= 4
    - id: isr
      doc: The in-sync replica IDs.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_isr_compact.value : num_isr)'
    - id: partition_epoch
      type: s4
      doc: The current epoch for the partition. The epoch is a monotonically increasing value which is
        incremented after every partition change. (Since the LeaderAndIsr request is only used by the
        legacy controller, this corresponds to the zkVersion)
    - id: num_replicas
      type: s4
      doc: Number of elements of `replicas`.
      -lc-count-of: replicas
      if: api_version <= 3
    - id: num_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `replicas`.
      -lc-count-of: replicas
      if: api_version >= 4
    - id: replicas
      doc: The replica IDs.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_replicas_compact.value : num_replicas)'
    - id: num_adding_replicas
      type: s4
      doc: Number of elements of `adding_replicas`.
      -lc-count-of: adding_replicas
      if: api_version >= 3 and api_version <= 3
    - id: num_adding_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `adding_replicas`.
      -lc-count-of: adding_replicas
      if: api_version >= 4
    - id: adding_replicas
      doc: The replica IDs that we are adding this partition to, or null if no replicas are being added.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_adding_replicas_compact.value : num_adding_replicas)'
      if: api_version >= 3
    - id: num_removing_replicas
      type: s4
      doc: Number of elements of `removing_replicas`.
      -lc-count-of: removing_replicas
      if: api_version >= 3 and api_version <= 3
    - id: num_removing_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `removing_replicas`.
      -lc-count-of: removing_replicas
      if: api_version >= 4
    - id: removing_replicas
      doc: The replica IDs that we are removing this partition from, or null if no replicas are being
        removed.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_removing_replicas_compact.value : num_removing_replicas)'
      if: api_version >= 3
    - id: is_new
      type: u1
      doc: Whether the replica should have existed on the broker or not.
      if: api_version >= 1
    - id: leader_recovery_state
      type: s1
      doc: 1 if the partition is recovering from an unclean leader election; 0 otherwise.
      if: api_version >= 6
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
  leader_and_isr_topic_state:
    doc: LeaderAndIsrTopicState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 2 and api_version <= 3
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 4
    - id: topic_name
      doc: The topic name.
      size: '(api_version >= 4 ? len_topic_name_compact.value : len_topic_name)'
      type: str
      encoding: UTF-8
      if: api_version >= 2
    - id: topic_id
      size: 16
      doc: The unique topic ID.
      if: api_version >= 5
    - id: num_partition_states
      type: s4
      doc: Number of elements of `partition_states`.
      -lc-count-of: partition_states
      if: api_version >= 2 and api_version <= 3
    - id: num_partition_states_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_states`.
      -lc-count-of: partition_states
      if: api_version >= 4
    - id: partition_states
      doc: The state of each partition
      type: leader_and_isr_partition_state(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_partition_states_compact.value : num_partition_states)'
      if: api_version >= 2
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
  leader_and_isr_live_leader:
    doc: LeaderAndIsrLiveLeader.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: broker_id
      type: s4
      doc: The leader's broker ID.
    - id: len_host_name
      type: s2
      doc: Length in bytes of `host_name`.
      -lc-size-of: host_name
      if: api_version <= 3
    - id: len_host_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host_name`.
      -lc-size-of: host_name
      if: api_version >= 4
    - id: host_name
      doc: The leader's hostname.
      size: '(api_version >= 4 ? len_host_name_compact.value : len_host_name)'
      type: str
      encoding: UTF-8
    - id: port
      type: s4
      doc: The leader's port.
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

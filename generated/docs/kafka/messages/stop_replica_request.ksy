meta:
  id: stop_replica_request
  title: StopReplicaRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: StopReplicaRequest (request), versions 0-4; flexible in 2+.
doc-ref: StopReplicaRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: controller_id
  type: s4
  doc: The controller id.
- id: is_k_raft_controller
  type: u1
  doc: If KRaft controller id is used during migration. See KIP-866
  if: api_version >= 4
- id: controller_epoch
  type: s4
  doc: The controller epoch.
- id: broker_epoch
  type: s8
  doc: The broker epoch.
  if: api_version >= 1
- id: delete_partitions
  type: u1
  doc: Whether these partitions should be deleted.
  if: api_version <= 2
- id: num_ungrouped_partitions
  type: s4
  doc: Number of elements of `ungrouped_partitions`.
  -lc-count-of: ungrouped_partitions
  if: api_version <= 0
- id: ungrouped_partitions
  doc: The partitions to stop.
  type: stop_replica_partition_v0(api_version)
  repeat: expr
  repeat-expr: num_ungrouped_partitions
  if: api_version <= 0
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 1 and api_version <= 1
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 2 and api_version <= 2
- id: topics
  doc: The topics to stop.
  type: stop_replica_topic_v1(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 and api_version <= 2 ? num_topics_compact.value : num_topics)'
  if: api_version >= 1 and api_version <= 2
- id: num_topic_states_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topic_states`.
  -lc-count-of: topic_states
  if: api_version >= 3
- id: topic_states
  doc: Each topic.
  type: stop_replica_topic_state(api_version)
  repeat: expr
  repeat-expr: num_topic_states_compact.value
  if: api_version >= 3
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
  stop_replica_partition_v0:
    doc: StopReplicaPartitionV0.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 0
    - id: topic_name
      doc: The topic name.
      size: len_topic_name
      type: str
      encoding: UTF-8
      if: api_version <= 0
    - id: partition_index
      type: s4
      doc: The partition index.
      if: api_version <= 0
  stop_replica_topic_v1:
    doc: StopReplicaTopicV1.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 1 and api_version <= 1
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 2 and api_version <= 2
    - id: name
      doc: The topic name.
      size: '(api_version >= 2 and api_version <= 2 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
      if: api_version >= 1 and api_version <= 2
    - id: num_partition_indexes
      type: s4
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version >= 1 and api_version <= 1
    - id: num_partition_indexes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version >= 2 and api_version <= 2
    - id: partition_indexes
      doc: The partition indexes.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 2 and api_version <= 2 ? num_partition_indexes_compact.value : num_partition_indexes)'
      if: api_version >= 1 and api_version <= 2
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 2 and api_version <= 2
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 2 and api_version <= 2
  stop_replica_topic_state:
    doc: StopReplicaTopicState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 3
    - id: topic_name
      doc: The topic name.
      size: len_topic_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: num_partition_states_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_states`.
      -lc-count-of: partition_states
      if: api_version >= 3
    - id: partition_states
      doc: The state of each partition
      type: stop_replica_partition_state(api_version)
      repeat: expr
      repeat-expr: num_partition_states_compact.value
      if: api_version >= 3
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
  stop_replica_partition_state:
    doc: StopReplicaPartitionState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
      if: api_version >= 3
    - id: leader_epoch
      type: s4
      doc: The leader epoch.
      if: api_version >= 3
    - id: delete_partition
      type: u1
      doc: Whether this partition should be deleted.
      if: api_version >= 3
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

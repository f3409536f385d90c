meta:
  id: describe_topic_partitions_response
  title: DescribeTopicPartitionsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeTopicPartitionsResponse (response), versions 0; flexible in 0+.
doc-ref: DescribeTopicPartitionsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: Each topic in the response.
  type: describe_topic_partitions_response_topic(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
- id: has_next_cursor
  type: s1
  doc: 1 when `next_cursor` follows, -1 for null.
  valid:
    any-of:
    - 1
    - -1
  -lc-present: next_cursor
  -lc-absent: -1
- id: next_cursor
  type: cursor(api_version)
  doc: The next topic and partition index to fetch details for.
  if: has_next_cursor >= 0
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
  describe_topic_partitions_response_topic:
    doc: DescribeTopicPartitionsResponseTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The topic error, or 0 if there was no error.
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
    - id: name
      doc: The topic name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: len_name_compact.value >= 0
    - id: topic_id
      size: 16
      doc: The topic id.
    - id: is_internal
      type: u1
      doc: True if the topic is internal.
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: Each partition in the topic.
      type: describe_topic_partitions_response_partition(api_version)
      repeat: expr
      repeat-expr: num_partitions_compact.value
    - id: topic_authorized_operations
      type: s4
      doc: 32-bit bitfield to represent authorized operations for this topic.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  describe_topic_partitions_response_partition:
    doc: DescribeTopicPartitionsResponsePartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The partition error, or 0 if there was no error.
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: leader_id
      type: s4
      doc: The ID of the leader broker.
    - id: leader_epoch
      type: s4
      doc: The leader epoch of this partition.
    - id: num_replica_nodes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `replica_nodes`.
      -lc-count-of: replica_nodes
    - id: replica_nodes
      doc: The set of all nodes that host this partition.
      type: s4
      repeat: expr
      repeat-expr: num_replica_nodes_compact.value
    - id: num_isr_nodes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `isr_nodes`.
      -lc-count-of: isr_nodes
    - id: isr_nodes
      doc: The set of nodes that are in sync with the leader for this partition.
      type: s4
      repeat: expr
      repeat-expr: num_isr_nodes_compact.value
    - id: num_eligible_leader_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `eligible_leader_replicas`, or -1 for null.
      -lc-count-of: eligible_leader_replicas
      -lc-absent: -1
    - id: eligible_leader_replicas
      doc: The new eligible leader replicas otherwise.
      type: s4
      repeat: expr
      repeat-expr: num_eligible_leader_replicas_compact.value
      if: num_eligible_leader_replicas_compact.value >= 0
    - id: num_last_known_elr_compact
      type: biased_uvarint(32)
      doc: Number of elements of `last_known_elr`, or -1 for null.
      -lc-count-of: last_known_elr
      -lc-absent: -1
    - id: last_known_elr
      doc: The last known ELR.
      type: s4
      repeat: expr
      repeat-expr: num_last_known_elr_compact.value
      if: num_last_known_elr_compact.value >= 0
    - id: num_offline_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `offline_replicas`.
      -lc-count-of: offline_replicas
    - id: offline_replicas
      doc: The set of offline replicas of this partition.
      type: s4
      repeat: expr
      repeat-expr: num_offline_replicas_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  cursor:
    doc: Cursor.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
    - id: topic_name
      doc: The name for the first topic to process
      size: len_topic_name_compact.value
      type: str
      encoding: UTF-8
    - id: partition_index
      type: s4
      doc: The partition index to start with
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

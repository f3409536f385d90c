meta:
  id: alter_partition_response
  title: AlterPartitionResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterPartitionResponse (response), versions 0-3; flexible in 0+.
doc-ref: AlterPartitionResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: error_code
  type: s2
  doc: The top level response error code
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: Topics.
  type: topic_data(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
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
  topic_data:
    doc: TopicData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 1
    - id: topic_name
      doc: The name of the topic
      size: len_topic_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version <= 1
    - id: topic_id
      size: 16
      doc: The ID of the topic
      if: api_version >= 2
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: Partitions.
      type: partition_data(api_version)
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
  partition_data:
    doc: PartitionData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index
    - id: error_code
      type: s2
      doc: The partition level error code
    - id: leader_id
      type: s4
      doc: The broker ID of the leader.
    - id: leader_epoch
      type: s4
      doc: The leader epoch.
    - id: num_isr_compact
      type: biased_uvarint(32)
      doc: Number of elements of `isr`.
      -lc-count-of: isr
    - id: isr
      doc: The in-sync replica IDs.
      type: s4
      repeat: expr
      repeat-expr: num_isr_compact.value
    - id: leader_recovery_state
      type: s1
      doc: 1 if the partition is recovering from an unclean leader election; 0 otherwise.
      if: api_version >= 1
    - id: partition_epoch
      type: s4
      doc: The current epoch for the partition for KRaft controllers. The current ZK version for the legacy
        controllers.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

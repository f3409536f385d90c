meta:
  id: alter_partition_request
  title: AlterPartitionRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterPartitionRequest (request), versions 0-3; flexible in 0+.
doc-ref: AlterPartitionRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: broker_id
  type: s4
  doc: The ID of the requesting broker
- id: broker_epoch
  type: s8
  doc: The epoch of the requesting broker
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
      doc: The name of the topic to alter ISRs for
      size: len_topic_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version <= 1
    - id: topic_id
      size: 16
      doc: The ID of the topic to alter ISRs for
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
    - id: leader_epoch
      type: s4
      doc: The leader epoch of this partition
    - id: num_new_isr_compact
      type: biased_uvarint(32)
      doc: Number of elements of `new_isr`.
      -lc-count-of: new_isr
      if: api_version <= 2
    - id: new_isr
      doc: The ISR for this partition. Deprecated since version 3.
      type: s4
      repeat: expr
      repeat-expr: num_new_isr_compact.value
      if: api_version <= 2
    - id: num_new_isr_with_epochs_compact
      type: biased_uvarint(32)
      doc: Number of elements of `new_isr_with_epochs`.
      -lc-count-of: new_isr_with_epochs
      if: api_version >= 3
    - id: new_isr_with_epochs
      doc: NewIsrWithEpochs.
      type: broker_state(api_version)
      repeat: expr
      repeat-expr: num_new_isr_with_epochs_compact.value
      if: api_version >= 3
    - id: leader_recovery_state
      type: s1
      doc: 1 if the partition is recovering from an unclean leader election; 0 otherwise.
      if: api_version >= 1
    - id: partition_epoch
      type: s4
      doc: The expected epoch of the partition which is being updated. For legacy cluster this is the
        ZkVersion in the LeaderAndIsr request.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  broker_state:
    doc: BrokerState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: broker_id
      type: s4
      doc: The ID of the broker.
      if: api_version >= 3
    - id: broker_epoch
      type: s8
      doc: The epoch of the broker. It will be -1 if the epoch check is not supported.
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

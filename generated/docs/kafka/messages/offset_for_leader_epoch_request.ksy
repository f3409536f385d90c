meta:
  id: offset_for_leader_epoch_request
  title: OffsetForLeaderEpochRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: OffsetForLeaderEpochRequest (request), versions 0-4; flexible in 4+.
doc-ref: OffsetForLeaderEpochRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: replica_id
  type: s4
  doc: The broker ID of the follower, of -1 if this request is from a consumer.
  if: api_version >= 3
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 3
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 4
- id: topics
  doc: Each topic to get offsets for.
  type: offset_for_leader_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_topics_compact.value : num_topics)'
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
  offset_for_leader_topic:
    doc: OffsetForLeaderTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic
      type: s2
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version <= 3
    - id: len_topic_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version >= 4
    - id: topic
      doc: The topic name.
      size: '(api_version >= 4 ? len_topic_compact.value : len_topic)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 3
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 4
    - id: partitions
      doc: Each partition to get offsets for.
      type: offset_for_leader_partition(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_partitions_compact.value : num_partitions)'
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
  offset_for_leader_partition:
    doc: OffsetForLeaderPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition
      type: s4
      doc: The partition index.
    - id: current_leader_epoch
      type: s4
      doc: An epoch used to fence consumers/replicas with old metadata. If the epoch provided by the client
        is larger than the current epoch known to the broker, then the UNKNOWN_LEADER_EPOCH error code
        will be returned. If the provided epoch is smaller, then the FENCED_LEADER_EPOCH error code will
        be returned.
      if: api_version >= 2
    - id: leader_epoch
      type: s4
      doc: The epoch to look up an offset for.
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

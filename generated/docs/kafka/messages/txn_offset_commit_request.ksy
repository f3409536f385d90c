meta:
  id: txn_offset_commit_request
  title: TxnOffsetCommitRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: TxnOffsetCommitRequest (request), versions 0-4; flexible in 3+.
doc-ref: TxnOffsetCommitRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_transactional_id
  type: s2
  doc: Length in bytes of `transactional_id`.
  -lc-size-of: transactional_id
  if: api_version <= 2
- id: len_transactional_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `transactional_id`.
  -lc-size-of: transactional_id
  if: api_version >= 3
- id: transactional_id
  doc: The ID of the transaction.
  size: '(api_version >= 3 ? len_transactional_id_compact.value : len_transactional_id)'
  type: str
  encoding: UTF-8
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version <= 2
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version >= 3
- id: group_id
  doc: The ID of the group.
  size: '(api_version >= 3 ? len_group_id_compact.value : len_group_id)'
  type: str
  encoding: UTF-8
- id: producer_id
  type: s8
  doc: The current producer ID in use by the transactional ID.
- id: producer_epoch
  type: s2
  doc: The current epoch associated with the producer ID.
- id: generation_id
  type: s4
  doc: The generation of the consumer.
  if: api_version >= 3
- id: len_member_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version >= 3
- id: member_id
  doc: The member ID assigned by the group coordinator.
  size: len_member_id_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 3
- id: len_group_instance_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_instance_id`, or -1 for null.
  -lc-size-of: group_instance_id
  -lc-absent: -1
  if: api_version >= 3
- id: group_instance_id
  doc: The unique identifier of the consumer instance provided by end user.
  size: len_group_instance_id_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 3 and len_group_instance_id_compact.value >= 0
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 2
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 3
- id: topics
  doc: Each topic that we want to commit offsets for.
  type: txn_offset_commit_request_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 3 ? num_topics_compact.value : num_topics)'
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
types:
  txn_offset_commit_request_topic:
    doc: TxnOffsetCommitRequestTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 2
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 3
    - id: name
      doc: The topic name.
      size: '(api_version >= 3 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 2
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 3
    - id: partitions
      doc: The partitions inside the topic that we want to commit offsets for.
      type: txn_offset_commit_request_partition(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 3 ? num_partitions_compact.value : num_partitions)'
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
  txn_offset_commit_request_partition:
    doc: TxnOffsetCommitRequestPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The index of the partition within the topic.
    - id: committed_offset
      type: s8
      doc: The message offset to be committed.
    - id: committed_leader_epoch
      type: s4
      doc: The leader epoch of the last consumed record.
      if: api_version >= 2
    - id: len_committed_metadata
      type: s2
      doc: Length in bytes of `committed_metadata`, or -1 for null.
      -lc-size-of: committed_metadata
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 2
    - id: len_committed_metadata_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `committed_metadata`, or -1 for null.
      -lc-size-of: committed_metadata
      -lc-absent: -1
      if: api_version >= 3
    - id: committed_metadata
      doc: Any associated metadata the client wants to keep.
      size: '(api_version >= 3 ? len_committed_metadata_compact.value : len_committed_metadata)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 3 ? len_committed_metadata_compact.value : len_committed_metadata) >= 0'
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

meta:
  id: offset_commit_request
  title: OffsetCommitRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: OffsetCommitRequest (request), versions 0-9; flexible in 8+.
doc-ref: OffsetCommitRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version <= 7
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version >= 8
- id: group_id
  doc: The unique group identifier.
  size: '(api_version >= 8 ? len_group_id_compact.value : len_group_id)'
  type: str
  encoding: UTF-8
- id: generation_id_or_member_epoch
  type: s4
  doc: The generation of the group if using the classic group protocol or the member epoch if using the
    consumer protocol.
  if: api_version >= 1
- id: len_member_id
  type: s2
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version >= 1 and api_version <= 7
- id: len_member_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `member_id`.
  -lc-size-of: member_id
  if: api_version >= 8
- id: member_id
  doc: The member ID assigned by the group coordinator.
  size: '(api_version >= 8 ? len_member_id_compact.value : len_member_id)'
  type: str
  encoding: UTF-8
  if: api_version >= 1
- id: len_group_instance_id
  type: s2
  doc: Length in bytes of `group_instance_id`, or -1 for null.
  -lc-size-of: group_instance_id
  -lc-absent: -1
  valid:
    min: -1
  if: api_version >= 7 and api_version <= 7
- id: len_group_instance_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_instance_id`, or -1 for null.
  -lc-size-of: group_instance_id
  -lc-absent: -1
  if: api_version >= 8
- id: group_instance_id
  doc: The unique identifier of the consumer instance provided by end user.
  size: '(api_version >= 8 ? len_group_instance_id_compact.value : len_group_instance_id)'
  type: str
  encoding: UTF-8
  if: 'api_version >= 7 and (api_version >= 8 ? len_group_instance_id_compact.value : len_group_instance_id)
    >= 0'
- id: retention_time_ms
  type: s8
  doc: The time period in ms to retain the offset.
  if: api_version >= 2 and api_version <= 4
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 7
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 8
- id: topics
  doc: The topics to commit offsets for.
  type: offset_commit_request_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 8 ? num_topics_compact.value : num_topics)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 8
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 8
types:
  offset_commit_request_topic:
    doc: OffsetCommitRequestTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 7
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 8
    - id: name
      doc: The topic name.
      size: '(api_version >= 8 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 7
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 8
    - id: partitions
      doc: Each partition to commit offsets for.
      type: offset_commit_request_partition(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 8 ? num_partitions_compact.value : num_partitions)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 8
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 8
  offset_commit_request_partition:
    doc: OffsetCommitRequestPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: committed_offset
      type: s8
      doc: The message offset to be committed.
    - id: committed_leader_epoch
      type: s4
      doc: The leader epoch of this partition.
      if: api_version >= 6
    - id: commit_timestamp
      type: s8
      doc: The timestamp of the commit.
      if: api_version >= 1 and api_version <= 1
    - id: len_committed_metadata
      type: s2
      doc: Length in bytes of `committed_metadata`, or -1 for null.
      -lc-size-of: committed_metadata
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 7
    - id: len_committed_metadata_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `committed_metadata`, or -1 for null.
      -lc-size-of: committed_metadata
      -lc-absent: -1
      if: api_version >= 8
    - id: committed_metadata
      doc: Any associated metadata the client wants to keep.
      size: '(api_version >= 8 ? len_committed_metadata_compact.value : len_committed_metadata)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 8 ? len_committed_metadata_compact.value : len_committed_metadata) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 8
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 8

meta:
  id: vote_request
  title: VoteRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: VoteRequest (request), versions 0-1; flexible in 0+.
doc-ref: VoteRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_cluster_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `cluster_id`, or -1 for null.
  -lc-size-of: cluster_id
  -lc-absent: -1
- id: cluster_id
  doc: ClusterId.
  size: len_cluster_id_compact.value
  type: str
  encoding: UTF-8
  if: len_cluster_id_compact.value >= 0
- id: voter_id
  type: s4
  doc: The replica id of the voter receiving the request
  if: api_version >= 1
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
      doc: The partition index.
    - id: candidate_epoch
      type: s4
      doc: The bumped epoch of the candidate sending the request
    - id: candidate_id
      type: s4
      doc: The replica id of the voter sending the request
    - id: candidate_directory_id
      size: 16
      doc: The directory id of the voter sending the request
      if: api_version >= 1
    - id: voter_directory_id
      size: 16
      doc: The ID of the voter sending the request
      if: api_version >= 1
    - id: last_offset_epoch
      type: s4
      doc: The epoch of the last record written to the metadata log
    - id: last_offset
      type: s8
      doc: The offset of the last record written to the metadata log
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

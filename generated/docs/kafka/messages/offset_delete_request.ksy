meta:
  id: offset_delete_request
  title: OffsetDeleteRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
doc: OffsetDeleteRequest (request), versions 0; flexible in none.
doc-ref: OffsetDeleteRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
- id: group_id
  doc: The unique group identifier.
  size: len_group_id
  type: str
  encoding: UTF-8
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics to delete offsets for
  type: offset_delete_request_topic(api_version)
  repeat: expr
  repeat-expr: num_topics
types:
  offset_delete_request_topic:
    doc: OffsetDeleteRequestTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The topic name.
      size: len_name
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: Each partition to delete offsets for.
      type: offset_delete_request_partition(api_version)
      repeat: expr
      repeat-expr: num_partitions
  offset_delete_request_partition:
    doc: OffsetDeleteRequestPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.

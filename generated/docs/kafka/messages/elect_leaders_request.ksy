meta:
  id: elect_leaders_request
  title: ElectLeadersRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ElectLeadersRequest (request), versions 0-2; flexible in 2+.
doc-ref: ElectLeadersRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: election_type
  type: s1
  doc: Type of elections to conduct for the partition. A value of '0' elects the preferred replica. A
    value of '1' elects the first live replica if there are no in-sync replica.
  if: api_version >= 1
- id: num_topic_partitions
  type: s4
  doc: Number of elements of `topic_partitions`, or -1 for null.
  -lc-count-of: topic_partitions
  -lc-absent: -1
  valid:
    min: -1
  if: api_version <= 1
- id: num_topic_partitions_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topic_partitions`, or -1 for null.
  -lc-count-of: topic_partitions
  -lc-absent: -1
  if: api_version >= 2
- id: topic_partitions
  doc: The topic partitions to elect leaders.
  type: topic_partitions(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_topic_partitions_compact.value : num_topic_partitions)'
  if: '(api_version >= 2 ? num_topic_partitions_compact.value : num_topic_partitions) >= 0'
- id: timeout_ms
  type: s4
  doc: The time in ms to wait for the election to complete.
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
  topic_partitions:
    doc: TopicPartitions.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic
      type: s2
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version <= 1
    - id: len_topic_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version >= 2
    - id: topic
      doc: The name of a topic.
      size: '(api_version >= 2 ? len_topic_compact.value : len_topic)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 1
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 2
    - id: partitions
      doc: The partitions of this topic whose leader should be elected.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_partitions_compact.value : num_partitions)'
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

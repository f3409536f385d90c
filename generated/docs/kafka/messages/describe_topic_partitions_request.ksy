meta:
  id: describe_topic_partitions_request
  title: DescribeTopicPartitionsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeTopicPartitionsRequest (request), versions 0; flexible in 0+.
doc-ref: DescribeTopicPartitionsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics to fetch details for.
  type: topic_request(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
- id: response_partition_limit
  type: s4
  doc: The maximum number of partitions included in the response.
- id: has_cursor
  type: s1
  doc: 1 when `cursor` follows, -1 for null.
  valid:
    any-of:
    - 1
    - -1
  -lc-present: cursor
  -lc-absent: -1
- id: cursor
  type: cursor(api_version)
  doc: The first topic and partition index to fetch details for.
  if: has_cursor >= 0
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
  topic_request:
    doc: TopicRequest.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The topic name
      size: len_name_compact.value
      type: str
      encoding: UTF-8
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

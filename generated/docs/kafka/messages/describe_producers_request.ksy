meta:
  id: describe_producers_request
  title: DescribeProducersRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeProducersRequest (request), versions 0; flexible in 0+.
doc-ref: DescribeProducersRequest.json
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
  doc: Topics.
  type: topic_request(api_version)
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
      doc: The topic name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partition_indexes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
    - id: partition_indexes
      doc: The indexes of the partitions to list producers for.
      type: s4
      repeat: expr
      repeat-expr: num_partition_indexes_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

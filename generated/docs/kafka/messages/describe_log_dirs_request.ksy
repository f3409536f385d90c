meta:
  id: describe_log_dirs_request
  title: DescribeLogDirsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeLogDirsRequest (request), versions 0-4; flexible in 2+.
doc-ref: DescribeLogDirsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_topics
  type: s4
  doc: Number of elements of `topics`, or -1 for null.
  -lc-count-of: topics
  -lc-absent: -1
  valid:
    min: -1
  if: api_version <= 1
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`, or -1 for null.
  -lc-count-of: topics
  -lc-absent: -1
  if: api_version >= 2
- id: topics
  doc: Each topic that we want to describe log directories for, or null for all topics.
  type: describable_log_dir_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_topics_compact.value : num_topics)'
  if: '(api_version >= 2 ? num_topics_compact.value : num_topics) >= 0'
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
  describable_log_dir_topic:
    doc: DescribableLogDirTopic.
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
      doc: The topic name
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
      doc: The partition indexes.
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

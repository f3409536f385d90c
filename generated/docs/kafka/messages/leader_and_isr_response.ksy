meta:
  id: leader_and_isr_response
  title: LeaderAndIsrResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: LeaderAndIsrResponse (response), versions 0-7; flexible in 4+.
doc-ref: LeaderAndIsrResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: num_partition_errors
  type: s4
  doc: Number of elements of `partition_errors`.
  -lc-count-of: partition_errors
  if: api_version <= 3
- id: num_partition_errors_compact
  type: biased_uvarint(32)
  doc: Number of elements of `partition_errors`.
  -lc-count-of: partition_errors
  if: api_version >= 4 and api_version <= 4
- id: partition_errors
  doc: Each partition in v0 to v4 message.
  type: leader_and_isr_partition_error(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 and api_version <= 4 ? num_partition_errors_compact.value : num_partition_errors)'
  if: api_version <= 4
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 5
- id: topics
  doc: Each topic
  type: leader_and_isr_topic_error(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
  if: api_version >= 5
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
  leader_and_isr_partition_error:
    doc: LeaderAndIsrPartitionError.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 3
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 4 and api_version <= 4
    - id: topic_name
      doc: The topic name.
      size: '(api_version >= 4 and api_version <= 4 ? len_topic_name_compact.value : len_topic_name)'
      type: str
      encoding: UTF-8
      if: api_version <= 4
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The partition error code, or 0 if there was no error.
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
  leader_and_isr_topic_error:
    doc: LeaderAndIsrTopicError.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The unique topic ID
      if: api_version >= 5
    - id: num_partition_errors_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_errors`.
      -lc-count-of: partition_errors
      if: api_version >= 5
    - id: partition_errors
      doc: Each partition.
      type: leader_and_isr_partition_error(api_version)
      repeat: expr
      repeat-expr: num_partition_errors_compact.value
      if: api_version >= 5
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 5
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 5

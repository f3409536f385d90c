meta:
  id: list_offsets_response
  title: ListOffsetsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListOffsetsResponse (response), versions 0-10; flexible in 6+.
doc-ref: ListOffsetsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 2
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 5
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 6
- id: topics
  doc: Each topic in the response.
  type: list_offsets_topic_response(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 ? num_topics_compact.value : num_topics)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 6
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 6
types:
  list_offsets_topic_response:
    doc: ListOffsetsTopicResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 5
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 6
    - id: name
      doc: The topic name
      size: '(api_version >= 6 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 5
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 6
    - id: partitions
      doc: Each partition in the response.
      type: list_offsets_partition_response(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 6 ? num_partitions_compact.value : num_partitions)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6
  list_offsets_partition_response:
    doc: ListOffsetsPartitionResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The partition error code, or 0 if there was no error.
    - id: num_old_style_offsets
      type: s4
      doc: Number of elements of `old_style_offsets`.
      -lc-count-of: old_style_offsets
      if: api_version <= 0
    - id: old_style_offsets
      doc: The result offsets.
      type: s8
      repeat: expr
      repeat-expr: num_old_style_offsets
      if: api_version <= 0
    - id: timestamp
      type: s8
      doc: The timestamp associated with the returned offset.
      if: api_version >= 1
    - id: offset
      type: s8
      doc: The returned offset.
      if: api_version >= 1
    - id: leader_epoch
      type: s4
      doc: LeaderEpoch.
      if: api_version >= 4
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6

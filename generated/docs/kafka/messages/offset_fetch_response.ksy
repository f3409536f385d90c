meta:
  id: offset_fetch_response
  title: OffsetFetchResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: OffsetFetchResponse (response), versions 0-9; flexible in 6+.
doc-ref: OffsetFetchResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 3
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 5
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 6 and api_version <= 7
- id: topics
  doc: The responses per topic.
  type: offset_fetch_response_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 and api_version <= 7 ? num_topics_compact.value : num_topics)'
  if: api_version <= 7
- id: error_code
  type: s2
  doc: The top-level error code, or 0 if there was no error.
  if: api_version >= 2 and api_version <= 7
- id: num_groups_compact
  type: biased_uvarint(32)
  doc: Number of elements of `groups`.
  -lc-count-of: groups
  if: api_version >= 8
- id: groups
  doc: The responses per group id.
  type: offset_fetch_response_group(api_version)
  repeat: expr
  repeat-expr: num_groups_compact.value
  if: api_version >= 8
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
  offset_fetch_response_topic:
    doc: OffsetFetchResponseTopic.
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
      if: api_version >= 6 and api_version <= 7
    - id: name
      doc: The topic name.
      size: '(api_version >= 6 and api_version <= 7 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
      if: api_version <= 7
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 5
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 6 and api_version <= 7
    - id: partitions
      doc: The responses per partition
      type: offset_fetch_response_partition(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 6 and api_version <= 7 ? num_partitions_compact.value : num_partitions)'
      if: api_version <= 7
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6 and api_version <= 7
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6 and api_version <= 7
  offset_fetch_response_partition:
    doc: OffsetFetchResponsePartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
      if: api_version <= 7
    - id: committed_offset
      type: s8
      doc: The committed message offset.
      if: api_version <= 7
    - id: committed_leader_epoch
      type: s4
      doc: The leader epoch.
      if: api_version >= 5 and api_version <= 7
    - id: len_metadata
      type: s2
      doc: Length in bytes of `metadata`, or -1 for null.
      -lc-size-of: metadata
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 5
    - id: len_metadata_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `metadata`, or -1 for null.
      -lc-size-of: metadata
      -lc-absent: -1
      if: api_version >= 6 and api_version <= 7
    - id: metadata
      doc: The partition metadata.
      size: '(api_version >= 6 and api_version <= 7 ? len_metadata_compact.value : len_metadata)'
      type: str
      encoding: UTF-8
      if: 'api_version <= 7 and (api_version >= 6 and api_version <= 7 ? len_metadata_compact.value :
        len_metadata) >= 0'
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
      if: api_version <= 7
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6 and api_version <= 7
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6 and api_version <= 7
  offset_fetch_response_group:
    doc: OffsetFetchResponseGroup.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_group_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `group_id`.
      -lc-size-of: group_id
      if: api_version >= 8
    - id: group_id
      doc: The group ID.
      size: len_group_id_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 8
    - id: num_topics_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topics`.
      -lc-count-of: topics
      if: api_version >= 8
    - id: topics
      doc: The responses per topic.
      type: offset_fetch_response_topics(api_version)
      repeat: expr
      repeat-expr: num_topics_compact.value
      if: api_version >= 8
    - id: error_code
      type: s2
      doc: The group-level error code, or 0 if there was no error.
      if: api_version >= 8
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
  offset_fetch_response_topics:
    doc: OffsetFetchResponseTopics.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 8
    - id: name
      doc: The topic name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 8
    - id: partitions
      doc: The responses per partition
      type: offset_fetch_response_partitions(api_version)
      repeat: expr
      repeat-expr: num_partitions_compact.value
      if: api_version >= 8
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
  offset_fetch_response_partitions:
    doc: OffsetFetchResponsePartitions.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
      if: api_version >= 8
    - id: committed_offset
      type: s8
      doc: The committed message offset.
      if: api_version >= 8
    - id: committed_leader_epoch
      type: s4
      doc: The leader epoch.
      if: api_version >= 8
    - id: len_metadata_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `metadata`, or -1 for null.
      -lc-size-of: metadata
      -lc-absent: -1
      if: api_version >= 8
    - id: metadata
      doc: The partition metadata.
      size: len_metadata_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 8 and len_metadata_compact.value >= 0
    - id: error_code
      type: s2
      doc: The partition-level error code, or 0 if there was no error.
      if: api_version >= 8
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

meta:
  id: offset_fetch_request
  title: OffsetFetchRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: OffsetFetchRequest (request), versions 0-9; flexible in 6+.
doc-ref: OffsetFetchRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version <= 5
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version >= 6 and api_version <= 7
- id: group_id
  doc: The group to fetch offsets for.
  size: '(api_version >= 6 and api_version <= 7 ? len_group_id_compact.value : len_group_id)'
  type: str
  encoding: UTF-8
  if: api_version <= 7
- id: num_topics
  type: s4
  doc: Number of elements of `topics`, or -1 for null.
  -lc-count-of: topics
  -lc-absent: -1
  valid:
    expr: _ >= 0 or (_ == -1 and (api_version >= 2 and api_version <= 7))
  if: api_version <= 5
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`, or -1 for null.
  -lc-count-of: topics
  -lc-absent: -1
  if: api_version >= 6 and api_version <= 7
- id: topics
  doc: Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
  type: offset_fetch_request_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 and api_version <= 7 ? num_topics_compact.value : num_topics)'
  if: 'api_version <= 7 and (api_version >= 6 and api_version <= 7 ? num_topics_compact.value : num_topics)
    >= 0'
- id: num_groups_compact
  type: biased_uvarint(32)
  doc: Number of elements of `groups`.
  -lc-count-of: groups
  if: api_version >= 8
- id: groups
  doc: Each group we would like to fetch offsets for
  type: offset_fetch_request_group(api_version)
  repeat: expr
  repeat-expr: num_groups_compact.value
  if: api_version >= 8
- id: require_stable
  type: u1
  doc: Whether broker should hold on returning unstable offsets but set a retriable error code for the
    partitions.
  if: api_version >= 7
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
  offset_fetch_request_topic:
    doc: OffsetFetchRequestTopic.
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
    - id: num_partition_indexes
      type: s4
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version <= 5
    - id: num_partition_indexes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version >= 6 and api_version <= 7
    - id: partition_indexes
      doc: The partition indexes we would like to fetch offsets for.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 6 and api_version <= 7 ? num_partition_indexes_compact.value : num_partition_indexes)'
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
  offset_fetch_request_group:
    doc: OffsetFetchRequestGroup.
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
    - id: len_member_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `member_id`, or -1 for null.
      -lc-size-of: member_id
      -lc-absent: -1
      if: api_version >= 9
    - id: member_id
      doc: The member ID assigned by the group coordinator if using the new consumer protocol (KIP-848).
      size: len_member_id_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 9 and len_member_id_compact.value >= 0
    - id: member_epoch
      type: s4
      doc: The member epoch if using the new consumer protocol (KIP-848).
      if: api_version >= 9
    - id: num_topics_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topics`, or -1 for null.
      -lc-count-of: topics
      -lc-absent: -1
      if: api_version >= 8
    - id: topics
      doc: Each topic we would like to fetch offsets for, or null to fetch offsets for all topics.
      type: offset_fetch_request_topics(api_version)
      repeat: expr
      repeat-expr: num_topics_compact.value
      if: api_version >= 8 and num_topics_compact.value >= 0
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
  offset_fetch_request_topics:
    doc: OffsetFetchRequestTopics.
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
    - id: num_partition_indexes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version >= 8
    - id: partition_indexes
      doc: The partition indexes we would like to fetch offsets for.
      type: s4
      repeat: expr
      repeat-expr: num_partition_indexes_compact.value
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

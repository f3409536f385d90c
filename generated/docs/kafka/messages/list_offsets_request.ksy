meta:
  id: list_offsets_request
  title: ListOffsetsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListOffsetsRequest (request), versions 0-10; flexible in 6+.
doc-ref: ListOffsetsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: replica_id
  type: s4
  doc: The broker ID of the requester, or -1 if this request is being made by a normal consumer.
- id: isolation_level
  type: s1
  doc: This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level
    = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED
    transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets
    smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted
    transactions in the result, which allows consumers to discard ABORTED transactional records
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
  doc: Each topic in the request.
  type: list_offsets_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 ? num_topics_compact.value : num_topics)'
- id: timeout_ms
  type: s4
  doc: The timeout to await a response in milliseconds for requests that require reading from remote storage
    for topics enabled with tiered storage.
  if: api_version >= 10
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
  list_offsets_topic:
    doc: ListOffsetsTopic.
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
      doc: The topic name.
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
      doc: Each partition in the request.
      type: list_offsets_partition(api_version)
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
  list_offsets_partition:
    doc: ListOffsetsPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: current_leader_epoch
      type: s4
      doc: The current leader epoch.
      if: api_version >= 4
    - id: timestamp
      type: s8
      doc: The current timestamp.
    - id: max_num_offsets
      type: s4
      doc: The maximum number of offsets to report.
      if: api_version <= 0
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

meta:
  id: write_txn_markers_response
  title: WriteTxnMarkersResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: WriteTxnMarkersResponse (response), versions 0-1; flexible in 1+.
doc-ref: WriteTxnMarkersResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_markers
  type: s4
  doc: Number of elements of `markers`.
  -lc-count-of: markers
  if: api_version <= 0
- id: num_markers_compact
  type: biased_uvarint(32)
  doc: Number of elements of `markers`.
  -lc-count-of: markers
  if: api_version >= 1
- id: markers
  doc: The results for writing makers.
  type: writable_txn_marker_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 1 ? num_markers_compact.value : num_markers)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 1
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 1
types:
  writable_txn_marker_result:
    doc: WritableTxnMarkerResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: producer_id
      type: s8
      doc: The current producer ID in use by the transactional ID.
    - id: num_topics
      type: s4
      doc: Number of elements of `topics`.
      -lc-count-of: topics
      if: api_version <= 0
    - id: num_topics_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topics`.
      -lc-count-of: topics
      if: api_version >= 1
    - id: topics
      doc: The results by topic.
      type: writable_txn_marker_topic_result(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 1 ? num_topics_compact.value : num_topics)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 1
  writable_txn_marker_topic_result:
    doc: WritableTxnMarkerTopicResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 0
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 1
    - id: name
      doc: The topic name.
      size: '(api_version >= 1 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 0
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 1
    - id: partitions
      doc: The results by partition.
      type: writable_txn_marker_partition_result(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 1 ? num_partitions_compact.value : num_partitions)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 1
  writable_txn_marker_partition_result:
    doc: WritableTxnMarkerPartitionResult.
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
      doc: The error code, or 0 if there was no error.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 1

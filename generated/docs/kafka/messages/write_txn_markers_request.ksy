meta:
  id: write_txn_markers_request
  title: WriteTxnMarkersRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: WriteTxnMarkersRequest (request), versions 0-1; flexible in 1+.
doc-ref: WriteTxnMarkersRequest.json
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
  doc: The transaction markers to be written.
  type: writable_txn_marker(api_version)
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
  writable_txn_marker:
    doc: WritableTxnMarker.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: producer_id
      type: s8
      doc: The current producer ID.
    - id: producer_epoch
      type: s2
      doc: The current epoch associated with the producer ID.
    - id: transaction_result
      type: u1
      doc: The result of the transaction to write to the partitions (false = ABORT, true = COMMIT).
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
      doc: Each topic that we want to write transaction marker(s) for.
      type: writable_txn_marker_topic(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 1 ? num_topics_compact.value : num_topics)'
    - id: coordinator_epoch
      type: s4
      doc: Epoch associated with the transaction state partition hosted by this transaction coordinator
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
  writable_txn_marker_topic:
    doc: WritableTxnMarkerTopic.
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
    - id: num_partition_indexes
      type: s4
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version <= 0
    - id: num_partition_indexes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_indexes`.
      -lc-count-of: partition_indexes
      if: api_version >= 1
    - id: partition_indexes
      doc: The indexes of the partitions to write transaction markers for.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 1 ? num_partition_indexes_compact.value : num_partition_indexes)'
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

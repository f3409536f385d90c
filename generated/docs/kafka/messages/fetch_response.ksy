meta:
  id: fetch_response
  title: FetchResponse
  endian: be
  -lc-fills-input: true
  imports:
  - ../record_set
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FetchResponse (response), versions 0-17; flexible in 12+.
doc-ref: FetchResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 1
- id: error_code
  type: s2
  doc: The top level response error code.
  if: api_version >= 7
- id: session_id
  type: s4
  doc: The fetch session ID, or 0 if this is not part of a fetch session.
  if: api_version >= 7
- id: num_responses
  type: s4
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version <= 11
- id: num_responses_compact
  type: biased_uvarint(32)
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version >= 12
- id: responses
  doc: The response topics.
  type: fetchable_topic_response(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 12 ? num_responses_compact.value : num_responses)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 12
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 12
types:
  fetchable_topic_response:
    doc: FetchableTopicResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic
      type: s2
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version <= 11
    - id: len_topic_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version >= 12 and api_version <= 12
    - id: topic
      doc: The topic name.
      size: '(api_version >= 12 and api_version <= 12 ? len_topic_compact.value : len_topic)'
      type: str
      encoding: UTF-8
      if: api_version <= 12
    - id: topic_id
      size: 16
      doc: The unique topic ID
      if: api_version >= 13
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 11
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 12
    - id: partitions
      doc: The topic partitions.
      type: partition_data(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 12 ? num_partitions_compact.value : num_partitions)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
  partition_data:
    doc: PartitionData.
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
      doc: The error code, or 0 if there was no fetch error.
    - id: high_watermark
      type: s8
      doc: The current high water mark.
    - id: last_stable_offset
      type: s8
      doc: The last stable offset (or LSO) of the partition. This is the last offset such that the state
        of all transactional records prior to this offset have been decided (ABORTED or COMMITTED)
      if: api_version >= 4
    - id: log_start_offset
      type: s8
      doc: The current log start offset.
      if: api_version >= 5
    - id: num_aborted_transactions
      type: s4
      doc: Number of elements of `aborted_transactions`, or -1 for null.
      -lc-count-of: aborted_transactions
      -lc-absent: -1
      if: api_version >= 4 and api_version <= 11
    - id: num_aborted_transactions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `aborted_transactions`, or -1 for null.
      -lc-count-of: aborted_transactions
      -lc-absent: -1
      if: api_version >= 12
    - id: aborted_transactions
      doc: The aborted transactions.
      type: aborted_transaction(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 12 ? num_aborted_transactions_compact.value : num_aborted_transactions)'
      if: 'api_version >= 4 and (api_version >= 12 ? num_aborted_transactions_compact.value : num_aborted_transactions)
        >= 0'
    - id: preferred_read_replica
      type: s4
      doc: The preferred read replica for the consumer to use on its next fetch request
      if: api_version >= 11
    - id: len_records
      type: s4
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
      if: api_version <= 11
    - id: len_records_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
      if: api_version >= 12
    - id: records
      doc: The record data.
      size: '(api_version >= 12 ? len_records_compact.value : len_records)'
      type: record_set
      if: '(api_version >= 12 ? len_records_compact.value : len_records) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
  aborted_transaction:
    doc: AbortedTransaction.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: producer_id
      type: s8
      doc: The producer id associated with the aborted transaction.
      if: api_version >= 4
    - id: first_offset
      type: s8
      doc: The first offset in the aborted transaction.
      if: api_version >= 4
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12

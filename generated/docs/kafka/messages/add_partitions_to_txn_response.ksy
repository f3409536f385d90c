meta:
  id: add_partitions_to_txn_response
  title: AddPartitionsToTxnResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AddPartitionsToTxnResponse (response), versions 0-5; flexible in 3+.
doc-ref: AddPartitionsToTxnResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: Duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: error_code
  type: s2
  doc: The response top level error code.
  if: api_version >= 4
- id: num_results_by_transaction_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results_by_transaction`.
  -lc-count-of: results_by_transaction
  if: api_version >= 4
- id: results_by_transaction
  doc: Results categorized by transactional ID.
  type: add_partitions_to_txn_result(api_version)
  repeat: expr
  repeat-expr: num_results_by_transaction_compact.value
  if: api_version >= 4
- id: num_results_by_topic_v3_and_below
  type: s4
  doc: Number of elements of `results_by_topic_v3_and_below`.
  -lc-count-of: results_by_topic_v3_and_below
  if: api_version <= 2
- id: num_results_by_topic_v3_and_below_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results_by_topic_v3_and_below`.
  -lc-count-of: results_by_topic_v3_and_below
  if: api_version >= 3 and api_version <= 3
- id: results_by_topic_v3_and_below
  doc: The results for each topic.
  type: add_partitions_to_txn_topic_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 3 and api_version <= 3 ? num_results_by_topic_v3_and_below_compact.value
    : num_results_by_topic_v3_and_below)'
  if: api_version <= 3
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 3
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 3
types:
  add_partitions_to_txn_result:
    doc: AddPartitionsToTxnResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_transactional_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `transactional_id`.
      -lc-size-of: transactional_id
      if: api_version >= 4
    - id: transactional_id
      doc: The transactional id corresponding to the transaction.
      size: len_transactional_id_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 4
    - id: num_topic_results_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topic_results`.
      -lc-count-of: topic_results
      if: api_version >= 4
    - id: topic_results
      doc: The results for each topic.
      type: add_partitions_to_txn_topic_result(api_version)
      repeat: expr
      repeat-expr: num_topic_results_compact.value
      if: api_version >= 4
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
  add_partitions_to_txn_topic_result:
    doc: AddPartitionsToTxnTopicResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 2
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 3
    - id: name
      doc: The topic name.
      size: '(api_version >= 3 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_results_by_partition
      type: s4
      doc: Number of elements of `results_by_partition`.
      -lc-count-of: results_by_partition
      if: api_version <= 2
    - id: num_results_by_partition_compact
      type: biased_uvarint(32)
      doc: Number of elements of `results_by_partition`.
      -lc-count-of: results_by_partition
      if: api_version >= 3
    - id: results_by_partition
      doc: The results for each partition
      type: add_partitions_to_txn_partition_result(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 3 ? num_results_by_partition_compact.value : num_results_by_partition)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 3
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 3
  add_partitions_to_txn_partition_result:
    doc: AddPartitionsToTxnPartitionResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition indexes.
    - id: partition_error_code
      type: s2
      doc: The response error code.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 3
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 3

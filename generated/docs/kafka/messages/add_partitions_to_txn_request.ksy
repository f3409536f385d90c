meta:
  id: add_partitions_to_txn_request
  title: AddPartitionsToTxnRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AddPartitionsToTxnRequest (request), versions 0-5; flexible in 3+.
doc-ref: AddPartitionsToTxnRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_transactions_compact
  type: biased_uvarint(32)
  doc: Number of elements of `transactions`.
  -lc-count-of: transactions
  if: api_version >= 4
- id: transactions
  doc: List of transactions to add partitions to.
  type: add_partitions_to_txn_transaction(api_version)
  repeat: expr
  repeat-expr: num_transactions_compact.value
  if: api_version >= 4
- id: len_v3_and_below_transactional_id
  type: s2
  doc: Length in bytes of `v3_and_below_transactional_id`.
  -lc-size-of: v3_and_below_transactional_id
  if: api_version <= 2
- id: len_v3_and_below_transactional_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `v3_and_below_transactional_id`.
  -lc-size-of: v3_and_below_transactional_id
  if: api_version >= 3 and api_version <= 3
- id: v3_and_below_transactional_id
  doc: The transactional id corresponding to the transaction.
  size: '(api_version >= 3 and api_version <= 3 ? len_v3_and_below_transactional_id_compact.value : len_v3_and_below_transactional_id)'
  type: str
  encoding: UTF-8
  if: api_version <= 3
- id: v3_and_below_producer_id
  type: s8
  doc: Current producer id in use by the transactional id.
  if: api_version <= 3
- id: v3_and_below_producer_epoch
  type: s2
  doc: Current epoch associated with the producer id.
  if: api_version <= 3
- id: num_v3_and_below_topics
  type: s4
  doc: Number of elements of `v3_and_below_topics`.
  -lc-count-of: v3_and_below_topics
  if: api_version <= 2
- id: num_v3_and_below_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `v3_and_below_topics`.
  -lc-count-of: v3_and_below_topics
  if: api_version >= 3 and api_version <= 3
- id: v3_and_below_topics
  doc: The partitions to add to the transaction.
  type: add_partitions_to_txn_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 3 and api_version <= 3 ? num_v3_and_below_topics_compact.value : num_v3_and_below_topics)'
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
  add_partitions_to_txn_transaction:
    doc: AddPartitionsToTxnTransaction.
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
    - id: producer_id
      type: s8
      doc: Current producer id in use by the transactional id.
      if: api_version >= 4
    - id: producer_epoch
      type: s2
      doc: Current epoch associated with the producer id.
      if: api_version >= 4
    - id: verify_only
      type: u1
      doc: Boolean to signify if we want to check if the partition is in the transaction rather than add
        it.
      if: api_version >= 4
    - id: num_topics_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topics`.
      -lc-count-of: topics
      if: api_version >= 4
    - id: topics
      doc: The partitions to add to the transaction.
      type: add_partitions_to_txn_topic(api_version)
      repeat: expr
      repeat-expr: num_topics_compact.value
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
  add_partitions_to_txn_topic:
    doc: AddPartitionsToTxnTopic.
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
      doc: The name of the topic.
      size: '(api_version >= 3 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 2
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 3
    - id: partitions
      doc: The partition indexes to add to the transaction
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 3 ? num_partitions_compact.value : num_partitions)'
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

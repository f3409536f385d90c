meta:
  id: describe_transactions_response
  title: DescribeTransactionsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeTransactionsResponse (response), versions 0; flexible in 0+.
doc-ref: DescribeTransactionsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_transaction_states_compact
  type: biased_uvarint(32)
  doc: Number of elements of `transaction_states`.
  -lc-count-of: transaction_states
- id: transaction_states
  doc: TransactionStates.
  type: transaction_state(api_version)
  repeat: expr
  repeat-expr: num_transaction_states_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
types:
  transaction_state:
    doc: TransactionState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: ErrorCode.
    - id: len_transactional_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `transactional_id`.
      -lc-size-of: transactional_id
    - id: transactional_id
      doc: TransactionalId.
      size: len_transactional_id_compact.value
      type: str
      encoding: UTF-8
    - id: len_transaction_state_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `transaction_state`.
      -lc-size-of: transaction_state
    - id: transaction_state
      doc: TransactionState.
      size: len_transaction_state_compact.value
      type: str
      encoding: UTF-8
    - id: transaction_timeout_ms
      type: s4
      doc: TransactionTimeoutMs.
    - id: transaction_start_time_ms
      type: s8
      doc: TransactionStartTimeMs.
    - id: producer_id
      type: s8
      doc: ProducerId.
    - id: producer_epoch
      type: s2
      doc: ProducerEpoch.
    - id: num_topics_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topics`.
      -lc-count-of: topics
    - id: topics
      doc: The set of partitions included in the current transaction (if active). When a transaction is
        preparing to commit or abort, this will include only partitions which do not have markers.
      type: topic_data(api_version)
      repeat: expr
      repeat-expr: num_topics_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  topic_data:
    doc: TopicData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
    - id: topic
      doc: Topic.
      size: len_topic_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: Partitions.
      type: s4
      repeat: expr
      repeat-expr: num_partitions_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: list_transactions_response
  title: ListTransactionsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListTransactionsResponse (response), versions 0-1; flexible in 0+.
doc-ref: ListTransactionsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: error_code
  type: s2
  doc: ErrorCode.
- id: num_unknown_state_filters_compact
  type: biased_uvarint(32)
  doc: Number of elements of `unknown_state_filters`.
  -lc-count-of: unknown_state_filters
- id: unknown_state_filters
  doc: Set of state filters provided in the request which were unknown to the transaction coordinator
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_unknown_state_filters_compact.value
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
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
    - id: value
      doc: The string.
      size: len_value_compact.value
      type: str
      encoding: UTF-8
  transaction_state:
    doc: TransactionState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_transactional_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `transactional_id`.
      -lc-size-of: transactional_id
    - id: transactional_id
      doc: TransactionalId.
      size: len_transactional_id_compact.value
      type: str
      encoding: UTF-8
    - id: producer_id
      type: s8
      doc: ProducerId.
    - id: len_transaction_state_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `transaction_state`.
      -lc-size-of: transaction_state
    - id: transaction_state
      doc: The current transaction state of the producer
      size: len_transaction_state_compact.value
      type: str
      encoding: UTF-8
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: list_transactions_request
  title: ListTransactionsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListTransactionsRequest (request), versions 0-1; flexible in 0+.
doc-ref: ListTransactionsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_state_filters_compact
  type: biased_uvarint(32)
  doc: Number of elements of `state_filters`.
  -lc-count-of: state_filters
- id: state_filters
  doc: 'The transaction states to filter by: if empty, all transactions are returned; if non-empty, then
    only transactions matching one of the filtered states will be returned'
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_state_filters_compact.value
- id: num_producer_id_filters_compact
  type: biased_uvarint(32)
  doc: Number of elements of `producer_id_filters`.
  -lc-count-of: producer_id_filters
- id: producer_id_filters
  doc: 'The producerIds to filter by: if empty, all transactions will be returned; if non-empty, only
    transactions which match one of the filtered producerIds will be returned'
  type: s8
  repeat: expr
  repeat-expr: num_producer_id_filters_compact.value
- id: duration_filter
  type: s8
  doc: 'Duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, only
    transactions running longer than this duration will be returned'
  if: api_version >= 1
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

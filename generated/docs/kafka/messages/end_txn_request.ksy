meta:
  id: end_txn_request
  title: EndTxnRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: EndTxnRequest (request), versions 0-5; flexible in 3+.
doc-ref: EndTxnRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_transactional_id
  type: s2
  doc: Length in bytes of `transactional_id`.
  -lc-size-of: transactional_id
  if: api_version <= 2
- id: len_transactional_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `transactional_id`.
  -lc-size-of: transactional_id
  if: api_version >= 3
- id: transactional_id
  doc: The ID of the transaction to end.
  size: '(api_version >= 3 ? len_transactional_id_compact.value : len_transactional_id)'
  type: str
  encoding: UTF-8
- id: producer_id
  type: s8
  doc: The producer ID.
- id: producer_epoch
  type: s2
  doc: The current epoch associated with the producer.
- id: committed
  type: u1
  doc: True if the transaction was committed, false if it was aborted.
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

meta:
  id: init_producer_id_request
  title: InitProducerIdRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: InitProducerIdRequest (request), versions 0-5; flexible in 2+.
doc-ref: InitProducerIdRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_transactional_id
  type: s2
  doc: Length in bytes of `transactional_id`, or -1 for null.
  -lc-size-of: transactional_id
  -lc-absent: -1
  valid:
    min: -1
  if: api_version <= 1
- id: len_transactional_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `transactional_id`, or -1 for null.
  -lc-size-of: transactional_id
  -lc-absent: -1
  if: api_version >= 2
- id: transactional_id
  doc: The transactional id, or null if the producer is not transactional.
  size: '(api_version >= 2 ? len_transactional_id_compact.value : len_transactional_id)'
  type: str
  encoding: UTF-8
  if: '(api_version >= 2 ? len_transactional_id_compact.value : len_transactional_id) >= 0'
- id: transaction_timeout_ms
  type: s4
  doc: The time in ms to wait before aborting idle transactions sent by this producer. This is only relevant
    if a TransactionalId has been defined.
- id: producer_id
  type: s8
  doc: The producer id. This is used to disambiguate requests if a transactional id is reused following
    its expiration.
  if: api_version >= 3
- id: producer_epoch
  type: s2
  doc: The producer's current epoch. This will be checked against the producer epoch on the broker, and
    the request will return an error if they do not match.
  if: api_version >= 3
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 2
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 2

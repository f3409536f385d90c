meta:
  id: add_offsets_to_txn_request
  title: AddOffsetsToTxnRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AddOffsetsToTxnRequest (request), versions 0-4; flexible in 3+.
doc-ref: AddOffsetsToTxnRequest.json
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
  doc: The transactional id corresponding to the transaction.
  size: '(api_version >= 3 ? len_transactional_id_compact.value : len_transactional_id)'
  type: str
  encoding: UTF-8
- id: producer_id
  type: s8
  doc: Current producer id in use by the transactional id.
- id: producer_epoch
  type: s2
  doc: Current epoch associated with the producer id.
- id: len_group_id
  type: s2
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version <= 2
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`.
  -lc-size-of: group_id
  if: api_version >= 3
- id: group_id
  doc: The unique group identifier.
  size: '(api_version >= 3 ? len_group_id_compact.value : len_group_id)'
  type: str
  encoding: UTF-8
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

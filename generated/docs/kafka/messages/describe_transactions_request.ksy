meta:
  id: describe_transactions_request
  title: DescribeTransactionsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeTransactionsRequest (request), versions 0; flexible in 0+.
doc-ref: DescribeTransactionsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_transactional_ids_compact
  type: biased_uvarint(32)
  doc: Number of elements of `transactional_ids`.
  -lc-count-of: transactional_ids
- id: transactional_ids
  doc: Array of transactionalIds to include in describe results. If empty, then no results will be returned.
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_transactional_ids_compact.value
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

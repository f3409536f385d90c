meta:
  id: envelope_request
  title: EnvelopeRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: EnvelopeRequest (request), versions 0; flexible in 0+.
doc-ref: EnvelopeRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_request_data_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `request_data`.
  -lc-size-of: request_data
- id: request_data
  doc: The embedded request header and data.
  size: len_request_data_compact.value
- id: len_request_principal_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `request_principal`, or -1 for null.
  -lc-size-of: request_principal
  -lc-absent: -1
- id: request_principal
  doc: Value of the initial client principal when the request is redirected by a broker.
  size: len_request_principal_compact.value
  if: len_request_principal_compact.value >= 0
- id: len_client_host_address_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `client_host_address`.
  -lc-size-of: client_host_address
- id: client_host_address
  doc: The original client's address in bytes.
  size: len_client_host_address_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

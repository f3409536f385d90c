meta:
  id: sasl_authenticate_request
  title: SaslAuthenticateRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: SaslAuthenticateRequest (request), versions 0-2; flexible in 2+.
doc-ref: SaslAuthenticateRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_auth_bytes
  type: s4
  doc: Length in bytes of `auth_bytes`.
  -lc-size-of: auth_bytes
  if: api_version <= 1
- id: len_auth_bytes_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `auth_bytes`.
  -lc-size-of: auth_bytes
  if: api_version >= 2
- id: auth_bytes
  doc: The SASL authentication bytes from the client, as defined by the SASL mechanism.
  size: '(api_version >= 2 ? len_auth_bytes_compact.value : len_auth_bytes)'
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

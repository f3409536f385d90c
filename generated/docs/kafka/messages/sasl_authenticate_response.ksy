meta:
  id: sasl_authenticate_response
  title: SaslAuthenticateResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: SaslAuthenticateResponse (response), versions 0-2; flexible in 2+.
doc-ref: SaslAuthenticateResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: len_error_message
  type: s2
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
  valid:
    min: -1
  if: api_version <= 1
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
  if: api_version >= 2
- id: error_message
  doc: The error message, or null if there was no error.
  size: '(api_version >= 2 ? len_error_message_compact.value : len_error_message)'
  type: str
  encoding: UTF-8
  if: '(api_version >= 2 ? len_error_message_compact.value : len_error_message) >= 0'
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
  doc: The SASL authentication bytes from the server, as defined by the SASL mechanism.
  size: '(api_version >= 2 ? len_auth_bytes_compact.value : len_auth_bytes)'
- id: session_lifetime_ms
  type: s8
  doc: Number of milliseconds after which only re-authentication over the existing connection to create
    a new session can occur.
  if: api_version >= 1
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

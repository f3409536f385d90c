meta:
  id: sasl_handshake_request
  title: SaslHandshakeRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
doc: SaslHandshakeRequest (request), versions 0-1; flexible in none.
doc-ref: SaslHandshakeRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_mechanism
  type: s2
  doc: Length in bytes of `mechanism`.
  -lc-size-of: mechanism
- id: mechanism
  doc: The SASL mechanism chosen by the client.
  size: len_mechanism
  type: str
  encoding: UTF-8

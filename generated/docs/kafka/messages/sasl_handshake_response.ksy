meta:
  id: sasl_handshake_response
  title: SaslHandshakeResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
doc: SaslHandshakeResponse (response), versions 0-1; flexible in none.
doc-ref: SaslHandshakeResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: num_mechanisms
  type: s4
  doc: Number of elements of `mechanisms`.
  -lc-count-of: mechanisms
- id: mechanisms
  doc: The mechanisms enabled in the server.
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_mechanisms
types:
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value
      type: s2
      doc: Length in bytes of `value`.
      -lc-size-of: value
    - id: value
      doc: The string.
      size: len_value
      type: str
      encoding: UTF-8

meta:
  id: envelope_response
  title: EnvelopeResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: EnvelopeResponse (response), versions 0; flexible in 0+.
doc-ref: EnvelopeResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_response_data_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `response_data`, or -1 for null.
  -lc-size-of: response_data
  -lc-absent: -1
- id: response_data
  doc: The embedded response header and data.
  size: len_response_data_compact.value
  if: len_response_data_compact.value >= 0
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

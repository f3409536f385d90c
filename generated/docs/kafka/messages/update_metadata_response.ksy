meta:
  id: update_metadata_response
  title: UpdateMetadataResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UpdateMetadataResponse (response), versions 0-8; flexible in 6+.
doc-ref: UpdateMetadataResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 6
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 6

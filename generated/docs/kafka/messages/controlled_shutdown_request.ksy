meta:
  id: controlled_shutdown_request
  title: ControlledShutdownRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ControlledShutdownRequest (request), versions 0-3; flexible in 3+.
doc-ref: ControlledShutdownRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: broker_id
  type: s4
  doc: The id of the broker for which controlled shutdown has been requested.
- id: broker_epoch
  type: s8
  doc: The broker epoch.
  if: api_version >= 2
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

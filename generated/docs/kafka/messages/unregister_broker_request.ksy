meta:
  id: unregister_broker_request
  title: UnregisterBrokerRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UnregisterBrokerRequest (request), versions 0; flexible in 0+.
doc-ref: UnregisterBrokerRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: broker_id
  type: s4
  doc: The broker ID to unregister.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

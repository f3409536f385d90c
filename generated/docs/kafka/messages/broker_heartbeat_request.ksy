meta:
  id: broker_heartbeat_request
  title: BrokerHeartbeatRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: BrokerHeartbeatRequest (request), versions 0-1; flexible in 0+.
doc-ref: BrokerHeartbeatRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: broker_id
  type: s4
  doc: The broker ID.
- id: broker_epoch
  type: s8
  doc: The broker epoch.
- id: current_metadata_offset
  type: s8
  doc: The highest metadata offset which the broker has reached.
- id: want_fence
  type: u1
  doc: True if the broker wants to be fenced, false otherwise.
- id: want_shut_down
  type: u1
  doc: True if the broker wants to be shut down, false otherwise.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

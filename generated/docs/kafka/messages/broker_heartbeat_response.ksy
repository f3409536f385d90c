meta:
  id: broker_heartbeat_response
  title: BrokerHeartbeatResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: BrokerHeartbeatResponse (response), versions 0-1; flexible in 0+.
doc-ref: BrokerHeartbeatResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: Duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: is_caught_up
  type: u1
  doc: True if the broker has approximately caught up with the latest metadata.
- id: is_fenced
  type: u1
  doc: True if the broker is fenced.
- id: should_shut_down
  type: u1
  doc: True if the broker should proceed with its shutdown.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

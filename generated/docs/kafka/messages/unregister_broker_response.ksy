meta:
  id: unregister_broker_response
  title: UnregisterBrokerResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UnregisterBrokerResponse (response), versions 0; flexible in 0+.
doc-ref: UnregisterBrokerResponse.json
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
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
- id: error_message
  doc: The top-level error message, or `null` if there was no top-level error.
  size: len_error_message_compact.value
  type: str
  encoding: UTF-8
  if: len_error_message_compact.value >= 0
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: get_telemetry_subscriptions_response
  title: GetTelemetrySubscriptionsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: GetTelemetrySubscriptionsResponse (response), versions 0; flexible in 0+.
doc-ref: GetTelemetrySubscriptionsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: client_instance_id
  size: 16
  doc: Assigned client instance id if ClientInstanceId was 0 in the request, else 0.
- id: subscription_id
  type: s4
  doc: Unique identifier for the current subscription set for this client instance.
- id: num_accepted_compression_types_compact
  type: biased_uvarint(32)
  doc: Number of elements of `accepted_compression_types`.
  -lc-count-of: accepted_compression_types
- id: accepted_compression_types
  doc: Compression types that broker accepts for the PushTelemetryRequest.
  type: s1
  repeat: expr
  repeat-expr: num_accepted_compression_types_compact.value
- id: push_interval_ms
  type: s4
  doc: Configured push interval, which is the lowest configured interval in the current subscription set.
- id: telemetry_max_bytes
  type: s4
  doc: The maximum bytes of binary data the broker accepts in PushTelemetryRequest.
- id: delta_temporality
  type: u1
  doc: Flag to indicate monotonic/counter metrics are to be emitted as deltas or cumulative values
- id: num_requested_metrics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `requested_metrics`.
  -lc-count-of: requested_metrics
- id: requested_metrics
  doc: 'Requested metrics prefix string match. Empty array: No metrics subscribed, Array[0] empty string:
    All metrics subscribed.'
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_requested_metrics_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
types:
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
    - id: value
      doc: The string.
      size: len_value_compact.value
      type: str
      encoding: UTF-8

meta:
  id: push_telemetry_request
  title: PushTelemetryRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: PushTelemetryRequest (request), versions 0; flexible in 0+.
doc-ref: PushTelemetryRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: client_instance_id
  size: 16
  doc: Unique id for this client instance.
- id: subscription_id
  type: s4
  doc: Unique identifier for the current subscription.
- id: terminating
  type: u1
  doc: Client is terminating the connection.
- id: compression_type
  type: s1
  doc: Compression codec used to compress the metrics.
- id: len_metrics_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `metrics`.
  -lc-size-of: metrics
- id: metrics
  doc: Metrics encoded in OpenTelemetry MetricsData v1 protobuf format.
  size: len_metrics_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

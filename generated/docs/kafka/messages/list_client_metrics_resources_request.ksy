meta:
  id: list_client_metrics_resources_request
  title: ListClientMetricsResourcesRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListClientMetricsResourcesRequest (request), versions 0; flexible in 0+.
doc-ref: ListClientMetricsResourcesRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

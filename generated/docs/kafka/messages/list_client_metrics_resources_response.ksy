meta:
  id: list_client_metrics_resources_response
  title: ListClientMetricsResourcesResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListClientMetricsResourcesResponse (response), versions 0; flexible in 0+.
doc-ref: ListClientMetricsResourcesResponse.json
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
- id: num_client_metrics_resources_compact
  type: biased_uvarint(32)
  doc: Number of elements of `client_metrics_resources`.
  -lc-count-of: client_metrics_resources
- id: client_metrics_resources
  doc: Each client metrics resource in the response.
  type: client_metrics_resource(api_version)
  repeat: expr
  repeat-expr: num_client_metrics_resources_compact.value
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
  client_metrics_resource:
    doc: ClientMetricsResource.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The resource name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

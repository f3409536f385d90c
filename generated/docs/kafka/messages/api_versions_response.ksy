meta:
  id: api_versions_response
  title: ApiVersionsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ApiVersionsResponse (response), versions 0-4; flexible in 3+.
doc-ref: ApiVersionsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top-level error code.
- id: num_api_keys
  type: s4
  doc: Number of elements of `api_keys`.
  -lc-count-of: api_keys
  if: api_version <= 2
- id: num_api_keys_compact
  type: biased_uvarint(32)
  doc: Number of elements of `api_keys`.
  -lc-count-of: api_keys
  if: api_version >= 3
- id: api_keys
  doc: The APIs supported by the broker.
  type: api_version(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 3 ? num_api_keys_compact.value : num_api_keys)'
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 1
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
types:
  api_version:
    doc: ApiVersion.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: api_key
      type: s2
      doc: The API index.
    - id: min_version
      type: s2
      doc: The minimum supported version, inclusive.
    - id: max_version
      type: s2
      doc: The maximum supported version, inclusive.
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

meta:
  id: update_features_response
  title: UpdateFeaturesResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UpdateFeaturesResponse (response), versions 0-2; flexible in 0+.
doc-ref: UpdateFeaturesResponse.json
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
  doc: The top-level error code, or `0` if there was no top-level error.
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
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version <= 1
- id: results
  doc: Results for each feature update.
  type: updatable_feature_result(api_version)
  repeat: expr
  repeat-expr: num_results_compact.value
  if: api_version <= 1
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
  updatable_feature_result:
    doc: UpdatableFeatureResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_feature_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `feature`.
      -lc-size-of: feature
      if: api_version <= 1
    - id: feature
      doc: The name of the finalized feature.
      size: len_feature_compact.value
      type: str
      encoding: UTF-8
      if: api_version <= 1
    - id: error_code
      type: s2
      doc: The feature update error code or `0` if the feature update succeeded.
      if: api_version <= 1
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version <= 1
    - id: error_message
      doc: The feature update error, or `null` if the feature update succeeded.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: api_version <= 1 and len_error_message_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version <= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version <= 1

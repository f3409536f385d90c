meta:
  id: update_features_request
  title: UpdateFeaturesRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UpdateFeaturesRequest (request), versions 0-2; flexible in 0+.
doc-ref: UpdateFeaturesRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: timeout_ms
  type: s4
  doc: How long to wait in milliseconds before timing out the request.
- id: num_feature_updates_compact
  type: biased_uvarint(32)
  doc: Number of elements of `feature_updates`.
  -lc-count-of: feature_updates
- id: feature_updates
  doc: The list of updates to finalized features.
  type: feature_update_key(api_version)
  repeat: expr
  repeat-expr: num_feature_updates_compact.value
- id: validate_only
  type: u1
  doc: True if we should validate the request, but not perform the upgrade or downgrade.
  if: api_version >= 1
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
  feature_update_key:
    doc: FeatureUpdateKey.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_feature_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `feature`.
      -lc-size-of: feature
    - id: feature
      doc: The name of the finalized feature to be updated.
      size: len_feature_compact.value
      type: str
      encoding: UTF-8
    - id: max_version_level
      type: s2
      doc: The new maximum version level for the finalized feature. A value >= 1 is valid. A value < 1,
        is special, and can be used to request the deletion of the finalized feature.
    - id: allow_downgrade
      type: u1
      doc: DEPRECATED in version 1 (see DowngradeType). When set to true, the finalized feature version
        level is allowed to be downgraded/deleted. The downgrade request will fail if the new maximum
        version level is a value that's not lower than the existing maximum finalized version level.
      if: api_version <= 0
    - id: upgrade_type
      type: s1
      doc: 'Determine which type of upgrade will be performed: 1 will perform an upgrade only (default),
        2 is safe downgrades only (lossless), 3 is unsafe downgrades (lossy).'
      if: api_version >= 1
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

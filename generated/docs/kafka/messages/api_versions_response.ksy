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
  if: body_version <= 2
- id: num_api_keys_compact
  type: biased_uvarint(32)
  doc: Number of elements of `api_keys`.
  -lc-count-of: api_keys
  if: body_version >= 3
- id: api_keys
  doc: The APIs supported by the broker.
  type: api_version(body_version)
  repeat: expr
  repeat-expr: '(body_version >= 3 ? num_api_keys_compact.value : num_api_keys)'
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: body_version >= 1
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: body_version >= 3
- id: tagged_fields
  type: api_versions_response_tagged_field(body_version)
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  -lc-keyed:
    key: tag
    value: data
    fields:
      supported_features:
        key: 0
        default: []
      finalized_features_epoch:
        key: 1
        default: -1
      finalized_features:
        key: 2
        default: []
      zk_migration_ready:
        key: 3
        default: 0
  if: body_version >= 3
instances:
  body_version:
    value: 'error_code == 35 ? 0 : api_version'
    doc: 'The version the message is written in: 0 where `error_code` is 35 (the answer to a version the
      sender does not support), else `api_version`.'
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
  supported_features_tag:
    doc: The tagged field `supported_features` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: num_supported_features_compact
      type: biased_uvarint(32)
      doc: Number of elements of `supported_features`.
      -lc-count-of: supported_features
      if: api_version >= 3
    - id: supported_features
      doc: 'Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are
        omitted.'
      type: supported_feature_key(api_version)
      repeat: expr
      repeat-expr: num_supported_features_compact.value
      if: api_version >= 3
  supported_feature_key:
    doc: SupportedFeatureKey.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 3
    - id: name
      doc: The name of the feature.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: min_version
      type: s2
      doc: The minimum supported version for the feature.
      if: api_version >= 3
    - id: max_version
      type: s2
      doc: The maximum supported version for the feature.
      if: api_version >= 3
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
  finalized_features_epoch_tag:
    doc: The tagged field `finalized_features_epoch` (tag 1).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: finalized_features_epoch
      type: s8
      doc: The monotonically increasing epoch for the finalized features information. Valid values are
        >= 0. A value of -1 is special and represents unknown epoch.
      if: api_version >= 3
  finalized_features_tag:
    doc: The tagged field `finalized_features` (tag 2).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: num_finalized_features_compact
      type: biased_uvarint(32)
      doc: Number of elements of `finalized_features`.
      -lc-count-of: finalized_features
      if: api_version >= 3
    - id: finalized_features
      doc: List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch
        >= 0.
      type: finalized_feature_key(api_version)
      repeat: expr
      repeat-expr: num_finalized_features_compact.value
      if: api_version >= 3
  finalized_feature_key:
    doc: FinalizedFeatureKey.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 3
    - id: name
      doc: The name of the feature.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: max_version_level
      type: s2
      doc: The cluster-wide finalized max version level for the feature.
      if: api_version >= 3
    - id: min_version_level
      type: s2
      doc: The cluster-wide finalized min version level for the feature.
      if: api_version >= 3
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
  zk_migration_ready_tag:
    doc: The tagged field `zk_migration_ready` (tag 3).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: zk_migration_ready
      type: u1
      doc: Set by a KRaft controller if the required configurations for ZK migration are present
      if: api_version >= 3
  api_versions_response_tagged_field:
    doc: 'One tagged field of api_versions_response: its tag, its size and its bytes, read as the field
      of a tag it knows (0: `supported_features`, 1: `finalized_features_epoch`, 2: `finalized_features`,
      3: `zk_migration_ready`).'
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: tag
      type: uvarint(32)
      doc: The field's tag.
    - id: len_data
      type: uvarint(32)
      doc: Length of `data` in bytes.
      -lc-size-of: data
    - id: data
      size: len_data.value
      type:
        switch-on: tag.value
        cases:
          0: supported_features_tag(api_version)
          1: finalized_features_epoch_tag(api_version)
          2: finalized_features_tag(api_version)
          3: zk_migration_ready_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

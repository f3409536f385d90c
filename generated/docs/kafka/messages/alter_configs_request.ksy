meta:
  id: alter_configs_request
  title: AlterConfigsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterConfigsRequest (request), versions 0-2; flexible in 2+.
doc-ref: AlterConfigsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_resources
  type: s4
  doc: Number of elements of `resources`.
  -lc-count-of: resources
  if: api_version <= 1
- id: num_resources_compact
  type: biased_uvarint(32)
  doc: Number of elements of `resources`.
  -lc-count-of: resources
  if: api_version >= 2
- id: resources
  doc: The updates for each resource.
  type: alter_configs_resource(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_resources_compact.value : num_resources)'
- id: validate_only
  type: u1
  doc: True if we should validate the request, but not change the configurations.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 2
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 2
types:
  alter_configs_resource:
    doc: AlterConfigsResource.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: resource_type
      type: s1
      doc: The resource type.
    - id: len_resource_name
      type: s2
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version <= 1
    - id: len_resource_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version >= 2
    - id: resource_name
      doc: The resource name.
      size: '(api_version >= 2 ? len_resource_name_compact.value : len_resource_name)'
      type: str
      encoding: UTF-8
    - id: num_configs
      type: s4
      doc: Number of elements of `configs`.
      -lc-count-of: configs
      if: api_version <= 1
    - id: num_configs_compact
      type: biased_uvarint(32)
      doc: Number of elements of `configs`.
      -lc-count-of: configs
      if: api_version >= 2
    - id: configs
      doc: The configurations.
      type: alterable_config(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_configs_compact.value : num_configs)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 2
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 2
  alterable_config:
    doc: AlterableConfig.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 1
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 2
    - id: name
      doc: The configuration key name.
      size: '(api_version >= 2 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: len_value
      type: s2
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      if: api_version >= 2
    - id: value
      doc: The value to set for the configuration key.
      size: '(api_version >= 2 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 2 ? len_value_compact.value : len_value) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 2
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 2

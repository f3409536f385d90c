meta:
  id: describe_configs_request
  title: DescribeConfigsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeConfigsRequest (request), versions 0-4; flexible in 4+.
doc-ref: DescribeConfigsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_resources
  type: s4
  doc: Number of elements of `resources`.
  -lc-count-of: resources
  if: api_version <= 3
- id: num_resources_compact
  type: biased_uvarint(32)
  doc: Number of elements of `resources`.
  -lc-count-of: resources
  if: api_version >= 4
- id: resources
  doc: The resources whose configurations we want to describe.
  type: describe_configs_resource(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_resources_compact.value : num_resources)'
- id: include_synonyms
  type: u1
  doc: True if we should include all synonyms.
  if: api_version >= 1
- id: include_documentation
  type: u1
  doc: True if we should include configuration documentation.
  if: api_version >= 3
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 4
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 4
types:
  describe_configs_resource:
    doc: DescribeConfigsResource.
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
      if: api_version <= 3
    - id: len_resource_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version >= 4
    - id: resource_name
      doc: The resource name.
      size: '(api_version >= 4 ? len_resource_name_compact.value : len_resource_name)'
      type: str
      encoding: UTF-8
    - id: num_configuration_keys
      type: s4
      doc: Number of elements of `configuration_keys`, or -1 for null.
      -lc-count-of: configuration_keys
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 3
    - id: num_configuration_keys_compact
      type: biased_uvarint(32)
      doc: Number of elements of `configuration_keys`, or -1 for null.
      -lc-count-of: configuration_keys
      -lc-absent: -1
      if: api_version >= 4
    - id: configuration_keys
      doc: The configuration keys to list, or null to list all configuration keys.
      type: string_element(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_configuration_keys_compact.value : num_configuration_keys)'
      if: '(api_version >= 4 ? num_configuration_keys_compact.value : num_configuration_keys) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 4
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 4
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value
      type: s2
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version <= 3
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version >= 4
    - id: value
      doc: The string.
      size: '(api_version >= 4 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8

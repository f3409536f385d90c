meta:
  id: describe_configs_response
  title: DescribeConfigsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeConfigsResponse (response), versions 0-4; flexible in 4+.
doc-ref: DescribeConfigsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_results
  type: s4
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version <= 3
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version >= 4
- id: results
  doc: The results for each resource.
  type: describe_configs_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_results_compact.value : num_results)'
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
  describe_configs_result:
    doc: DescribeConfigsResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The error code, or 0 if we were able to successfully describe the configurations.
    - id: len_error_message
      type: s2
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 3
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 4
    - id: error_message
      doc: The error message, or null if we were able to successfully describe the configurations.
      size: '(api_version >= 4 ? len_error_message_compact.value : len_error_message)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 4 ? len_error_message_compact.value : len_error_message) >= 0'
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
    - id: num_configs
      type: s4
      doc: Number of elements of `configs`.
      -lc-count-of: configs
      if: api_version <= 3
    - id: num_configs_compact
      type: biased_uvarint(32)
      doc: Number of elements of `configs`.
      -lc-count-of: configs
      if: api_version >= 4
    - id: configs
      doc: Each listed configuration.
      type: describe_configs_resource_result(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_configs_compact.value : num_configs)'
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
  describe_configs_resource_result:
    doc: DescribeConfigsResourceResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 3
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 4
    - id: name
      doc: The configuration name.
      size: '(api_version >= 4 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: len_value
      type: s2
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 3
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      if: api_version >= 4
    - id: value
      doc: The configuration value.
      size: '(api_version >= 4 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 4 ? len_value_compact.value : len_value) >= 0'
    - id: read_only
      type: u1
      doc: True if the configuration is read-only.
    - id: is_default
      type: u1
      doc: True if the configuration is not set.
      if: api_version <= 0
    - id: config_source
      type: s1
      doc: The configuration source.
      if: api_version >= 1
    - id: is_sensitive
      type: u1
      doc: True if this configuration is sensitive.
    - id: num_synonyms
      type: s4
      doc: Number of elements of `synonyms`.
      -lc-count-of: synonyms
      if: api_version >= 1 and api_version <= 3
    - id: num_synonyms_compact
      type: biased_uvarint(32)
      doc: Number of elements of `synonyms`.
      -lc-count-of: synonyms
      if: api_version >= 4
    - id: synonyms
      doc: The synonyms for this configuration key.
      type: describe_configs_synonym(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 4 ? num_synonyms_compact.value : num_synonyms)'
      if: api_version >= 1
    - id: config_type
      type: s1
      doc: The configuration data type. Type can be one of the following values - BOOLEAN, STRING, INT,
        SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD
      if: api_version >= 3
    - id: len_documentation
      type: s2
      doc: Length in bytes of `documentation`, or -1 for null.
      -lc-size-of: documentation
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 3 and api_version <= 3
    - id: len_documentation_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `documentation`, or -1 for null.
      -lc-size-of: documentation
      -lc-absent: -1
      if: api_version >= 4
    - id: documentation
      doc: The configuration documentation.
      size: '(api_version >= 4 ? len_documentation_compact.value : len_documentation)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 3 and (api_version >= 4 ? len_documentation_compact.value : len_documentation)
        >= 0'
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
  describe_configs_synonym:
    doc: DescribeConfigsSynonym.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 1 and api_version <= 3
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 4
    - id: name
      doc: The synonym name.
      size: '(api_version >= 4 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
      if: api_version >= 1
    - id: len_value
      type: s2
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 1 and api_version <= 3
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      if: api_version >= 4
    - id: value
      doc: The synonym value.
      size: '(api_version >= 4 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 1 and (api_version >= 4 ? len_value_compact.value : len_value) >= 0'
    - id: source
      type: s1
      doc: The synonym source.
      if: api_version >= 1
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

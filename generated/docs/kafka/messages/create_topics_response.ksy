meta:
  id: create_topics_response
  title: CreateTopicsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreateTopicsResponse (response), versions 0-7; flexible in 5+.
doc-ref: CreateTopicsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 2
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 4
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 5
- id: topics
  doc: Results for each topic we tried to create.
  type: creatable_topic_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 5 ? num_topics_compact.value : num_topics)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 5
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 5
types:
  creatable_topic_result:
    doc: CreatableTopicResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 4
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 5
    - id: name
      doc: The topic name.
      size: '(api_version >= 5 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: topic_id
      size: 16
      doc: The unique topic ID
      if: api_version >= 7
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
    - id: len_error_message
      type: s2
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 1 and api_version <= 4
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 5
    - id: error_message
      doc: The error message, or null if there was no error.
      size: '(api_version >= 5 ? len_error_message_compact.value : len_error_message)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 1 and (api_version >= 5 ? len_error_message_compact.value : len_error_message)
        >= 0'
    - id: num_partitions
      type: s4
      doc: Number of partitions of the topic.
      if: api_version >= 5
    - id: replication_factor
      type: s2
      doc: Replication factor of the topic.
      if: api_version >= 5
    - id: num_configs_compact
      type: biased_uvarint(32)
      doc: Number of elements of `configs`, or -1 for null.
      -lc-count-of: configs
      -lc-absent: -1
      if: api_version >= 5
    - id: configs
      doc: Configuration of the topic.
      type: creatable_topic_configs(api_version)
      repeat: expr
      repeat-expr: num_configs_compact.value
      if: api_version >= 5 and num_configs_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 5
    - id: tagged_fields
      type: creatable_topic_result_tagged_field(api_version)
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      -lc-keyed:
        key: tag
        value: data
        fields:
          topic_config_error_code:
            key: 0
            default: 0
      if: api_version >= 5
  creatable_topic_configs:
    doc: CreatableTopicConfigs.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 5
    - id: name
      doc: The configuration name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 5
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      if: api_version >= 5
    - id: value
      doc: The configuration value.
      size: len_value_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 5 and len_value_compact.value >= 0
    - id: read_only
      type: u1
      doc: True if the configuration is read-only.
      if: api_version >= 5
    - id: config_source
      type: s1
      doc: The configuration source.
      if: api_version >= 5
    - id: is_sensitive
      type: u1
      doc: True if this configuration is sensitive.
      if: api_version >= 5
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 5
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 5
  topic_config_error_code_tag:
    doc: The tagged field `topic_config_error_code` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_config_error_code
      type: s2
      doc: Optional topic config error returned if configs are not returned in the response.
      if: api_version >= 5
  creatable_topic_result_tagged_field:
    doc: 'One tagged field of creatable_topic_result: its tag, its size and its bytes, read as the field
      of a tag it knows (0: `topic_config_error_code`).'
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
          0: topic_config_error_code_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

meta:
  id: create_topics_request
  title: CreateTopicsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreateTopicsRequest (request), versions 0-7; flexible in 5+.
doc-ref: CreateTopicsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
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
  doc: The topics to create.
  type: creatable_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 5 ? num_topics_compact.value : num_topics)'
- id: timeout_ms
  type: s4
  doc: How long to wait in milliseconds before timing out the request.
- id: validate_only
  type: u1
  doc: If true, check that the topics can be created as specified, but don't create anything.
  if: api_version >= 1
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
  creatable_topic:
    doc: CreatableTopic.
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
    - id: num_partitions
      type: s4
      doc: The number of partitions to create in the topic, or -1 if we are either specifying a manual
        partition assignment or using the default partitions.
    - id: replication_factor
      type: s2
      doc: The number of replicas to create for each partition in the topic, or -1 if we are either specifying
        a manual partition assignment or using the default replication factor.
    - id: num_assignments
      type: s4
      doc: Number of elements of `assignments`.
      -lc-count-of: assignments
      if: api_version <= 4
    - id: num_assignments_compact
      type: biased_uvarint(32)
      doc: Number of elements of `assignments`.
      -lc-count-of: assignments
      if: api_version >= 5
    - id: assignments
      doc: The manual partition assignment, or the empty array if we are using automatic assignment.
      type: creatable_replica_assignment(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 5 ? num_assignments_compact.value : num_assignments)'
    - id: num_configs
      type: s4
      doc: Number of elements of `configs`.
      -lc-count-of: configs
      if: api_version <= 4
    - id: num_configs_compact
      type: biased_uvarint(32)
      doc: Number of elements of `configs`.
      -lc-count-of: configs
      if: api_version >= 5
    - id: configs
      doc: The custom topic configurations to set.
      type: creatable_topic_config(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 5 ? num_configs_compact.value : num_configs)'
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
  creatable_replica_assignment:
    doc: CreatableReplicaAssignment.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: num_broker_ids
      type: s4
      doc: Number of elements of `broker_ids`.
      -lc-count-of: broker_ids
      if: api_version <= 4
    - id: num_broker_ids_compact
      type: biased_uvarint(32)
      doc: Number of elements of `broker_ids`.
      -lc-count-of: broker_ids
      if: api_version >= 5
    - id: broker_ids
      doc: The brokers to place the partition on.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 5 ? num_broker_ids_compact.value : num_broker_ids)'
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
  creatable_topic_config:
    doc: CreatableTopicConfig.
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
      doc: The configuration name.
      size: '(api_version >= 5 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: len_value
      type: s2
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 4
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`, or -1 for null.
      -lc-size-of: value
      -lc-absent: -1
      if: api_version >= 5
    - id: value
      doc: The configuration value.
      size: '(api_version >= 5 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 5 ? len_value_compact.value : len_value) >= 0'
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

meta:
  id: create_partitions_request
  title: CreatePartitionsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreatePartitionsRequest (request), versions 0-3; flexible in 2+.
doc-ref: CreatePartitionsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 1
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 2
- id: topics
  doc: Each topic that we want to create new partitions inside.
  type: create_partitions_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_topics_compact.value : num_topics)'
- id: timeout_ms
  type: s4
  doc: The time in ms to wait for the partitions to be created.
- id: validate_only
  type: u1
  doc: If true, then validate the request, but don't actually increase the number of partitions.
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
  create_partitions_topic:
    doc: CreatePartitionsTopic.
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
      doc: The topic name.
      size: '(api_version >= 2 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: count
      type: s4
      doc: The new partition count.
    - id: num_assignments
      type: s4
      doc: Number of elements of `assignments`, or -1 for null.
      -lc-count-of: assignments
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: num_assignments_compact
      type: biased_uvarint(32)
      doc: Number of elements of `assignments`, or -1 for null.
      -lc-count-of: assignments
      -lc-absent: -1
      if: api_version >= 2
    - id: assignments
      doc: The new partition assignments.
      type: create_partitions_assignment(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_assignments_compact.value : num_assignments)'
      if: '(api_version >= 2 ? num_assignments_compact.value : num_assignments) >= 0'
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
  create_partitions_assignment:
    doc: CreatePartitionsAssignment.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: num_broker_ids
      type: s4
      doc: Number of elements of `broker_ids`.
      -lc-count-of: broker_ids
      if: api_version <= 1
    - id: num_broker_ids_compact
      type: biased_uvarint(32)
      doc: Number of elements of `broker_ids`.
      -lc-count-of: broker_ids
      if: api_version >= 2
    - id: broker_ids
      doc: The assigned broker IDs.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_broker_ids_compact.value : num_broker_ids)'
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

meta:
  id: alter_partition_reassignments_request
  title: AlterPartitionReassignmentsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterPartitionReassignmentsRequest (request), versions 0; flexible in 0+.
doc-ref: AlterPartitionReassignmentsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: timeout_ms
  type: s4
  doc: The time in ms to wait for the request to complete.
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics to reassign.
  type: reassignable_topic(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
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
  reassignable_topic:
    doc: ReassignableTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The topic name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The partitions to reassign.
      type: reassignable_partition(api_version)
      repeat: expr
      repeat-expr: num_partitions_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  reassignable_partition:
    doc: ReassignablePartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: num_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `replicas`, or -1 for null.
      -lc-count-of: replicas
      -lc-absent: -1
    - id: replicas
      doc: The replicas to place the partitions on, or null to cancel a pending reassignment for this
        partition.
      type: s4
      repeat: expr
      repeat-expr: num_replicas_compact.value
      if: num_replicas_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

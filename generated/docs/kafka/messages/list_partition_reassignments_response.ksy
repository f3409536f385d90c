meta:
  id: list_partition_reassignments_response
  title: ListPartitionReassignmentsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ListPartitionReassignmentsResponse (response), versions 0; flexible in 0+.
doc-ref: ListPartitionReassignmentsResponse.json
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
  doc: The top-level error code, or 0 if there was no error
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
- id: error_message
  doc: The top-level error message, or null if there was no error.
  size: len_error_message_compact.value
  type: str
  encoding: UTF-8
  if: len_error_message_compact.value >= 0
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The ongoing reassignments for each topic.
  type: ongoing_topic_reassignment(api_version)
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
  ongoing_topic_reassignment:
    doc: OngoingTopicReassignment.
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
      doc: The ongoing reassignments for each partition.
      type: ongoing_partition_reassignment(api_version)
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
  ongoing_partition_reassignment:
    doc: OngoingPartitionReassignment.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The index of the partition.
    - id: num_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `replicas`.
      -lc-count-of: replicas
    - id: replicas
      doc: The current replica set.
      type: s4
      repeat: expr
      repeat-expr: num_replicas_compact.value
    - id: num_adding_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `adding_replicas`.
      -lc-count-of: adding_replicas
    - id: adding_replicas
      doc: The set of replicas we are currently adding.
      type: s4
      repeat: expr
      repeat-expr: num_adding_replicas_compact.value
    - id: num_removing_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `removing_replicas`.
      -lc-count-of: removing_replicas
    - id: removing_replicas
      doc: The set of replicas we are currently removing.
      type: s4
      repeat: expr
      repeat-expr: num_removing_replicas_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

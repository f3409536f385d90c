meta:
  id: stop_replica_response
  title: StopReplicaResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: StopReplicaResponse (response), versions 0-4; flexible in 2+.
doc-ref: StopReplicaResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top-level error code, or 0 if there was no top-level error.
- id: num_partition_errors
  type: s4
  doc: Number of elements of `partition_errors`.
  -lc-count-of: partition_errors
  if: api_version <= 1
- id: num_partition_errors_compact
  type: biased_uvarint(32)
  doc: Number of elements of `partition_errors`.
  -lc-count-of: partition_errors
  if: api_version >= 2
- id: partition_errors
  doc: The responses for each partition.
  type: stop_replica_partition_error(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_partition_errors_compact.value : num_partition_errors)'
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
  stop_replica_partition_error:
    doc: StopReplicaPartitionError.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 1
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 2
    - id: topic_name
      doc: The topic name.
      size: '(api_version >= 2 ? len_topic_name_compact.value : len_topic_name)'
      type: str
      encoding: UTF-8
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The partition error code, or 0 if there was no partition error.
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

meta:
  id: controlled_shutdown_response
  title: ControlledShutdownResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ControlledShutdownResponse (response), versions 0-3; flexible in 3+.
doc-ref: ControlledShutdownResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top-level error code.
- id: num_remaining_partitions
  type: s4
  doc: Number of elements of `remaining_partitions`.
  -lc-count-of: remaining_partitions
  if: api_version <= 2
- id: num_remaining_partitions_compact
  type: biased_uvarint(32)
  doc: Number of elements of `remaining_partitions`.
  -lc-count-of: remaining_partitions
  if: api_version >= 3
- id: remaining_partitions
  doc: The partitions that the broker still leads.
  type: remaining_partition(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 3 ? num_remaining_partitions_compact.value : num_remaining_partitions)'
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
types:
  remaining_partition:
    doc: RemainingPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 2
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 3
    - id: topic_name
      doc: The name of the topic.
      size: '(api_version >= 3 ? len_topic_name_compact.value : len_topic_name)'
      type: str
      encoding: UTF-8
    - id: partition_index
      type: s4
      doc: The index of the partition.
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

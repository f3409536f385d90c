meta:
  id: initialize_share_group_state_response
  title: InitializeShareGroupStateResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: InitializeShareGroupStateResponse (response), versions 0; flexible in 0+.
doc-ref: InitializeShareGroupStateResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
- id: results
  doc: The initialization results
  type: initialize_state_result(api_version)
  repeat: expr
  repeat-expr: num_results_compact.value
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
  initialize_state_result:
    doc: InitializeStateResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The topic identifier
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The results for the partitions.
      type: partition_result(api_version)
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
  partition_result:
    doc: PartitionResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
    - id: error_message
      doc: The error message, or null if there was no error.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: len_error_message_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: describe_producers_response
  title: DescribeProducersResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeProducersResponse (response), versions 0; flexible in 0+.
doc-ref: DescribeProducersResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: Each topic in the response.
  type: topic_response(api_version)
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
  topic_response:
    doc: TopicResponse.
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
      doc: The topic name
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: Each partition in the response.
      type: partition_response(api_version)
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
  partition_response:
    doc: PartitionResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The partition error code, or 0 if there was no error.
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
    - id: error_message
      doc: The partition error message, which may be null if no additional details are available
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: len_error_message_compact.value >= 0
    - id: num_active_producers_compact
      type: biased_uvarint(32)
      doc: Number of elements of `active_producers`.
      -lc-count-of: active_producers
    - id: active_producers
      doc: ActiveProducers.
      type: producer_state(api_version)
      repeat: expr
      repeat-expr: num_active_producers_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  producer_state:
    doc: ProducerState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: producer_id
      type: s8
      doc: ProducerId.
    - id: producer_epoch
      type: s4
      doc: ProducerEpoch.
    - id: last_sequence
      type: s4
      doc: LastSequence.
    - id: last_timestamp
      type: s8
      doc: LastTimestamp.
    - id: coordinator_epoch
      type: s4
      doc: CoordinatorEpoch.
    - id: current_txn_start_offset
      type: s8
      doc: CurrentTxnStartOffset.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: produce_response
  title: ProduceResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ProduceResponse (response), versions 0-11; flexible in 9+.
doc-ref: ProduceResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_responses
  type: s4
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version <= 8
- id: num_responses_compact
  type: biased_uvarint(32)
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version >= 9
- id: responses
  doc: Each produce response
  type: topic_produce_response(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 9 ? num_responses_compact.value : num_responses)'
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 1
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 9
- id: tagged_fields
  type: produce_response_tagged_field(api_version)
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  -lc-keyed:
    key: tag
    value: data
    fields:
      node_endpoints:
        key: 0
        default: []
  if: api_version >= 9
types:
  topic_produce_response:
    doc: TopicProduceResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 8
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 9
    - id: name
      doc: The topic name
      size: '(api_version >= 9 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partition_responses
      type: s4
      doc: Number of elements of `partition_responses`.
      -lc-count-of: partition_responses
      if: api_version <= 8
    - id: num_partition_responses_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_responses`.
      -lc-count-of: partition_responses
      if: api_version >= 9
    - id: partition_responses
      doc: Each partition that we produced to within the topic.
      type: partition_produce_response(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_partition_responses_compact.value : num_partition_responses)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 9
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 9
  partition_produce_response:
    doc: PartitionProduceResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: index
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
    - id: base_offset
      type: s8
      doc: The base offset.
    - id: log_append_time_ms
      type: s8
      doc: The timestamp returned by broker after appending the messages. If CreateTime is used for the
        topic, the timestamp will be -1.  If LogAppendTime is used for the topic, the timestamp will be
        the broker local time when the messages are appended.
      if: api_version >= 2
    - id: log_start_offset
      type: s8
      doc: The log start offset.
      if: api_version >= 5
    - id: num_record_errors
      type: s4
      doc: Number of elements of `record_errors`.
      -lc-count-of: record_errors
      if: api_version >= 8 and api_version <= 8
    - id: num_record_errors_compact
      type: biased_uvarint(32)
      doc: Number of elements of `record_errors`.
      -lc-count-of: record_errors
      if: api_version >= 9
    - id: record_errors
      doc: The batch indices of records that caused the batch to be dropped
      type: batch_index_and_error_message(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_record_errors_compact.value : num_record_errors)'
      if: api_version >= 8
    - id: len_error_message
      type: s2
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 8 and api_version <= 8
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 9
    - id: error_message
      doc: The global error message summarizing the common root cause of the records that caused the batch
        to be dropped
      size: '(api_version >= 9 ? len_error_message_compact.value : len_error_message)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 8 and (api_version >= 9 ? len_error_message_compact.value : len_error_message)
        >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 9
    - id: tagged_fields
      type: partition_produce_response_tagged_field(api_version)
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      -lc-keyed:
        key: tag
        value: data
        fields:
          current_leader:
            key: 0
            default:
              leader_id: -1
              leader_epoch: -1
              tagged_fields: []
      if: api_version >= 9
  batch_index_and_error_message:
    doc: BatchIndexAndErrorMessage.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: batch_index
      type: s4
      doc: The batch index of the record that cause the batch to be dropped
      if: api_version >= 8
    - id: len_batch_index_error_message
      type: s2
      doc: Length in bytes of `batch_index_error_message`, or -1 for null.
      -lc-size-of: batch_index_error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 8 and api_version <= 8
    - id: len_batch_index_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `batch_index_error_message`, or -1 for null.
      -lc-size-of: batch_index_error_message
      -lc-absent: -1
      if: api_version >= 9
    - id: batch_index_error_message
      doc: The error message of the record that caused the batch to be dropped
      size: '(api_version >= 9 ? len_batch_index_error_message_compact.value : len_batch_index_error_message)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 8 and (api_version >= 9 ? len_batch_index_error_message_compact.value : len_batch_index_error_message)
        >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 9
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 9
  current_leader_tag:
    doc: The tagged field `current_leader` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: current_leader
      type: leader_id_and_epoch(api_version)
      doc: CurrentLeader.
      if: api_version >= 10
  leader_id_and_epoch:
    doc: LeaderIdAndEpoch.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: leader_id
      type: s4
      doc: The ID of the current leader or -1 if the leader is unknown.
      if: api_version >= 10
    - id: leader_epoch
      type: s4
      doc: The latest known leader epoch
      if: api_version >= 10
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 10
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 10
  partition_produce_response_tagged_field:
    doc: 'One tagged field of partition_produce_response: its tag, its size and its bytes, read as the
      field of a tag it knows (0: `current_leader`).'
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
          0: current_leader_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.
  node_endpoints_tag:
    doc: The tagged field `node_endpoints` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: num_node_endpoints_compact
      type: biased_uvarint(32)
      doc: Number of elements of `node_endpoints`.
      -lc-count-of: node_endpoints
      if: api_version >= 10
    - id: node_endpoints
      doc: Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER.
      type: node_endpoint(api_version)
      repeat: expr
      repeat-expr: num_node_endpoints_compact.value
      if: api_version >= 10
  node_endpoint:
    doc: NodeEndpoint.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: node_id
      type: s4
      doc: The ID of the associated node.
      if: api_version >= 10
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 10
    - id: host
      doc: The node's hostname.
      size: len_host_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 10
    - id: port
      type: s4
      doc: The node's port.
      if: api_version >= 10
    - id: len_rack_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
      if: api_version >= 10
    - id: rack
      doc: The rack of the node, or null if it has not been assigned to a rack.
      size: len_rack_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 10 and len_rack_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 10
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 10
  produce_response_tagged_field:
    doc: 'One tagged field of produce_response: its tag, its size and its bytes, read as the field of
      a tag it knows (0: `node_endpoints`).'
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
          0: node_endpoints_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

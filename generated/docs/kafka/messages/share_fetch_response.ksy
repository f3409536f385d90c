meta:
  id: share_fetch_response
  title: ShareFetchResponse
  endian: be
  -lc-fills-input: true
  imports:
  - ../record_set
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ShareFetchResponse (response), versions 0; flexible in 0+.
doc-ref: ShareFetchResponse.json
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
  doc: The top-level response error code.
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
- id: num_responses_compact
  type: biased_uvarint(32)
  doc: Number of elements of `responses`.
  -lc-count-of: responses
- id: responses
  doc: The response topics.
  type: share_fetchable_topic_response(api_version)
  repeat: expr
  repeat-expr: num_responses_compact.value
- id: num_node_endpoints_compact
  type: biased_uvarint(32)
  doc: Number of elements of `node_endpoints`.
  -lc-count-of: node_endpoints
- id: node_endpoints
  doc: Endpoints for all current leaders enumerated in PartitionData with error NOT_LEADER_OR_FOLLOWER.
  type: node_endpoint(api_version)
  repeat: expr
  repeat-expr: num_node_endpoints_compact.value
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
  share_fetchable_topic_response:
    doc: ShareFetchableTopicResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The unique topic ID.
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The topic partitions.
      type: partition_data(api_version)
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
  partition_data:
    doc: PartitionData.
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
      doc: The fetch error code, or 0 if there was no fetch error.
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
    - id: error_message
      doc: The fetch error message, or null if there was no fetch error.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: len_error_message_compact.value >= 0
    - id: acknowledge_error_code
      type: s2
      doc: The acknowledge error code, or 0 if there was no acknowledge error.
    - id: len_acknowledge_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `acknowledge_error_message`, or -1 for null.
      -lc-size-of: acknowledge_error_message
      -lc-absent: -1
    - id: acknowledge_error_message
      doc: The acknowledge error message, or null if there was no acknowledge error.
      size: len_acknowledge_error_message_compact.value
      type: str
      encoding: UTF-8
      if: len_acknowledge_error_message_compact.value >= 0
    - id: current_leader
      type: leader_id_and_epoch(api_version)
      doc: CurrentLeader.
    - id: len_records_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
    - id: records
      doc: The record data.
      size: len_records_compact.value
      type: record_set
      if: len_records_compact.value >= 0
    - id: num_acquired_records_compact
      type: biased_uvarint(32)
      doc: Number of elements of `acquired_records`.
      -lc-count-of: acquired_records
    - id: acquired_records
      doc: The acquired records.
      type: acquired_records(api_version)
      repeat: expr
      repeat-expr: num_acquired_records_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
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
    - id: leader_epoch
      type: s4
      doc: The latest known leader epoch.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  acquired_records:
    doc: AcquiredRecords.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: first_offset
      type: s8
      doc: The earliest offset in this batch of acquired records.
    - id: last_offset
      type: s8
      doc: The last offset of this batch of acquired records.
    - id: delivery_count
      type: s2
      doc: The delivery count of this batch of acquired records.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
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
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
    - id: host
      doc: The node's hostname.
      size: len_host_compact.value
      type: str
      encoding: UTF-8
    - id: port
      type: s4
      doc: The node's port.
    - id: len_rack_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
    - id: rack
      doc: The rack of the node, or null if it has not been assigned to a rack.
      size: len_rack_compact.value
      type: str
      encoding: UTF-8
      if: len_rack_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: fetch_response
  title: FetchResponse
  endian: be
  -lc-fills-input: true
  imports:
  - ../record_set
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FetchResponse (response), versions 0-17; flexible in 12+.
doc-ref: FetchResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 1
- id: error_code
  type: s2
  doc: The top level response error code.
  if: api_version >= 7
- id: session_id
  type: s4
  doc: The fetch session ID, or 0 if this is not part of a fetch session.
  if: api_version >= 7
- id: num_responses
  type: s4
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version <= 11
- id: num_responses_compact
  type: biased_uvarint(32)
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version >= 12
- id: responses
  doc: The response topics.
  type: fetchable_topic_response(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 12 ? num_responses_compact.value : num_responses)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 12
- id: tagged_fields
  type: fetch_response_tagged_field(api_version)
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
  if: api_version >= 12
types:
  fetchable_topic_response:
    doc: FetchableTopicResponse.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic
      type: s2
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version <= 11
    - id: len_topic_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version >= 12 and api_version <= 12
    - id: topic
      doc: The topic name.
      size: '(api_version >= 12 and api_version <= 12 ? len_topic_compact.value : len_topic)'
      type: str
      encoding: UTF-8
      if: api_version <= 12
    - id: topic_id
      size: 16
      doc: The unique topic ID
      if: api_version >= 13
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 11
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 12
    - id: partitions
      doc: The topic partitions.
      type: partition_data(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 12 ? num_partitions_compact.value : num_partitions)'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
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
      doc: The error code, or 0 if there was no fetch error.
    - id: high_watermark
      type: s8
      doc: The current high water mark.
    - id: last_stable_offset
      type: s8
      doc: The last stable offset (or LSO) of the partition. This is the last offset such that the state
        of all transactional records prior to this offset have been decided (ABORTED or COMMITTED)
      if: api_version >= 4
    - id: log_start_offset
      type: s8
      doc: The current log start offset.
      if: api_version >= 5
    - id: num_aborted_transactions
      type: s4
      doc: Number of elements of `aborted_transactions`, or -1 for null.
      -lc-count-of: aborted_transactions
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 4 and api_version <= 11
    - id: num_aborted_transactions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `aborted_transactions`, or -1 for null.
      -lc-count-of: aborted_transactions
      -lc-absent: -1
      if: api_version >= 12
    - id: aborted_transactions
      doc: The aborted transactions.
      type: aborted_transaction(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 12 ? num_aborted_transactions_compact.value : num_aborted_transactions)'
      if: 'api_version >= 4 and (api_version >= 12 ? num_aborted_transactions_compact.value : num_aborted_transactions)
        >= 0'
    - id: preferred_read_replica
      type: s4
      doc: The preferred read replica for the consumer to use on its next fetch request
      if: api_version >= 11
    - id: len_records
      type: s4
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 11
    - id: len_records_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
      if: api_version >= 12
    - id: records
      doc: The record data.
      size: '(api_version >= 12 ? len_records_compact.value : len_records)'
      type: record_set
      if: '(api_version >= 12 ? len_records_compact.value : len_records) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: partition_data_tagged_field(api_version)
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      -lc-keyed:
        key: tag
        value: data
        fields:
          diverging_epoch:
            key: 0
            default:
              epoch: -1
              end_offset: -1
              tagged_fields: []
          current_leader:
            key: 1
            default:
              leader_id: -1
              leader_epoch: -1
              tagged_fields: []
          snapshot_id:
            key: 2
            default:
              end_offset: -1
              epoch: -1
              tagged_fields: []
      if: api_version >= 12
  aborted_transaction:
    doc: AbortedTransaction.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: producer_id
      type: s8
      doc: The producer id associated with the aborted transaction.
      if: api_version >= 4
    - id: first_offset
      type: s8
      doc: The first offset in the aborted transaction.
      if: api_version >= 4
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
  diverging_epoch_tag:
    doc: The tagged field `diverging_epoch` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: diverging_epoch
      type: epoch_end_offset(api_version)
      doc: In case divergence is detected based on the `LastFetchedEpoch` and `FetchOffset` in the request,
        this field indicates the largest epoch and its end offset such that subsequent records are known
        to diverge
      if: api_version >= 12
  epoch_end_offset:
    doc: EpochEndOffset.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: epoch
      type: s4
      doc: Epoch.
      if: api_version >= 12
    - id: end_offset
      type: s8
      doc: EndOffset.
      if: api_version >= 12
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
  current_leader_tag:
    doc: The tagged field `current_leader` (tag 1).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: current_leader
      type: leader_id_and_epoch(api_version)
      doc: CurrentLeader.
      if: api_version >= 12
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
      if: api_version >= 12
    - id: leader_epoch
      type: s4
      doc: The latest known leader epoch
      if: api_version >= 12
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
  snapshot_id_tag:
    doc: The tagged field `snapshot_id` (tag 2).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: snapshot_id
      type: snapshot_id(api_version)
      doc: In the case of fetching an offset less than the LogStartOffset, this is the end offset and
        epoch that should be used in the FetchSnapshot request.
      if: api_version >= 12
  snapshot_id:
    doc: SnapshotId.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: end_offset
      type: s8
      doc: EndOffset.
      if: api_version >= 12
    - id: epoch
      type: s4
      doc: Epoch.
      if: api_version >= 12
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 12
  partition_data_tagged_field:
    doc: 'One tagged field of partition_data: its tag, its size and its bytes, read as the field of a
      tag it knows (0: `diverging_epoch`, 1: `current_leader`, 2: `snapshot_id`).'
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
          0: diverging_epoch_tag(api_version)
          1: current_leader_tag(api_version)
          2: snapshot_id_tag(api_version)
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
      if: api_version >= 16
    - id: node_endpoints
      doc: Endpoints for all current-leaders enumerated in PartitionData, with errors NOT_LEADER_OR_FOLLOWER
        & FENCED_LEADER_EPOCH.
      type: node_endpoint(api_version)
      repeat: expr
      repeat-expr: num_node_endpoints_compact.value
      if: api_version >= 16
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
      if: api_version >= 16
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 16
    - id: host
      doc: The node's hostname.
      size: len_host_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 16
    - id: port
      type: s4
      doc: The node's port.
      if: api_version >= 16
    - id: len_rack_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
      if: api_version >= 16
    - id: rack
      doc: The rack of the node, or null if it has not been assigned to a rack.
      size: len_rack_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 16 and len_rack_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 16
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 16
  fetch_response_tagged_field:
    doc: 'One tagged field of fetch_response: its tag, its size and its bytes, read as the field of a
      tag it knows (0: `node_endpoints`).'
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

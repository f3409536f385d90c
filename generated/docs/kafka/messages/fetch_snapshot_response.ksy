meta:
  id: fetch_snapshot_response
  title: FetchSnapshotResponse
  endian: be
  -lc-fills-input: true
  imports:
  - ../record_set
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FetchSnapshotResponse (response), versions 0-1; flexible in 0+.
doc-ref: FetchSnapshotResponse.json
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
  doc: The top level response error code.
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics to fetch.
  type: topic_snapshot(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: fetch_snapshot_response_tagged_field(api_version)
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
types:
  topic_snapshot:
    doc: TopicSnapshot.
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
      doc: The name of the topic to fetch.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The partitions to fetch.
      type: partition_snapshot(api_version)
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
  partition_snapshot:
    doc: PartitionSnapshot.
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
      doc: The error code, or 0 if there was no fetch error.
    - id: snapshot_id
      type: snapshot_id(api_version)
      doc: The snapshot endOffset and epoch fetched
    - id: size
      type: s8
      doc: The total size of the snapshot.
    - id: position
      type: s8
      doc: The starting byte position within the snapshot included in the Bytes field.
    - id: len_unaligned_records_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `unaligned_records`.
      -lc-size-of: unaligned_records
    - id: unaligned_records
      doc: Snapshot data in records format which may not be aligned on an offset boundary
      size: len_unaligned_records_compact.value
      type: record_set
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: partition_snapshot_tagged_field(api_version)
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
              leader_id: 0
              leader_epoch: 0
              tagged_fields: []
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
    - id: epoch
      type: s4
      doc: Epoch.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
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
      doc: The latest known leader epoch
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  partition_snapshot_tagged_field:
    doc: 'One tagged field of partition_snapshot: its tag, its size and its bytes, read as the field of
      a tag it knows (0: `current_leader`).'
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
      if: api_version >= 1
    - id: node_endpoints
      doc: Endpoints for all current-leaders enumerated in PartitionSnapshot
      type: node_endpoint(api_version)
      repeat: expr
      repeat-expr: num_node_endpoints_compact.value
      if: api_version >= 1
  node_endpoint:
    doc: NodeEndpoint.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: node_id
      type: s4
      doc: The ID of the associated node
      if: api_version >= 1
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 1
    - id: host
      doc: The node's hostname
      size: len_host_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 1
    - id: port
      type: u2
      doc: The node's port
      if: api_version >= 1
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 1
  fetch_snapshot_response_tagged_field:
    doc: 'One tagged field of fetch_snapshot_response: its tag, its size and its bytes, read as the field
      of a tag it knows (0: `node_endpoints`).'
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

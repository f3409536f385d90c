meta:
  id: fetch_snapshot_request
  title: FetchSnapshotRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FetchSnapshotRequest (request), versions 0-1; flexible in 0+.
doc-ref: FetchSnapshotRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: replica_id
  type: s4
  doc: The broker ID of the follower
- id: max_bytes
  type: s4
  doc: The maximum bytes to fetch from all of the snapshots
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics to fetch
  type: topic_snapshot(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: fetch_snapshot_request_tagged_field(api_version)
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  -lc-keyed:
    key: tag
    value: data
    fields:
      cluster_id:
        key: 0
        default: null
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
      doc: The name of the topic to fetch
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The partitions to fetch
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
    - id: partition
      type: s4
      doc: The partition index
    - id: current_leader_epoch
      type: s4
      doc: The current leader epoch of the partition, -1 for unknown leader epoch
    - id: snapshot_id
      type: snapshot_id(api_version)
      doc: The snapshot endOffset and epoch to fetch
    - id: position
      type: s8
      doc: The byte position within the snapshot to start fetching from
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
          replica_directory_id:
            key: 0
            default:
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
            - 0
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
  replica_directory_id_tag:
    doc: The tagged field `replica_directory_id` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: replica_directory_id
      size: 16
      doc: The directory id of the follower fetching
      if: api_version >= 1
  partition_snapshot_tagged_field:
    doc: 'One tagged field of partition_snapshot: its tag, its size and its bytes, read as the field of
      a tag it knows (0: `replica_directory_id`).'
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
          0: replica_directory_id_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.
  cluster_id_tag:
    doc: The tagged field `cluster_id` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_cluster_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `cluster_id`, or -1 for null.
      -lc-size-of: cluster_id
      -lc-absent: -1
    - id: cluster_id
      doc: The clusterId if known, this is used to validate metadata fetches prior to broker registration
      size: len_cluster_id_compact.value
      type: str
      encoding: UTF-8
      if: len_cluster_id_compact.value >= 0
  fetch_snapshot_request_tagged_field:
    doc: 'One tagged field of fetch_snapshot_request: its tag, its size and its bytes, read as the field
      of a tag it knows (0: `cluster_id`).'
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
          0: cluster_id_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

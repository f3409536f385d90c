meta:
  id: fetch_request
  title: FetchRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FetchRequest (request), versions 0-17; flexible in 12+.
doc-ref: FetchRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: replica_id
  type: s4
  doc: The broker ID of the follower, of -1 if this request is from a consumer.
  if: api_version <= 14
- id: max_wait_ms
  type: s4
  doc: The maximum time in milliseconds to wait for the response.
- id: min_bytes
  type: s4
  doc: The minimum bytes to accumulate in the response.
- id: max_bytes
  type: s4
  doc: The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be honored.
  if: api_version >= 3
- id: isolation_level
  type: s1
  doc: This setting controls the visibility of transactional records. Using READ_UNCOMMITTED (isolation_level
    = 0) makes all records visible. With READ_COMMITTED (isolation_level = 1), non-transactional and COMMITTED
    transactional records are visible. To be more concrete, READ_COMMITTED returns all data from offsets
    smaller than the current LSO (last stable offset), and enables the inclusion of the list of aborted
    transactions in the result, which allows consumers to discard ABORTED transactional records
  if: api_version >= 4
- id: session_id
  type: s4
  doc: The fetch session ID.
  if: api_version >= 7
- id: session_epoch
  type: s4
  doc: The fetch session epoch, which is used for ordering requests in a session.
  if: api_version >= 7
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 11
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 12
- id: topics
  doc: The topics to fetch.
  type: fetch_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 12 ? num_topics_compact.value : num_topics)'
- id: num_forgotten_topics_data
  type: s4
  doc: Number of elements of `forgotten_topics_data`.
  -lc-count-of: forgotten_topics_data
  if: api_version >= 7 and api_version <= 11
- id: num_forgotten_topics_data_compact
  type: biased_uvarint(32)
  doc: Number of elements of `forgotten_topics_data`.
  -lc-count-of: forgotten_topics_data
  if: api_version >= 12
- id: forgotten_topics_data
  doc: In an incremental fetch request, the partitions to remove.
  type: forgotten_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 12 ? num_forgotten_topics_data_compact.value : num_forgotten_topics_data)'
  if: api_version >= 7
- id: len_rack_id
  type: s2
  doc: Length in bytes of `rack_id`.
  -lc-size-of: rack_id
  if: api_version >= 11 and api_version <= 11
- id: len_rack_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `rack_id`.
  -lc-size-of: rack_id
  if: api_version >= 12
- id: rack_id
  doc: Rack ID of the consumer making this request
  size: '(api_version >= 12 ? len_rack_id_compact.value : len_rack_id)'
  type: str
  encoding: UTF-8
  if: api_version >= 11
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 12
- id: tagged_fields
  type: fetch_request_tagged_field(api_version)
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
      replica_state:
        key: 1
        default:
          replica_id: -1
          replica_epoch: -1
          tagged_fields: []
  if: api_version >= 12
types:
  fetch_topic:
    doc: FetchTopic.
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
      doc: The name of the topic to fetch.
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
      doc: The partitions to fetch.
      type: fetch_partition(api_version)
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
  fetch_partition:
    doc: FetchPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition
      type: s4
      doc: The partition index.
    - id: current_leader_epoch
      type: s4
      doc: The current leader epoch of the partition.
      if: api_version >= 9
    - id: fetch_offset
      type: s8
      doc: The message offset.
    - id: last_fetched_epoch
      type: s4
      doc: The epoch of the last fetched record or -1 if there is none
      if: api_version >= 12
    - id: log_start_offset
      type: s8
      doc: The earliest available offset of the follower replica.  The field is only used when the request
        is sent by the follower.
      if: api_version >= 5
    - id: partition_max_bytes
      type: s4
      doc: The maximum bytes to fetch from this partition.  See KIP-74 for cases where this limit may
        not be honored.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 12
    - id: tagged_fields
      type: fetch_partition_tagged_field(api_version)
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
      if: api_version >= 12
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
      if: api_version >= 17
  fetch_partition_tagged_field:
    doc: 'One tagged field of fetch_partition: its tag, its size and its bytes, read as the field of a
      tag it knows (0: `replica_directory_id`).'
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
  forgotten_topic:
    doc: ForgottenTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic
      type: s2
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version >= 7 and api_version <= 11
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
      if: api_version >= 7 and api_version <= 12
    - id: topic_id
      size: 16
      doc: The unique topic ID
      if: api_version >= 13
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 7 and api_version <= 11
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 12
    - id: partitions
      doc: The partitions indexes to forget.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 12 ? num_partitions_compact.value : num_partitions)'
      if: api_version >= 7
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
      if: api_version >= 12
    - id: cluster_id
      doc: The clusterId if known. This is used to validate metadata fetches prior to broker registration.
      size: len_cluster_id_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 12 and len_cluster_id_compact.value >= 0
  replica_state_tag:
    doc: The tagged field `replica_state` (tag 1).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: replica_state
      type: replica_state(api_version)
      doc: ReplicaState.
      if: api_version >= 15
  replica_state:
    doc: ReplicaState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: replica_id
      type: s4
      doc: The replica ID of the follower, or -1 if this request is from a consumer.
      if: api_version >= 15
    - id: replica_epoch
      type: s8
      doc: The epoch of this follower, or -1 if not available.
      if: api_version >= 15
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 15
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 15
  fetch_request_tagged_field:
    doc: 'One tagged field of fetch_request: its tag, its size and its bytes, read as the field of a tag
      it knows (0: `cluster_id`, 1: `replica_state`).'
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
          1: replica_state_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

meta:
  id: describe_quorum_response
  title: DescribeQuorumResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeQuorumResponse (response), versions 0-2; flexible in 0+.
doc-ref: DescribeQuorumResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top level error code.
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
  if: api_version >= 2
- id: error_message
  doc: The error message, or null if there was no error.
  size: len_error_message_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 2 and len_error_message_compact.value >= 0
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: Topics.
  type: topic_data(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
- id: num_nodes_compact
  type: biased_uvarint(32)
  doc: Number of elements of `nodes`.
  -lc-count-of: nodes
  if: api_version >= 2
- id: nodes
  doc: Nodes.
  type: node(api_version)
  repeat: expr
  repeat-expr: num_nodes_compact.value
  if: api_version >= 2
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
  topic_data:
    doc: TopicData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
    - id: topic_name
      doc: The topic name.
      size: len_topic_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: Partitions.
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
      doc: ErrorCode.
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 2
    - id: error_message
      doc: The error message, or null if there was no error.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 2 and len_error_message_compact.value >= 0
    - id: leader_id
      type: s4
      doc: The ID of the current leader or -1 if the leader is unknown.
    - id: leader_epoch
      type: s4
      doc: The latest known leader epoch
    - id: high_watermark
      type: s8
      doc: HighWatermark.
    - id: num_current_voters_compact
      type: biased_uvarint(32)
      doc: Number of elements of `current_voters`.
      -lc-count-of: current_voters
    - id: current_voters
      doc: CurrentVoters.
      type: replica_state(api_version)
      repeat: expr
      repeat-expr: num_current_voters_compact.value
    - id: num_observers_compact
      type: biased_uvarint(32)
      doc: Number of elements of `observers`.
      -lc-count-of: observers
    - id: observers
      doc: Observers.
      type: replica_state(api_version)
      repeat: expr
      repeat-expr: num_observers_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  replica_state:
    doc: ReplicaState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: replica_id
      type: s4
      doc: ReplicaId.
    - id: replica_directory_id
      size: 16
      doc: ReplicaDirectoryId.
      if: api_version >= 2
    - id: log_end_offset
      type: s8
      doc: The last known log end offset of the follower or -1 if it is unknown
    - id: last_fetch_timestamp
      type: s8
      doc: The last known leader wall clock time time when a follower fetched from the leader. This is
        reported as -1 both for the current leader or if it is unknown for a voter
      if: api_version >= 1
    - id: last_caught_up_timestamp
      type: s8
      doc: The leader wall clock append time of the offset for which the follower made the most recent
        fetch request. This is reported as the current time for the leader and -1 if unknown for a voter
      if: api_version >= 1
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  node:
    doc: Node.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: node_id
      type: s4
      doc: The ID of the associated node
      if: api_version >= 2
    - id: num_listeners_compact
      type: biased_uvarint(32)
      doc: Number of elements of `listeners`.
      -lc-count-of: listeners
      if: api_version >= 2
    - id: listeners
      doc: The listeners of this controller
      type: listener(api_version)
      repeat: expr
      repeat-expr: num_listeners_compact.value
      if: api_version >= 2
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
  listener:
    doc: Listener.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 2
    - id: name
      doc: The name of the endpoint
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 2
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 2
    - id: host
      doc: The hostname
      size: len_host_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 2
    - id: port
      type: u2
      doc: The port
      if: api_version >= 2
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

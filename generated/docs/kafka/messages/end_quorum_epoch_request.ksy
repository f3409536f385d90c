meta:
  id: end_quorum_epoch_request
  title: EndQuorumEpochRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: EndQuorumEpochRequest (request), versions 0-1; flexible in 1+.
doc-ref: EndQuorumEpochRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_cluster_id
  type: s2
  doc: Length in bytes of `cluster_id`, or -1 for null.
  -lc-size-of: cluster_id
  -lc-absent: -1
  valid:
    min: -1
  if: api_version <= 0
- id: len_cluster_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `cluster_id`, or -1 for null.
  -lc-size-of: cluster_id
  -lc-absent: -1
  if: api_version >= 1
- id: cluster_id
  doc: ClusterId.
  size: '(api_version >= 1 ? len_cluster_id_compact.value : len_cluster_id)'
  type: str
  encoding: UTF-8
  if: '(api_version >= 1 ? len_cluster_id_compact.value : len_cluster_id) >= 0'
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 0
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 1
- id: topics
  doc: Topics.
  type: topic_data(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 1 ? num_topics_compact.value : num_topics)'
- id: num_leader_endpoints_compact
  type: biased_uvarint(32)
  doc: Number of elements of `leader_endpoints`.
  -lc-count-of: leader_endpoints
  if: api_version >= 1
- id: leader_endpoints
  doc: Endpoints for the leader
  type: leader_endpoint(api_version)
  repeat: expr
  repeat-expr: num_leader_endpoints_compact.value
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
types:
  topic_data:
    doc: TopicData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 0
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 1
    - id: topic_name
      doc: The topic name.
      size: '(api_version >= 1 ? len_topic_name_compact.value : len_topic_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 0
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 1
    - id: partitions
      doc: Partitions.
      type: partition_data(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 1 ? num_partitions_compact.value : num_partitions)'
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
    - id: leader_id
      type: s4
      doc: The current leader ID that is resigning
    - id: leader_epoch
      type: s4
      doc: The current epoch
    - id: num_preferred_successors
      type: s4
      doc: Number of elements of `preferred_successors`.
      -lc-count-of: preferred_successors
      if: api_version <= 0
    - id: preferred_successors
      doc: A sorted list of preferred successors to start the election
      type: s4
      repeat: expr
      repeat-expr: num_preferred_successors
      if: api_version <= 0
    - id: num_preferred_candidates_compact
      type: biased_uvarint(32)
      doc: Number of elements of `preferred_candidates`.
      -lc-count-of: preferred_candidates
      if: api_version >= 1
    - id: preferred_candidates
      doc: A sorted list of preferred candidates to start the election
      type: replica_info(api_version)
      repeat: expr
      repeat-expr: num_preferred_candidates_compact.value
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
  replica_info:
    doc: ReplicaInfo.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: candidate_id
      type: s4
      doc: CandidateId.
      if: api_version >= 1
    - id: candidate_directory_id
      size: 16
      doc: CandidateDirectoryId.
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
  leader_endpoint:
    doc: LeaderEndpoint.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 1
    - id: name
      doc: The name of the endpoint
      size: len_name_compact.value
      type: str
      encoding: UTF-8
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

meta:
  id: metadata_response
  title: MetadataResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: MetadataResponse (response), versions 0-12; flexible in 9+.
doc-ref: MetadataResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 3
- id: num_brokers
  type: s4
  doc: Number of elements of `brokers`.
  -lc-count-of: brokers
  if: api_version <= 8
- id: num_brokers_compact
  type: biased_uvarint(32)
  doc: Number of elements of `brokers`.
  -lc-count-of: brokers
  if: api_version >= 9
- id: brokers
  doc: A list of brokers present in the cluster.
  type: metadata_response_broker(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 9 ? num_brokers_compact.value : num_brokers)'
- id: len_cluster_id
  type: s2
  doc: Length in bytes of `cluster_id`, or -1 for null.
  -lc-size-of: cluster_id
  -lc-absent: -1
  valid:
    min: -1
  if: api_version >= 2 and api_version <= 8
- id: len_cluster_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `cluster_id`, or -1 for null.
  -lc-size-of: cluster_id
  -lc-absent: -1
  if: api_version >= 9
- id: cluster_id
  doc: The cluster ID that responding broker belongs to.
  size: '(api_version >= 9 ? len_cluster_id_compact.value : len_cluster_id)'
  type: str
  encoding: UTF-8
  if: 'api_version >= 2 and (api_version >= 9 ? len_cluster_id_compact.value : len_cluster_id) >= 0'
- id: controller_id
  type: s4
  doc: The ID of the controller broker.
  if: api_version >= 1
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version <= 8
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 9
- id: topics
  doc: Each topic in the response.
  type: metadata_response_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 9 ? num_topics_compact.value : num_topics)'
- id: cluster_authorized_operations
  type: s4
  doc: 32-bit bitfield to represent authorized operations for this cluster.
  if: api_version >= 8 and api_version <= 10
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
types:
  metadata_response_broker:
    doc: MetadataResponseBroker.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: node_id
      type: s4
      doc: The broker ID.
    - id: len_host
      type: s2
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version <= 8
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 9
    - id: host
      doc: The broker hostname.
      size: '(api_version >= 9 ? len_host_compact.value : len_host)'
      type: str
      encoding: UTF-8
    - id: port
      type: s4
      doc: The broker port.
    - id: len_rack
      type: s2
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 1 and api_version <= 8
    - id: len_rack_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
      if: api_version >= 9
    - id: rack
      doc: The rack of the broker, or null if it has not been assigned to a rack.
      size: '(api_version >= 9 ? len_rack_compact.value : len_rack)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 1 and (api_version >= 9 ? len_rack_compact.value : len_rack) >= 0'
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
  metadata_response_topic:
    doc: MetadataResponseTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The topic error, or 0 if there was no error.
    - id: len_name
      type: s2
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      valid:
        expr: _ >= 0 or (_ == -1 and (api_version >= 12))
      if: api_version <= 8
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      valid:
        expr: _.value >= 0 or (_.value == -1 and (api_version >= 12))
      if: api_version >= 9
    - id: name
      doc: The topic name. Null for non-existing topics queried by ID. This is never null when ErrorCode
        is zero. One of Name and TopicId is always populated.
      size: '(api_version >= 9 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 9 ? len_name_compact.value : len_name) >= 0'
    - id: topic_id
      size: 16
      doc: The topic id. Zero for non-existing topics queried by name. This is never zero when ErrorCode
        is zero. One of Name and TopicId is always populated.
      if: api_version >= 10
    - id: is_internal
      type: u1
      doc: True if the topic is internal.
      if: api_version >= 1
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 8
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 9
    - id: partitions
      doc: Each partition in the topic.
      type: metadata_response_partition(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_partitions_compact.value : num_partitions)'
    - id: topic_authorized_operations
      type: s4
      doc: 32-bit bitfield to represent authorized operations for this topic.
      if: api_version >= 8
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
  metadata_response_partition:
    doc: MetadataResponsePartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The partition error, or 0 if there was no error.
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: leader_id
      type: s4
      doc: The ID of the leader broker.
    - id: leader_epoch
      type: s4
      doc: The leader epoch of this partition.
      if: api_version >= 7
    - id: num_replica_nodes
      type: s4
      doc: Number of elements of `replica_nodes`.
      -lc-count-of: replica_nodes
      if: api_version <= 8
    - id: num_replica_nodes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `replica_nodes`.
      -lc-count-of: replica_nodes
      if: api_version >= 9
    - id: replica_nodes
      doc: The set of all nodes that host this partition.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_replica_nodes_compact.value : num_replica_nodes)'
    - id: num_isr_nodes
      type: s4
      doc: Number of elements of `isr_nodes`.
      -lc-count-of: isr_nodes
      if: api_version <= 8
    - id: num_isr_nodes_compact
      type: biased_uvarint(32)
      doc: Number of elements of `isr_nodes`.
      -lc-count-of: isr_nodes
      if: api_version >= 9
    - id: isr_nodes
      doc: The set of nodes that are in sync with the leader for this partition.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_isr_nodes_compact.value : num_isr_nodes)'
    - id: num_offline_replicas
      type: s4
      doc: Number of elements of `offline_replicas`.
      -lc-count-of: offline_replicas
      if: api_version >= 5 and api_version <= 8
    - id: num_offline_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `offline_replicas`.
      -lc-count-of: offline_replicas
      if: api_version >= 9
    - id: offline_replicas
      doc: The set of offline replicas of this partition.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_offline_replicas_compact.value : num_offline_replicas)'
      if: api_version >= 5
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

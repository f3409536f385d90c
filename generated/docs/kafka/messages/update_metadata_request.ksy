meta:
  id: update_metadata_request
  title: UpdateMetadataRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UpdateMetadataRequest (request), versions 0-8; flexible in 6+.
doc-ref: UpdateMetadataRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: controller_id
  type: s4
  doc: The controller id.
- id: is_k_raft_controller
  type: u1
  doc: If KRaft controller id is used during migration. See KIP-866
  if: api_version >= 8
- id: controller_epoch
  type: s4
  doc: The controller epoch.
- id: broker_epoch
  type: s8
  doc: The broker epoch.
  if: api_version >= 5
- id: num_ungrouped_partition_states
  type: s4
  doc: Number of elements of `ungrouped_partition_states`.
  -lc-count-of: ungrouped_partition_states
  if: api_version <= 4
- id: ungrouped_partition_states
  doc: In older versions of this RPC, each partition that we would like to update.
  type: update_metadata_partition_state(api_version)
  repeat: expr
  repeat-expr: num_ungrouped_partition_states
  if: api_version <= 4
- id: num_topic_states
  type: s4
  doc: Number of elements of `topic_states`.
  -lc-count-of: topic_states
  if: api_version >= 5 and api_version <= 5
- id: num_topic_states_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topic_states`.
  -lc-count-of: topic_states
  if: api_version >= 6
- id: topic_states
  doc: In newer versions of this RPC, each topic that we would like to update.
  type: update_metadata_topic_state(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 ? num_topic_states_compact.value : num_topic_states)'
  if: api_version >= 5
- id: num_live_brokers
  type: s4
  doc: Number of elements of `live_brokers`.
  -lc-count-of: live_brokers
  if: api_version <= 5
- id: num_live_brokers_compact
  type: biased_uvarint(32)
  doc: Number of elements of `live_brokers`.
  -lc-count-of: live_brokers
  if: api_version >= 6
- id: live_brokers
  doc: LiveBrokers.
  type: update_metadata_broker(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 6 ? num_live_brokers_compact.value : num_live_brokers)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 6
- id: tagged_fields
  type: update_metadata_request_tagged_field(api_version)
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  -lc-keyed:
    key: tag
    value: data
    fields:
      type:
        key: 0
        default: 0
  if: api_version >= 6
types:
  update_metadata_partition_state:
    doc: UpdateMetadataPartitionState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version <= 4
    - id: topic_name
      doc: In older versions of this RPC, the topic name.
      size: len_topic_name
      type: str
      encoding: UTF-8
      if: api_version <= 4
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: controller_epoch
      type: s4
      doc: The controller epoch.
    - id: leader
      type: s4
      doc: The ID of the broker which is the current partition leader.
    - id: leader_epoch
      type: s4
      doc: The leader epoch of this partition.
    - id: num_isr
      type: s4
      doc: Number of elements of `isr`.
      -lc-count-of: isr
      if: api_version <= 5
    - id: num_isr_compact
      type: biased_uvarint(32)
      doc: Number of elements of `isr`.
      -lc-count-of: isr
      if: api_version >= 6
    - id: isr
      doc: The brokers which are in the ISR for this partition.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 6 ? num_isr_compact.value : num_isr)'
    - id: zk_version
      type: s4
      doc: The Zookeeper version.
    - id: num_replicas
      type: s4
      doc: Number of elements of `replicas`.
      -lc-count-of: replicas
      if: api_version <= 5
    - id: num_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `replicas`.
      -lc-count-of: replicas
      if: api_version >= 6
    - id: replicas
      doc: All the replicas of this partition.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 6 ? num_replicas_compact.value : num_replicas)'
    - id: num_offline_replicas
      type: s4
      doc: Number of elements of `offline_replicas`.
      -lc-count-of: offline_replicas
      if: api_version >= 4 and api_version <= 5
    - id: num_offline_replicas_compact
      type: biased_uvarint(32)
      doc: Number of elements of `offline_replicas`.
      -lc-count-of: offline_replicas
      if: api_version >= 6
    - id: offline_replicas
      doc: The replicas of this partition which are offline.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 6 ? num_offline_replicas_compact.value : num_offline_replicas)'
      if: api_version >= 4
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6
  update_metadata_topic_state:
    doc: UpdateMetadataTopicState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic_name
      type: s2
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 5 and api_version <= 5
    - id: len_topic_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic_name`.
      -lc-size-of: topic_name
      if: api_version >= 6
    - id: topic_name
      doc: The topic name.
      size: '(api_version >= 6 ? len_topic_name_compact.value : len_topic_name)'
      type: str
      encoding: UTF-8
      if: api_version >= 5
    - id: topic_id
      size: 16
      doc: The topic id.
      if: api_version >= 7
    - id: num_partition_states
      type: s4
      doc: Number of elements of `partition_states`.
      -lc-count-of: partition_states
      if: api_version >= 5 and api_version <= 5
    - id: num_partition_states_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_states`.
      -lc-count-of: partition_states
      if: api_version >= 6
    - id: partition_states
      doc: The partition that we would like to update.
      type: update_metadata_partition_state(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 6 ? num_partition_states_compact.value : num_partition_states)'
      if: api_version >= 5
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6
  update_metadata_broker:
    doc: UpdateMetadataBroker.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: id
      type: s4
      doc: The broker id.
    - id: len_v0_host
      type: s2
      doc: Length in bytes of `v0_host`.
      -lc-size-of: v0_host
      if: api_version <= 0
    - id: v0_host
      doc: The broker hostname.
      size: len_v0_host
      type: str
      encoding: UTF-8
      if: api_version <= 0
    - id: v0_port
      type: s4
      doc: The broker port.
      if: api_version <= 0
    - id: num_endpoints
      type: s4
      doc: Number of elements of `endpoints`.
      -lc-count-of: endpoints
      if: api_version >= 1 and api_version <= 5
    - id: num_endpoints_compact
      type: biased_uvarint(32)
      doc: Number of elements of `endpoints`.
      -lc-count-of: endpoints
      if: api_version >= 6
    - id: endpoints
      doc: The broker endpoints.
      type: update_metadata_endpoint(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 6 ? num_endpoints_compact.value : num_endpoints)'
      if: api_version >= 1
    - id: len_rack
      type: s2
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
      valid:
        min: -1
      if: api_version >= 2 and api_version <= 5
    - id: len_rack_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
      if: api_version >= 6
    - id: rack
      doc: The rack which this broker belongs to.
      size: '(api_version >= 6 ? len_rack_compact.value : len_rack)'
      type: str
      encoding: UTF-8
      if: 'api_version >= 2 and (api_version >= 6 ? len_rack_compact.value : len_rack) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6
  update_metadata_endpoint:
    doc: UpdateMetadataEndpoint.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: port
      type: s4
      doc: The port of this endpoint
      if: api_version >= 1
    - id: len_host
      type: s2
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 1 and api_version <= 5
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 6
    - id: host
      doc: The hostname of this endpoint
      size: '(api_version >= 6 ? len_host_compact.value : len_host)'
      type: str
      encoding: UTF-8
      if: api_version >= 1
    - id: len_listener
      type: s2
      doc: Length in bytes of `listener`.
      -lc-size-of: listener
      if: api_version >= 3 and api_version <= 5
    - id: len_listener_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `listener`.
      -lc-size-of: listener
      if: api_version >= 6
    - id: listener
      doc: The listener name.
      size: '(api_version >= 6 ? len_listener_compact.value : len_listener)'
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: security_protocol
      type: s2
      doc: The security protocol type.
      if: api_version >= 1
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6
  type_tag:
    doc: The tagged field `type` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: type
      type: s1
      doc: Indicates if this request is a Full metadata snapshot (2), Incremental (1), or Unknown (0).
        Using during ZK migration, see KIP-866
      if: api_version >= 8
  update_metadata_request_tagged_field:
    doc: 'One tagged field of update_metadata_request: its tag, its size and its bytes, read as the field
      of a tag it knows (0: `type`).'
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
          0: type_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

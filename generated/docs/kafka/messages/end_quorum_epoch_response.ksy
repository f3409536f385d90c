meta:
  id: end_quorum_epoch_response
  title: EndQuorumEpochResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: EndQuorumEpochResponse (response), versions 0-1; flexible in 1+.
doc-ref: EndQuorumEpochResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top level error code.
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
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 1
- id: tagged_fields
  type: end_quorum_epoch_response_tagged_field(api_version)
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
    - id: error_code
      type: s2
      doc: ErrorCode.
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
      if: api_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 1
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
      doc: Endpoints for all leaders enumerated in PartitionData
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
  end_quorum_epoch_response_tagged_field:
    doc: 'One tagged field of end_quorum_epoch_response: its tag, its size and its bytes, read as the
      field of a tag it knows (0: `node_endpoints`).'
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

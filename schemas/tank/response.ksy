meta:
  id: response
  title: TANK response frame
  application: TANK 4.0 broker and client
  license: CC0-1.0
  ks-version: "0.11"
  endian: le
doc: |
  A frame from the TANK broker to a client: the message id of the request it answers, the
  payload length and the payload, little-endian. The broker also sends a Ping (id 3, no
  payload) on every new connection.
doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_protocol.md
seq:
  - id: msg_id
    type: u1
    enum: msg_id
    doc: Which message this is; a response reuses its request's id.
  - id: len_payload
    type: u4
    doc: Length of the payload.
    -lc-size-of: payload
  - id: payload
    size: len_payload
    type:
      switch-on: msg_id
      cases:
        msg_id::status: status_response
        msg_id::discover_topics: discover_topics_response
        msg_id::discover_topology: discover_topology_response
        msg_id::create_topic: create_topic_response
        msg_id::reload_conf: reload_conf_response
        msg_id::discover_partitions: discover_partitions_response
    doc: |
      The message. Produce, ProduceWithSeqnum, Consume, ConsumePeer, Ping and RegReplica
      payloads are kept as bytes in this version of the schema.
types:
  status_response:
    doc: The broker's counters (answer to Status).
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: flags
        type: u1
        doc: Status flags.
      - id: is_cluster_aware
        type: u1
        doc: 1 when the broker runs in cluster mode.
      - id: num_topics
        type: u4
        doc: Number of topics.
      - id: num_partitions
        type: u4
        doc: Number of partitions.
      - id: cluster
        type: cluster_info
        if: is_cluster_aware != 0
        doc: The cluster's name and size (cluster mode).
      - id: num_open_partitions
        type: u4
        doc: Partitions with open files.
      - id: open_time
        type: u4
        doc: Time spent opening partitions.
      - id: startup_secs
        type: u4
        doc: The broker's start time, seconds since the epoch.
      - id: version
        type: u4
        doc: The broker's version times 100 (400 for 4.0).
  cluster_info:
    doc: Cluster fields of a Status response.
    seq:
      - id: reserved
        type: u1
        doc: A byte before the name.
      - id: len_name
        type: u1
        doc: Length of the cluster name.
        -lc-size-of: name
      - id: name
        type: str
        size: len_name
        encoding: UTF-8
        doc: The cluster name (str8).
      - id: num_nodes
        type: u4
        doc: Number of nodes.
  discover_topics_response:
    doc: Every topic (answer to DiscoverTopics).
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: num_topics
        type: u4
        doc: Number of topics.
        -lc-count-of: topics
      - id: is_cluster_aware
        type: u1
        doc: 1 when the broker runs in cluster mode.
      - id: topics
        type: topic_info(is_cluster_aware != 0)
        repeat: expr
        repeat-expr: num_topics
        doc: The topics.
  topic_info:
    doc: One topic of a DiscoverTopics response.
    params:
      - id: is_cluster_aware
        type: bool
        doc: Whether the broker runs in cluster mode.
    seq:
      - id: len_name
        type: u1
        doc: Length of the topic name.
        -lc-size-of: name
      - id: name
        type: str
        size: len_name
        encoding: UTF-8
        doc: The topic name (str8).
      - id: is_enabled
        type: u1
        doc: 1 when the topic is enabled.
      - id: num_partitions
        type: u2
        doc: Number of partitions.
      - id: replication_factor
        type: u1
        if: is_cluster_aware
        doc: Replication factor (cluster mode).
  discover_topology_response:
    doc: The cluster's nodes (answer to DiscoverTopology).
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: marker
        type: u2
        doc: 0xffff from a standalone broker.
      - id: cluster
        size-eos: true
        doc: The cluster name and node list of a clustered broker (not in the captures; kept as bytes).
  create_topic_response:
    doc: The outcome of CreateTopic.
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: len_topic
        type: u1
        doc: Length of the topic name.
        -lc-size-of: topic
      - id: topic
        type: str
        size: len_topic
        encoding: UTF-8
        doc: The topic name (str8).
      - id: error
        type: u1
        enum: create_topic_error
        doc: The outcome.
  reload_conf_response:
    doc: The outcome of ReloadConf.
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: len_topic
        type: u1
        doc: Length of the topic name.
        -lc-size-of: topic
      - id: topic
        type: str
        size: len_topic
        encoding: UTF-8
        doc: The topic name (str8).
      - id: partition
        type: u2
        doc: The partition.
      - id: error
        type: u1
        enum: reload_conf_error
        doc: The outcome.
  discover_partitions_response:
    doc: The partitions of a topic (answer to DiscoverPartitions).
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: len_topic
        type: u1
        doc: Length of the topic name.
        -lc-size-of: topic
      - id: topic
        type: str
        size: len_topic
        encoding: UTF-8
        doc: The topic name (str8).
      - id: num_partitions
        type: u2
        doc: Number of partitions; 0 for an unknown topic.
        -lc-count-of: partitions
      - id: partitions
        type: partition_info
        repeat: expr
        repeat-expr: num_partitions
        doc: The partitions in order.
  partition_info:
    doc: One partition of a DiscoverPartitions response.
    seq:
      - id: first_available_seq_num
        type: u8
        doc: Sequence number of the first available message.
      - id: high_watermark
        type: u8
        doc: Sequence number of the last message.
      - id: error
        type: u1
        if: first_available_seq_num == 0xffffffffffffffff and high_watermark == 0xffffffffffffffff
        doc: An error, when both numbers are all ones.
      - id: leader_address
        type: u4
        if: first_available_seq_num == 0xffffffffffffffff and high_watermark == 0xffffffffffffffff and error == 0xfc
        doc: IPv4 address of the partition's leader (error 0xfc, other leader).
      - id: leader_port
        type: u2
        if: first_available_seq_num == 0xffffffffffffffff and high_watermark == 0xffffffffffffffff and error == 0xfc
        doc: Port of the partition's leader (error 0xfc).
enums:
  msg_id:
    1: produce
    2: consume
    3: ping
    4: reg_replica
    5: produce_with_seqnum
    6: discover_partitions
    7: create_topic
    8: reload_conf
    9: consume_peer
    10: status
    11: discover_topics
    12: discover_topology
  create_topic_error:
    0: ok
    1: already_exists
    2: system_fault
    4: invalid_config
    5: read_only
    10: invalid_request
  reload_conf_error:
    0: ok
    2: system_fault
    3: parse_error
    10: unknown_partition
    11: unknown_topic
    12: cluster_mode

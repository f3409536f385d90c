meta:
  id: request
  title: TANK request frame
  application: TANK 4.0 broker and client
  license: CC0-1.0
  ks-version: "0.11"
  endian: le
  imports:
    - ../common/uvarint
doc: |
  A frame from a TANK client to the broker: the message id, the payload length and the
  payload, little-endian. Every message here starts with a u32 request id that the
  response echoes.
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
        msg_id::status: status_request
        msg_id::discover_topics: discover_topics_request
        msg_id::discover_topology: discover_topology_request
        msg_id::create_topic: create_topic_request
        msg_id::reload_conf: reload_conf_request
        msg_id::discover_partitions: discover_partitions_request
    doc: |
      The message. Produce, ProduceWithSeqnum, Consume, ConsumePeer, Ping and RegReplica
      payloads are kept as bytes in this version of the schema.
types:
  status_request:
    doc: Status (10) asks for the broker's counters.
    seq:
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
  discover_topics_request:
    doc: DiscoverTopics (11) asks for every topic.
    seq:
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
      - id: flags
        type: u1
        doc: Request flags; 0 in the captures.
  discover_topology_request:
    doc: DiscoverTopology (12) asks for the cluster's nodes.
    seq:
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
      - id: flags
        type: u1
        doc: Request flags; 0 in the captures.
  create_topic_request:
    doc: CreateTopic (7) creates a topic with a number of partitions and a configuration text.
    seq:
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
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
        doc: Number of partitions to create.
      - id: len_config
        type: uvarint(32)
        doc: Length of the configuration text.
        -lc-size-of: config
      - id: config
        type: str
        size: len_config.value
        encoding: UTF-8
        doc: The topic's configuration, `key=value` lines.
  reload_conf_request:
    doc: ReloadConf (8) reloads a partition's configuration file.
    seq:
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
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
  discover_partitions_request:
    doc: DiscoverPartitions (6) asks for the first available sequence number and high-water mark of a topic's partitions.
    seq:
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
      - id: len_topic
        type: u1
        doc: Length of the topic name.
        -lc-size-of: topic
      - id: topic
        type: str
        size: len_topic
        encoding: UTF-8
        doc: The topic name (str8).
      - id: partition_list
        size-eos: true
        doc: The optional list of u16 partitions (empty in every capture; its layout is not documented).
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

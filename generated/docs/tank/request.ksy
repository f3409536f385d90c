meta:
  id: request
  title: TANK request frame
  application: TANK 4.0 broker and client
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
  bit-endian: le
  imports:
    - ../common/uvarint
    - bundle
doc: |
  A frame from a TANK client to the broker: the message id, the payload length and the
  payload, little-endian. Most messages carry a u32 request id that the response echoes;
  ConsumePeer and RegReplica, which come from other brokers, do not.
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
        msg_id::produce: produce_request(false)
        msg_id::produce_with_seqnum: produce_request(true)
        msg_id::consume: consume_request
        msg_id::consume_peer: consume_peer_request
        msg_id::reg_replica: reg_replica_request
    doc: |
      The message. Ping comes only from the broker and has no payload; a message id
      the broker does not know keeps its payload as bytes.
types:
  produce_request:
    doc: |
      Produce (1) appends a bundle to each of a set of partitions. ProduceWithSeqnum (5),
      used by tools and between brokers, adds the first message's sequence number before
      each bundle. The response lists one status per partition, in this order, without
      naming them.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_protocol.md
    params:
      - id: with_seqnum
        type: bool
        doc: Whether this is ProduceWithSeqnum (5), whose bundles come with their first sequence number.
    seq:
      - id: client_version
        type: u2
        doc: The client's protocol version; the C++ client sends 2.
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
      - id: len_client_id
        type: u1
        doc: Length of the client id.
        -lc-size-of: client_id
      - id: client_id
        type: str
        size: len_client_id
        encoding: UTF-8
        doc: A name for debugging and tracing (str8); "c++" from the C++ client.
      - id: required_acks
        type: u1
        doc: Acknowledgements required in cluster mode; ignored by a standalone broker.
      - id: ack_timeout_ms
        type: u4
        doc: How long to wait for acknowledgements in cluster mode, in milliseconds.
      - id: num_topics
        type: u1
        doc: Number of topics.
        -lc-count-of: topics
      - id: topics
        type: produce_topic(with_seqnum)
        repeat: expr
        repeat-expr: num_topics
        doc: The topics to append to.
  produce_topic:
    doc: One topic of a Produce request.
    params:
      - id: with_seqnum
        type: bool
        doc: Whether the bundles come with their first sequence number (ProduceWithSeqnum).
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
      - id: num_partitions
        type: u1
        doc: Number of partitions.
        -lc-count-of: partitions
      - id: partitions
        type: produce_partition(with_seqnum)
        repeat: expr
        repeat-expr: num_partitions
        doc: The partitions to append to, each with its bundle.
  produce_partition:
    doc: One partition of a Produce request and the bundle to append to it.
    params:
      - id: with_seqnum
        type: bool
        doc: Whether the bundle comes with its first sequence number (ProduceWithSeqnum).
    seq:
      - id: partition
        type: u2
        doc: The partition.
      - id: len_bundle
        type: uvarint(32)
        doc: Length of the bundle (the sequence number of ProduceWithSeqnum not included).
        -lc-size-of: bundle
      - id: base_seq_num
        type: u8
        if: with_seqnum
        doc: Sequence number of the bundle's first message (ProduceWithSeqnum only).
      - id: bundle
        size: len_bundle.value
        type: 'bundle(with_seqnum ? base_seq_num : 0)'
        doc: |
          The bundle. In a Produce request the broker assigns the sequence numbers, so the
          messages of a bundle that is not sparse are numbered from 0 here.
  consume_request:
    doc: |
      Consume (2), the seeds' Fetch: messages from each of a set of partitions, starting at
      a sequence number. The C++ client sends client version 2, or 3 with a flags byte when
      consume flags are set; the Java client sends 0.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_protocol.md
    seq:
      - id: client_version
        type: u2
        doc: The client's protocol version; 3 and above carry the flags byte.
      - id: request_id
        type: u4
        doc: Chosen by the client, echoed in the response.
      - id: len_client_id
        type: u1
        doc: Length of the client id.
        -lc-size-of: client_id
      - id: client_id
        type: str
        size: len_client_id
        encoding: UTF-8
        doc: A name for debugging and tracing (str8); empty from the C++ client.
      - id: max_wait_ms
        type: u8
        doc: |
          How long to wait for new messages at the end of a partition, in milliseconds;
          0 does not wait, other values are clamped to 320 ms - 1 h.
      - id: min_bytes
        type: u4
        doc: Answer a waiting request only once this many bytes were appended.
      - id: flags
        type: consume_flags
        if: client_version >= 3
        doc: Consume flags (client version 3 and above).
      - id: num_topics
        type: u1
        doc: Number of topics.
        -lc-count-of: topics
      - id: topics
        type: consume_topic
        repeat: expr
        repeat-expr: num_topics
        doc: The topics to read.
  consume_flags:
    doc: The flags byte of a Consume request (client version 3), least significant bit first.
    seq:
      - id: prefer_local_node
        type: b1
        doc: Bit 0, read from the local node of a cluster when it has the data.
      - id: reserved
        type: b7
        doc: Bits 1-7, unused.
  consume_topic:
    doc: One topic of a Consume request.
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
      - id: num_partitions
        type: u1
        doc: Number of partitions.
        -lc-count-of: partitions
      - id: partitions
        type: consume_partition
        repeat: expr
        repeat-expr: num_partitions
        doc: The partitions to read.
  consume_partition:
    doc: Where to read one partition, and how much.
    seq:
      - id: partition
        type: u2
        doc: The partition.
      - id: seq_num
        type: u8
        doc: |
          Sequence number of the first message wanted: 0 for the first available,
          0xffffffffffffffff for the next one to be appended (the high-water mark plus 1).
      - id: fetch_size
        type: u4
        doc: How many bytes of bundles to return at most (the broker may return more, whole bundles).
  consume_peer_request:
    doc: |
      ConsumePeer (9): Consume between brokers of a cluster. It has no request id and
      counts topics and partitions with u16.
    seq:
      - id: replica_id
        type: u2
        doc: The node id of the asking broker.
      - id: max_wait_ms
        type: u8
        doc: How long to wait for new messages, in milliseconds.
      - id: min_bytes
        type: u4
        doc: Answer a waiting request only once this many bytes were appended.
      - id: num_topics
        type: u2
        doc: Number of topics.
        -lc-count-of: topics
      - id: topics
        type: consume_peer_topic
        repeat: expr
        repeat-expr: num_topics
        doc: The topics to read.
  consume_peer_topic:
    doc: One topic of a ConsumePeer request.
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
      - id: num_partitions
        type: u2
        doc: Number of partitions.
        -lc-count-of: partitions
      - id: partitions
        type: consume_partition
        repeat: expr
        repeat-expr: num_partitions
        doc: The partitions to read.
  reg_replica_request:
    doc: RegReplica (4), obsolete; the broker closes the connection.
    seq:
      - id: replica_id
        type: u2
        doc: The node id of the broker that connects.
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

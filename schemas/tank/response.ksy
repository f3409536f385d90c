meta:
  id: response
  title: TANK response frame
  application: TANK 4.0 broker and client
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
  imports:
    - ../common/uvarint
    - bundle
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
        msg_id::produce: produce_response
        msg_id::produce_with_seqnum: produce_response
        msg_id::consume: consume_response
        msg_id::consume_peer: consume_peer_response
    doc: |
      The message. Ping has no payload; a message id the client does not know keeps its
      payload as bytes.
types:
  produce_response:
    doc: |
      The answer to Produce and ProduceWithSeqnum: one status per partition of the request,
      in its order, without naming them (pair them with the request: logcodec.tank.pair_produce).
      A topic-wide status (unknown topic, read-only) is written once for all the topic's
      partitions.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_protocol.md
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: statuses
        type: produce_status
        repeat: eos
        doc: The statuses, in the request's order of partitions.
  produce_status:
    doc: The outcome for one partition, or for all the partitions of a topic.
    seq:
      - id: error
        type: u1
        enum: produce_error
        doc: The outcome.
      - id: leader_address
        type: u4
        if: error == produce_error::other_leader
        doc: IPv4 address of the partition's leader (other leader).
      - id: leader_port
        type: u2
        if: error == produce_error::other_leader
        doc: Port of the partition's leader (other leader).
  consume_response:
    doc: |
      The answer to Consume: a header for every requested partition (status, high-water
      mark, chunk length), then the chunks of bundles in the same order. The last bundle of
      a chunk may be cut short by the fetch size: it is kept as `partial_bundle`.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_protocol.md
    seq:
      - id: len_header
        type: u4
        doc: Length of the header.
        -lc-size-of: header
      - id: header
        size: len_header
        type: consume_header
        doc: The request id and every partition's status.
      - id: chunks
        type: consume_topic_chunks(_index)
        repeat: expr
        repeat-expr: header.topics.size
        doc: The chunks of each topic of the header.
  consume_header:
    doc: The header of a Consume response.
    seq:
      - id: request_id
        type: u4
        doc: The request's id.
      - id: num_topics
        type: u1
        doc: Number of topics.
        -lc-count-of: topics
      - id: topics
        type: consume_topic_header
        repeat: expr
        repeat-expr: num_topics
        doc: The topics, as requested.
  consume_topic_header:
    doc: One topic of a Consume response's header.
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
        doc: Number of partitions requested.
        -lc-default: partitions.size
      - id: partitions
        type: consume_partition_header
        repeat: until
        repeat-until: _.partition == 0xffff or _index + 1 >= num_partitions
        if: num_partitions != 0
        doc: |
          The partitions. For an unknown topic a single entry with partition 0xffff stands
          for all of them.
  consume_partition_header:
    doc: The status of one partition in a Consume response, and the length of its chunk.
    seq:
      - id: partition
        type: u2
        doc: The partition; 0xffff marks an unknown topic, and nothing follows.
      - id: error_or_flags
        type: u1
        enum: consume_status
        if: partition != 0xffff
        doc: 0 when all is well, else an error or a flag.
      - id: leader_address
        type: u4
        if: partition != 0xffff and error_or_flags == consume_status::other_leader
        doc: IPv4 address of the partition's leader (other leader; not seen in the captures).
      - id: leader_port
        type: u2
        if: partition != 0xffff and error_or_flags == consume_status::other_leader
        doc: Port of the partition's leader (other leader; not seen in the captures).
      - id: base_seq_num
        type: u8
        if: has_chunk and error_or_flags != consume_status::first_bundle_sparse
        doc: |
          Sequence number of the first message of the chunk's first bundle. Left out when
          that bundle is sparse (it carries its own). In a boundary-check answer and in a
          timed-out long poll it is 0; at the high-water mark plus 1 with no wait it is the
          first available sequence number.
      - id: high_watermark
        type: u8
        if: has_chunk
        doc: Sequence number of the partition's last committed message.
      - id: len_chunk
        type: u4
        if: has_chunk
        doc: Length of this partition's chunk, among the chunks after the header.
        -lc-derived: true
      - id: first_available_seq_num
        type: u8
        if: has_chunk and error_or_flags == consume_status::boundary_check
        doc: The first available sequence number, when the requested one was out of range.
    instances:
      has_chunk:
        value: 'partition != 0xffff and error_or_flags != consume_status::unknown_partition and error_or_flags != consume_status::system_fault and error_or_flags != consume_status::other_leader and error_or_flags != consume_status::no_leader'
        doc: Whether the partition has a high-water mark and a chunk (no error ends it).
  consume_topic_chunks:
    doc: The chunks of one topic of a Consume response.
    params:
      - id: topic_idx
        type: s4
        doc: Position of the topic in the header.
    seq:
      - id: partitions
        type: 'chunk(_parent.header.topics[topic_idx].partitions[_index].partition != 0xffff and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::unknown_partition and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::system_fault and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::other_leader and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::no_leader and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::first_bundle_sparse ? _parent.header.topics[topic_idx].partitions[_index].base_seq_num : 0)'
        size: '_parent.header.topics[topic_idx].partitions[_index].partition != 0xffff and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::unknown_partition and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::system_fault and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::other_leader and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::no_leader ? _parent.header.topics[topic_idx].partitions[_index].len_chunk : 0'
        repeat: expr
        repeat-expr: '_parent.header.topics[topic_idx].num_partitions == 0 ? 0 : _parent.header.topics[topic_idx].partitions.size'
        doc: One chunk per partition of the topic header, in the same order; empty when the partition has none.
  chunk:
    doc: |
      A partition's chunk: bundles, each after its varint length. The last may be cut short
      by the fetch size; that is not an error.
    params:
      - id: first_base_seq_num
        type: u8
        doc: Sequence number of the first message of the first bundle, from the header.
    seq:
      - id: bundles
        type: chunk_bundle(_index, first_base_seq_num)
        repeat: eos
        doc: The whole bundles.
        -lc-partial-tail: true
      - id: partial_bundle
        size-eos: true
        doc: The bytes of a last bundle cut short (its length included); empty when the last bundle is whole.
  chunk_bundle:
    doc: One bundle of a chunk, with its length.
    params:
      - id: idx
        type: s4
        doc: Position in the chunk.
      - id: chunk_base
        type: u8
        doc: Sequence number of the chunk's first message.
    seq:
      - id: len_bundle
        type: uvarint(32)
        doc: Length of the bundle.
        -lc-size-of: bundle
      - id: bundle
        size: len_bundle.value
        type: 'bundle(idx == 0 ? chunk_base : (_parent.bundles[idx - 1].bundle.messages.items.last.seq_num + 1).as<u8>)'
        doc: The bundle; a bundle that is not sparse starts right after the previous one's last message.
  consume_peer_response:
    doc: |
      The answer to ConsumePeer: laid out as a Consume response, without a request id and
      with u16 counts (not seen in the captures).
    seq:
      - id: len_header
        type: u4
        doc: Length of the header.
        -lc-size-of: header
      - id: header
        size: len_header
        type: consume_peer_header
        doc: Every partition's status.
      - id: chunks
        type: consume_peer_topic_chunks(_index)
        repeat: expr
        repeat-expr: header.topics.size
        doc: The chunks of each topic of the header.
  consume_peer_header:
    doc: The header of a ConsumePeer response.
    seq:
      - id: num_topics
        type: u2
        doc: Number of topics.
        -lc-count-of: topics
      - id: topics
        type: consume_peer_topic_header
        repeat: expr
        repeat-expr: num_topics
        doc: The topics, as requested.
  consume_peer_topic_header:
    doc: One topic of a ConsumePeer response's header.
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
        doc: Number of partitions requested.
        -lc-default: partitions.size
      - id: partitions
        type: consume_partition_header
        repeat: until
        repeat-until: _.partition == 0xffff or _index + 1 >= num_partitions
        if: num_partitions != 0
        doc: The partitions; a single entry with partition 0xffff for an unknown topic.
  consume_peer_topic_chunks:
    doc: The chunks of one topic of a ConsumePeer response.
    params:
      - id: topic_idx
        type: s4
        doc: Position of the topic in the header.
    seq:
      - id: partitions
        type: 'chunk(_parent.header.topics[topic_idx].partitions[_index].partition != 0xffff and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::unknown_partition and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::system_fault and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::other_leader and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::no_leader and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::first_bundle_sparse ? _parent.header.topics[topic_idx].partitions[_index].base_seq_num : 0)'
        size: '_parent.header.topics[topic_idx].partitions[_index].partition != 0xffff and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::unknown_partition and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::system_fault and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::other_leader and _parent.header.topics[topic_idx].partitions[_index].error_or_flags != consume_status::no_leader ? _parent.header.topics[topic_idx].partitions[_index].len_chunk : 0'
        repeat: expr
        repeat-expr: '_parent.header.topics[topic_idx].num_partitions == 0 ? 0 : _parent.header.topics[topic_idx].partitions.size'
        doc: One chunk per partition of the topic header, in the same order; empty when the partition has none.
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
  produce_error:
    0: ok
    1: unknown_partition
    2: io_fault
    3: acks_not_obtained
    4: insufficient_replicas
    10: invalid_seq_nums
    0xfc: other_leader
    0xfd: no_leader
    0xfe: read_only
    0xff: unknown_topic
  consume_status:
    0: ok
    1: boundary_check
    0xfb: system_fault
    0xfc: other_leader
    0xfd: no_leader
    0xfe: first_bundle_sparse
    0xff: unknown_partition
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

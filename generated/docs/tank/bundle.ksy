meta:
  id: bundle
  title: TANK bundle
  application: TANK 4.0 broker and client
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
  bit-endian: le
  imports:
    - ../common/uvarint
doc: |
  The unit in which TANK stores and transfers messages: a flags byte, an
  optional message count and, for sparse bundles, the first and last sequence
  numbers, then the message set, compressed as a whole with raw Snappy when the
  codec says so. Bundles are always framed by their container (a varint length
  in segment files and Consume responses), so a bundle runs to the end of its
  bytes. Messages carry their timestamp only when it changes, and, in sparse
  bundles, a sequence number delta only when it is not 1.
doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
params:
  - id: base_seq_num
    type: u8
    doc: |
      Sequence number of the first message of a bundle that is not sparse (such
      a bundle does not carry it: it comes from the segment file's base and index,
      or from a Consume response). Sparse bundles carry their own.
    -lc-default: 0
seq:
  - id: codec
    type: b2
    enum: codec
    doc: Bits 0-1, the codec of the message set.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
  - id: num_messages_in_flags
    type: b4
    doc: Bits 2-5, the number of messages when it is 1 to 15; 0 when a varint count follows.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
    -lc-default: 'messages.items.size <= 15 ? messages.items.size : 0'
  - id: is_sparse
    type: b1
    doc: Bit 6, set when the bundle carries its messages' sequence numbers.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
  - id: has_extra_flags
    type: b1
    doc: |
      Bit 7, set when an extra flags byte follows. Documented by the seeds; no
      real encoder or decoder reads or writes it, so real data never has it.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
  - id: extra_flags
    type: u1
    if: has_extra_flags
    doc: Extra flags (seed only); bit 0 says rich producer information follows.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
  - id: producer
    type: producer_info
    if: has_extra_flags and (extra_flags & 1) != 0
    doc: Rich producer information (seed only).
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
  - id: num_messages_varint
    type: uvarint(32)
    if: num_messages_in_flags == 0
    doc: The number of messages, when it does not fit in the flags.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
    -lc-default: messages.items.size
  - id: first_seq_num
    type: u8
    if: is_sparse
    doc: Sequence number of the first message (sparse bundles).
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
    -lc-default: messages.items.first.seq_num
  - id: last_seq_num_delta
    type: uvarint(32)
    if: is_sparse and num_messages != 1
    doc: Last message's sequence number minus the first's, minus 1 (sparse bundles of several messages).
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
    -lc-default: messages.items.last.seq_num - messages.items.first.seq_num - 1
  - id: messages
    size-eos: true
    process: tank_compression(codec.to_i)
    type: 'message_set(num_messages, is_sparse, is_sparse ? first_seq_num : base_seq_num, is_sparse and num_messages != 1 ? last_seq_num_delta.value : 0)'
    doc: The messages, compressed as a whole with raw Snappy when the codec is snappy.
    doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
instances:
  num_messages:
    value: 'num_messages_in_flags != 0 ? num_messages_in_flags : num_messages_varint.value'
    doc: The number of messages.
types:
  producer_info:
    doc: Rich producer information of the extra flags (documented by the seeds only).
    seq:
      - id: partition_leader_epoch
        type: u4
        doc: Set by the broker on receipt.
      - id: producer_id
        type: u8
        doc: Producer id from InitProducerId.
      - id: producer_epoch
        type: u2
        doc: Producer epoch from InitProducerId.
  message_set:
    doc: The messages of a bundle, once decompressed.
    -lc-unwrap: true
    params:
      - id: num_messages
        type: u4
        doc: Number of messages, from the bundle header.
      - id: is_sparse
        type: bool
        doc: Whether the bundle is sparse.
      - id: first_seq_num
        type: u8
        doc: Sequence number of the first message.
      - id: last_seq_num_delta
        type: u4
        doc: Last minus first sequence number, minus 1 (sparse bundles).
    seq:
      - id: items
        type: message(_index, num_messages, is_sparse, first_seq_num, last_seq_num_delta)
        repeat: expr
        repeat-expr: num_messages
        doc: The messages in order.
  message:
    doc: |
      One message. Its timestamp is written only when it differs from the previous
      message's, and in sparse bundles its sequence number delta only for messages
      between the first and the last whose number is not the previous one plus 1.
    params:
      - id: idx
        type: s4
        doc: Position in the message set.
      - id: num_messages
        type: u4
        doc: Number of messages in the set.
      - id: is_sparse
        type: bool
        doc: Whether the bundle is sparse.
      - id: first_seq_num
        type: u8
        doc: Sequence number of the first message.
      - id: last_seq_num_delta
        type: u4
        doc: Last minus first sequence number, minus 1 (sparse bundles).
    seq:
      - id: has_key
        type: b1
        doc: Bit 0 (HaveKey), set when a key follows.
        -lc-present: key
      - id: use_last_ts
        type: b1
        doc: Bit 1 (UseLastSpecifiedTS), set when the timestamp is the previous message's and is not written.
        -lc-default: 'idx > 0 and _parent.items[idx - 1].timestamp == timestamp'
      - id: seq_num_prev_plus_one
        type: b1
        doc: Bit 2 (SeqNumPrevPlusOne), set in sparse bundles when the sequence number is the previous one plus 1.
        -lc-default: 'is_sparse and idx > 0 and idx < num_messages - 1 and seq_num == _parent.items[idx - 1].seq_num + 1'
      - id: reserved
        type: b5
        doc: Bits 3-7, unused.
      - id: seq_num_delta
        type: uvarint(32)
        if: is_sparse and not seq_num_prev_plus_one and idx > 0 and idx < num_messages - 1
        doc: Sequence number minus the previous one, minus 1 (sparse bundles, messages between the first and the last).
        -lc-default: seq_num - _parent.items[idx - 1].seq_num - 1
      - id: timestamp_written
        type: u8
        if: not use_last_ts
        doc: Creation time in milliseconds, when it is not the previous message's.
        -lc-default: timestamp
      - id: len_key
        type: u1
        if: has_key
        doc: Length of the key.
        -lc-size-of: key
      - id: key
        size: len_key
        if: has_key
        doc: The key (an empty key counts as no key for the C++ client).
      - id: len_content
        type: uvarint(32)
        doc: Length of the content.
        -lc-size-of: content
      - id: content
        size: len_content.value
        doc: The message's content.
    instances:
      timestamp:
        value: '(use_last_ts ? _parent.items[idx - 1].timestamp : timestamp_written).as<u8>'
        doc: The creation time in milliseconds, written or carried from the last message that had one.
        -lc-input: true
      seq_num:
        value: '(is_sparse ? (idx == 0 ? first_seq_num : (idx == num_messages - 1 ? first_seq_num + last_seq_num_delta + 1 : _parent.items[idx - 1].seq_num + 1 + (seq_num_prev_plus_one ? 0 : seq_num_delta.value))) : first_seq_num + idx).as<u8>'
        doc: The absolute sequence number.
        -lc-input: true
enums:
  codec:
    0: none
    1: snappy

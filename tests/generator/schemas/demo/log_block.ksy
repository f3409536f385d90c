meta:
  id: log_block
  title: A block of log entries after a header that sizes and counts them
  license: CC0-1.0
  ks-version: "0.11"
  endian: be
doc: |
  A test schema for `decode_iter` and `decode_columns` outside Kafka: a header with
  the block's id and its count of entries, then the entries to the end, as a list
  type of its own, each with a name and a list of tags.
seq:
  - id: block_id
    type: u4
    doc: Id of the block.
  - id: num_entries
    type: u2
    doc: Number of entries.
    -lc-count-of: entries.items
  - id: entries
    size-eos: true
    type: entry_list(num_entries)
    doc: The entries.
types:
  entry_list:
    doc: The entries of a block.
    -lc-unwrap: true
    params:
      - id: num_entries
        type: u2
        doc: How many there are.
    seq:
      - id: items
        type: entry
        repeat: expr
        repeat-expr: num_entries
        doc: One entry each.
  entry:
    doc: One entry.
    seq:
      - id: level
        type: u1
        doc: Severity.
      - id: len_name
        type: u1
        doc: Bytes of the name.
        -lc-size-of: name
      - id: name
        type: str
        size: len_name
        encoding: UTF-8
        doc: What happened.
      - id: num_tags
        type: u1
        doc: Number of tags.
        -lc-count-of: tags
      - id: tags
        type: tag
        repeat: expr
        repeat-expr: num_tags
        doc: The entry's tags.
  tag:
    doc: A key and a value.
    seq:
      - id: key
        type: u1
        doc: The tag's key.
      - id: value
        type: u2
        doc: The tag's value.

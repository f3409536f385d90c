meta:
  id: keyed
  title: Options as keyed entries, with named fields over them
  endian: be
doc: >-
  Not a real format; a test schema for `-lc-keyed`: a list of options, each a code, a size and
  a body read by the code, kept in the order written (unknown codes as bytes), and named fields
  over the codes it knows.
seq:
  - id: num_options
    type: u1
    doc: Number of options.
    -lc-count-of: options
  - id: options
    type: option
    repeat: expr
    repeat-expr: num_options
    doc: The options, in the order written.
    -lc-keyed:
      key: code
      value: body
      fields:
        timeout_ms: {key: 1, default: 30000}
        name: {key: 2, default: ""}
        point: {key: 4, default: {x: 0, y: -1}}
        flags: {key: 5, default: []}
        blob: {key: 6, default: [0, 0]}
        label: {key: 7, default: null}
types:
  option:
    doc: One option.
    seq:
      - id: code
        type: u1
        doc: What the option is.
      - id: len_body
        type: u1
        doc: Length of `body`.
        -lc-size-of: body
      - id: body
        size: len_body
        doc: The option's value, by its code (bytes for a code not known).
        type:
          switch-on: code
          cases:
            1: timeout_option
            2: name_option
            4: point_option
            5: flags_option
            6: blob_option
            7: label_option
  timeout_option:
    doc: A timeout.
    seq:
      - {id: timeout_ms, type: u4, doc: The timeout in milliseconds.}
  name_option:
    doc: A name.
    seq:
      - {id: name, type: str, size-eos: true, encoding: UTF-8, doc: The name.}
  point_option:
    doc: A point.
    seq:
      - {id: point, type: point, doc: The point.}
  point:
    doc: Two coordinates.
    seq:
      - {id: x, type: s2, doc: Across.}
      - {id: y, type: s2, doc: Down.}
  flags_option:
    doc: Flags.
    seq:
      - {id: flags, type: u1, repeat: eos, doc: One flag a byte.}
  blob_option:
    doc: Two bytes.
    seq:
      - {id: blob, size: 2, doc: The bytes.}
  label_option:
    doc: A label that may be absent.
    seq:
      - {id: has_label, type: u1, doc: 1 when the label follows., -lc-present: label, -lc-absent: 0}
      - {id: label, type: str, size-eos: true, encoding: UTF-8, if: has_label != 0, doc: The label.}

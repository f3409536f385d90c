meta:
  id: ops
  title: A toy stream of operations, as a user brings one
  endian: le
doc: |
  Operations one after the other until `stop`, each with an argument chosen by its code, as
  Python's pickle lays them out: an integer, a text, or nothing (an empty type). A plain Kaitai
  schema: its lengths are not derived on encode.
seq:
  - id: ops
    type: op
    repeat: until
    repeat-until: _.code == opcode::stop
    doc: The operations, the last one `stop`.
types:
  op:
    doc: One operation.
    seq:
      - id: code
        type: u1
        enum: opcode
        doc: What the operation does; it chooses the argument's type.
      - id: arg
        type:
          switch-on: code
          cases:
            'opcode::int1': u1
            'opcode::text': text
            'opcode::mark': no_arg
            'opcode::stop': no_arg
        doc: The operation's argument.
  text:
    doc: A text with its length before it.
    seq:
      - id: len_value
        type: u1
        doc: Bytes of the text.
      - id: value
        type: str
        size: len_value
        encoding: UTF-8
        doc: The text.
  no_arg:
    doc: The argument of an operation that takes none.
enums:
  opcode:
    0x28: mark
    0x2e: stop
    0x4b: int1
    0x55: text

meta:
  id: tagged_field
  title: Tagged field
  endian: be
  imports:
  - /common/uvarint
doc: 'One tagged field of a flexible version: its tag, its size and its bytes.'
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
  doc: The field's bytes, as its type writes them.

meta:
  id: find_coordinator_request
  title: FindCoordinatorRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: FindCoordinatorRequest (request), versions 0-6; flexible in 3+.
doc-ref: FindCoordinatorRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_key
  type: s2
  doc: Length in bytes of `key`.
  -lc-size-of: key
  if: api_version <= 2
- id: len_key_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `key`.
  -lc-size-of: key
  if: api_version >= 3 and api_version <= 3
- id: key
  doc: The coordinator key.
  size: '(api_version >= 3 and api_version <= 3 ? len_key_compact.value : len_key)'
  type: str
  encoding: UTF-8
  if: api_version <= 3
- id: key_type
  type: s1
  doc: The coordinator key type. (Group, transaction, etc.)
  if: api_version >= 1
- id: num_coordinator_keys_compact
  type: biased_uvarint(32)
  doc: Number of elements of `coordinator_keys`.
  -lc-count-of: coordinator_keys
  if: api_version >= 4
- id: coordinator_keys
  doc: The coordinator keys.
  type: string_element(api_version)
  repeat: expr
  repeat-expr: num_coordinator_keys_compact.value
  if: api_version >= 4
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 3
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 3
types:
  string_element:
    doc: One string of a list.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_value
      type: s2
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version <= 2
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version >= 3
    - id: value
      doc: The string.
      size: '(api_version >= 3 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8

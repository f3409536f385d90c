meta:
  id: describe_delegation_token_request
  title: DescribeDelegationTokenRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeDelegationTokenRequest (request), versions 0-3; flexible in 2+.
doc-ref: DescribeDelegationTokenRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_owners
  type: s4
  doc: Number of elements of `owners`, or -1 for null.
  -lc-count-of: owners
  -lc-absent: -1
  valid:
    min: -1
  if: api_version <= 1
- id: num_owners_compact
  type: biased_uvarint(32)
  doc: Number of elements of `owners`, or -1 for null.
  -lc-count-of: owners
  -lc-absent: -1
  if: api_version >= 2
- id: owners
  doc: Each owner that we want to describe delegation tokens for, or null to describe all tokens.
  type: describe_delegation_token_owner(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_owners_compact.value : num_owners)'
  if: '(api_version >= 2 ? num_owners_compact.value : num_owners) >= 0'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 2
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 2
types:
  describe_delegation_token_owner:
    doc: DescribeDelegationTokenOwner.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_principal_type
      type: s2
      doc: Length in bytes of `principal_type`.
      -lc-size-of: principal_type
      if: api_version <= 1
    - id: len_principal_type_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `principal_type`.
      -lc-size-of: principal_type
      if: api_version >= 2
    - id: principal_type
      doc: The owner principal type.
      size: '(api_version >= 2 ? len_principal_type_compact.value : len_principal_type)'
      type: str
      encoding: UTF-8
    - id: len_principal_name
      type: s2
      doc: Length in bytes of `principal_name`.
      -lc-size-of: principal_name
      if: api_version <= 1
    - id: len_principal_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `principal_name`.
      -lc-size-of: principal_name
      if: api_version >= 2
    - id: principal_name
      doc: The owner principal name.
      size: '(api_version >= 2 ? len_principal_name_compact.value : len_principal_name)'
      type: str
      encoding: UTF-8
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 2
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 2

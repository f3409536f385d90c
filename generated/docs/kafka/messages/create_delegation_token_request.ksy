meta:
  id: create_delegation_token_request
  title: CreateDelegationTokenRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreateDelegationTokenRequest (request), versions 0-3; flexible in 2+.
doc-ref: CreateDelegationTokenRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_owner_principal_type_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `owner_principal_type`, or -1 for null.
  -lc-size-of: owner_principal_type
  -lc-absent: -1
  if: api_version >= 3
- id: owner_principal_type
  doc: The principal type of the owner of the token. If it's null it defaults to the token request principal.
  size: len_owner_principal_type_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 3 and len_owner_principal_type_compact.value >= 0
- id: len_owner_principal_name_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `owner_principal_name`, or -1 for null.
  -lc-size-of: owner_principal_name
  -lc-absent: -1
  if: api_version >= 3
- id: owner_principal_name
  doc: The principal name of the owner of the token. If it's null it defaults to the token request principal.
  size: len_owner_principal_name_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 3 and len_owner_principal_name_compact.value >= 0
- id: num_renewers
  type: s4
  doc: Number of elements of `renewers`.
  -lc-count-of: renewers
  if: api_version <= 1
- id: num_renewers_compact
  type: biased_uvarint(32)
  doc: Number of elements of `renewers`.
  -lc-count-of: renewers
  if: api_version >= 2
- id: renewers
  doc: A list of those who are allowed to renew this token before it expires.
  type: creatable_renewers(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_renewers_compact.value : num_renewers)'
- id: max_lifetime_ms
  type: s8
  doc: The maximum lifetime of the token in milliseconds, or -1 to use the server side default.
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
  creatable_renewers:
    doc: CreatableRenewers.
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
      doc: The type of the Kafka principal.
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
      doc: The name of the Kafka principal.
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

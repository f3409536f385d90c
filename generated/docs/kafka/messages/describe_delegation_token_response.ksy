meta:
  id: describe_delegation_token_response
  title: DescribeDelegationTokenResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeDelegationTokenResponse (response), versions 0-3; flexible in 2+.
doc-ref: DescribeDelegationTokenResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The error code, or 0 if there was no error.
- id: num_tokens
  type: s4
  doc: Number of elements of `tokens`.
  -lc-count-of: tokens
  if: api_version <= 1
- id: num_tokens_compact
  type: biased_uvarint(32)
  doc: Number of elements of `tokens`.
  -lc-count-of: tokens
  if: api_version >= 2
- id: tokens
  doc: The tokens.
  type: described_delegation_token(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_tokens_compact.value : num_tokens)'
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
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
  described_delegation_token:
    doc: DescribedDelegationToken.
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
      doc: The token principal type.
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
      doc: The token principal name.
      size: '(api_version >= 2 ? len_principal_name_compact.value : len_principal_name)'
      type: str
      encoding: UTF-8
    - id: len_token_requester_principal_type_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `token_requester_principal_type`.
      -lc-size-of: token_requester_principal_type
      if: api_version >= 3
    - id: token_requester_principal_type
      doc: The principal type of the requester of the token.
      size: len_token_requester_principal_type_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: len_token_requester_principal_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `token_requester_principal_name`.
      -lc-size-of: token_requester_principal_name
      if: api_version >= 3
    - id: token_requester_principal_name
      doc: The principal type of the requester of the token.
      size: len_token_requester_principal_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 3
    - id: issue_timestamp
      type: s8
      doc: The token issue timestamp in milliseconds.
    - id: expiry_timestamp
      type: s8
      doc: The token expiry timestamp in milliseconds.
    - id: max_timestamp
      type: s8
      doc: The token maximum timestamp length in milliseconds.
    - id: len_token_id
      type: s2
      doc: Length in bytes of `token_id`.
      -lc-size-of: token_id
      if: api_version <= 1
    - id: len_token_id_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `token_id`.
      -lc-size-of: token_id
      if: api_version >= 2
    - id: token_id
      doc: The token ID.
      size: '(api_version >= 2 ? len_token_id_compact.value : len_token_id)'
      type: str
      encoding: UTF-8
    - id: len_hmac
      type: s4
      doc: Length in bytes of `hmac`.
      -lc-size-of: hmac
      if: api_version <= 1
    - id: len_hmac_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `hmac`.
      -lc-size-of: hmac
      if: api_version >= 2
    - id: hmac
      doc: The token HMAC.
      size: '(api_version >= 2 ? len_hmac_compact.value : len_hmac)'
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
      doc: Those who are able to renew this token before it expires.
      type: described_delegation_token_renewer(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_renewers_compact.value : num_renewers)'
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
  described_delegation_token_renewer:
    doc: DescribedDelegationTokenRenewer.
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
      doc: The renewer principal type
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
      doc: The renewer principal name
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

meta:
  id: create_delegation_token_response
  title: CreateDelegationTokenResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreateDelegationTokenResponse (response), versions 0-3; flexible in 2+.
doc-ref: CreateDelegationTokenResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top-level error, or zero if there was no error.
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
  doc: The principal type of the token owner.
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
  doc: The name of the token owner.
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
- id: issue_timestamp_ms
  type: s8
  doc: When this token was generated.
- id: expiry_timestamp_ms
  type: s8
  doc: When this token expires.
- id: max_timestamp_ms
  type: s8
  doc: The maximum lifetime of this token.
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
  doc: The token UUID.
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
  doc: HMAC of the delegation token.
  size: '(api_version >= 2 ? len_hmac_compact.value : len_hmac)'
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

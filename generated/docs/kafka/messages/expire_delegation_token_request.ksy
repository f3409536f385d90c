meta:
  id: expire_delegation_token_request
  title: ExpireDelegationTokenRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ExpireDelegationTokenRequest (request), versions 0-2; flexible in 2+.
doc-ref: ExpireDelegationTokenRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
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
  doc: The HMAC of the delegation token to be expired.
  size: '(api_version >= 2 ? len_hmac_compact.value : len_hmac)'
- id: expiry_time_period_ms
  type: s8
  doc: The expiry time period in milliseconds.
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

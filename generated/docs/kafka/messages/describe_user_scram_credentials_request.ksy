meta:
  id: describe_user_scram_credentials_request
  title: DescribeUserScramCredentialsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeUserScramCredentialsRequest (request), versions 0; flexible in 0+.
doc-ref: DescribeUserScramCredentialsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_users_compact
  type: biased_uvarint(32)
  doc: Number of elements of `users`, or -1 for null.
  -lc-count-of: users
  -lc-absent: -1
- id: users
  doc: The users to describe, or null/empty to describe all users.
  type: user_name(api_version)
  repeat: expr
  repeat-expr: num_users_compact.value
  if: num_users_compact.value >= 0
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
types:
  user_name:
    doc: UserName.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The user name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

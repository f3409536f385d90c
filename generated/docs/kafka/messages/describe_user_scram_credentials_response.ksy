meta:
  id: describe_user_scram_credentials_response
  title: DescribeUserScramCredentialsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeUserScramCredentialsResponse (response), versions 0; flexible in 0+.
doc-ref: DescribeUserScramCredentialsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: error_code
  type: s2
  doc: The message-level error code, 0 except for user authorization or infrastructure issues.
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
- id: error_message
  doc: The message-level error message, if any.
  size: len_error_message_compact.value
  type: str
  encoding: UTF-8
  if: len_error_message_compact.value >= 0
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
- id: results
  doc: The results for descriptions, one per user.
  type: describe_user_scram_credentials_result(api_version)
  repeat: expr
  repeat-expr: num_results_compact.value
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
  describe_user_scram_credentials_result:
    doc: DescribeUserScramCredentialsResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_user_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `user`.
      -lc-size-of: user
    - id: user
      doc: The user name.
      size: len_user_compact.value
      type: str
      encoding: UTF-8
    - id: error_code
      type: s2
      doc: The user-level error code.
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
    - id: error_message
      doc: The user-level error message, if any.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: len_error_message_compact.value >= 0
    - id: num_credential_infos_compact
      type: biased_uvarint(32)
      doc: Number of elements of `credential_infos`.
      -lc-count-of: credential_infos
    - id: credential_infos
      doc: The mechanism and related information associated with the user's SCRAM credentials.
      type: credential_info(api_version)
      repeat: expr
      repeat-expr: num_credential_infos_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  credential_info:
    doc: CredentialInfo.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: mechanism
      type: s1
      doc: The SCRAM mechanism.
    - id: iterations
      type: s4
      doc: The number of iterations used in the SCRAM credential.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

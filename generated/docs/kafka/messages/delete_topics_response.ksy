meta:
  id: delete_topics_response
  title: DeleteTopicsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DeleteTopicsResponse (response), versions 0-6; flexible in 4+.
doc-ref: DeleteTopicsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
  if: api_version >= 1
- id: num_responses
  type: s4
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version <= 3
- id: num_responses_compact
  type: biased_uvarint(32)
  doc: Number of elements of `responses`.
  -lc-count-of: responses
  if: api_version >= 4
- id: responses
  doc: The results for each topic we tried to delete.
  type: deletable_topic_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 ? num_responses_compact.value : num_responses)'
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 4
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 4
types:
  deletable_topic_result:
    doc: DeletableTopicResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      valid:
        expr: _ >= 0 or (_ == -1 and (api_version >= 6))
      if: api_version <= 3
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      valid:
        expr: _.value >= 0 or (_.value == -1 and (api_version >= 6))
      if: api_version >= 4
    - id: name
      doc: The topic name
      size: '(api_version >= 4 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 4 ? len_name_compact.value : len_name) >= 0'
    - id: topic_id
      size: 16
      doc: the unique topic ID
      if: api_version >= 6
    - id: error_code
      type: s2
      doc: The deletion error, or 0 if the deletion succeeded.
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 5
    - id: error_message
      doc: The error message, or null if there was no error.
      size: len_error_message_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 5 and len_error_message_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 4
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 4

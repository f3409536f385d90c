meta:
  id: create_partitions_response
  title: CreatePartitionsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreatePartitionsResponse (response), versions 0-3; flexible in 2+.
doc-ref: CreatePartitionsResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_results
  type: s4
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version <= 1
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version >= 2
- id: results
  doc: The partition creation results for each topic.
  type: create_partitions_topic_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_results_compact.value : num_results)'
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
  create_partitions_topic_result:
    doc: CreatePartitionsTopicResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 1
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 2
    - id: name
      doc: The topic name.
      size: '(api_version >= 2 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: error_code
      type: s2
      doc: The result error, or zero if there was no error.
    - id: len_error_message
      type: s2
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 2
    - id: error_message
      doc: The result message, or null if there was no error.
      size: '(api_version >= 2 ? len_error_message_compact.value : len_error_message)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 2 ? len_error_message_compact.value : len_error_message) >= 0'
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

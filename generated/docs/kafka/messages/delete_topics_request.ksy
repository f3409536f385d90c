meta:
  id: delete_topics_request
  title: DeleteTopicsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DeleteTopicsRequest (request), versions 0-6; flexible in 4+.
doc-ref: DeleteTopicsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
  if: api_version >= 6
- id: topics
  doc: The name or topic ID of the topic
  type: delete_topic_state(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
  if: api_version >= 6
- id: num_topic_names
  type: s4
  doc: Number of elements of `topic_names`.
  -lc-count-of: topic_names
  if: api_version <= 3
- id: num_topic_names_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topic_names`.
  -lc-count-of: topic_names
  if: api_version >= 4 and api_version <= 5
- id: topic_names
  doc: The names of the topics to delete
  type: string_element(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 4 and api_version <= 5 ? num_topic_names_compact.value : num_topic_names)'
  if: api_version <= 5
- id: timeout_ms
  type: s4
  doc: The length of time in milliseconds to wait for the deletions to complete.
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
  delete_topic_state:
    doc: DeleteTopicState.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      if: api_version >= 6
    - id: name
      doc: The topic name
      size: len_name_compact.value
      type: str
      encoding: UTF-8
      if: api_version >= 6 and len_name_compact.value >= 0
    - id: topic_id
      size: 16
      doc: The unique topic ID
      if: api_version >= 6
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 6
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 6
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
      if: api_version <= 3
    - id: len_value_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `value`.
      -lc-size-of: value
      if: api_version >= 4
    - id: value
      doc: The string.
      size: '(api_version >= 4 ? len_value_compact.value : len_value)'
      type: str
      encoding: UTF-8

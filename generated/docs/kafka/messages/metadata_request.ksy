meta:
  id: metadata_request
  title: MetadataRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: MetadataRequest (request), versions 0-12; flexible in 9+.
doc-ref: MetadataRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_topics
  type: s4
  doc: Number of elements of `topics`, or -1 for null.
  -lc-count-of: topics
  -lc-absent: -1
  valid:
    expr: _ >= 0 or (_ == -1 and (api_version >= 1))
  if: api_version <= 8
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`, or -1 for null.
  -lc-count-of: topics
  -lc-absent: -1
  if: api_version >= 9
- id: topics
  doc: The topics to fetch metadata for.
  type: metadata_request_topic(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 9 ? num_topics_compact.value : num_topics)'
  if: '(api_version >= 9 ? num_topics_compact.value : num_topics) >= 0'
- id: allow_auto_topic_creation
  type: u1
  doc: If this is true, the broker may auto-create topics that we requested which do not already exist,
    if it is configured to do so.
  if: api_version >= 4
- id: include_cluster_authorized_operations
  type: u1
  doc: Whether to include cluster authorized operations.
  if: api_version >= 8 and api_version <= 10
- id: include_topic_authorized_operations
  type: u1
  doc: Whether to include topic authorized operations.
  if: api_version >= 8
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 9
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 9
types:
  metadata_request_topic:
    doc: MetadataRequestTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The topic id.
      if: api_version >= 10
    - id: len_name
      type: s2
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      valid:
        expr: _ >= 0 or (_ == -1 and (api_version >= 10))
      if: api_version <= 8
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`, or -1 for null.
      -lc-size-of: name
      -lc-absent: -1
      valid:
        expr: _.value >= 0 or (_.value == -1 and (api_version >= 10))
      if: api_version >= 9
    - id: name
      doc: The topic name.
      size: '(api_version >= 9 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 9 ? len_name_compact.value : len_name) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 9
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 9

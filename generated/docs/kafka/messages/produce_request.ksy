meta:
  id: produce_request
  title: ProduceRequest
  endian: be
  -lc-fills-input: true
  imports:
  - ../record_set
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ProduceRequest (request), versions 0-11; flexible in 9+.
doc-ref: ProduceRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_transactional_id
  type: s2
  doc: Length in bytes of `transactional_id`, or -1 for null.
  -lc-size-of: transactional_id
  -lc-absent: -1
  valid:
    min: -1
  if: api_version >= 3 and api_version <= 8
- id: len_transactional_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `transactional_id`, or -1 for null.
  -lc-size-of: transactional_id
  -lc-absent: -1
  if: api_version >= 9
- id: transactional_id
  doc: The transactional ID, or null if the producer is not transactional.
  size: '(api_version >= 9 ? len_transactional_id_compact.value : len_transactional_id)'
  type: str
  encoding: UTF-8
  if: 'api_version >= 3 and (api_version >= 9 ? len_transactional_id_compact.value : len_transactional_id)
    >= 0'
- id: acks
  type: s2
  doc: 'The number of acknowledgments the producer requires the leader to have received before considering
    a request complete. Allowed values: 0 for no acknowledgments, 1 for only the leader and -1 for the
    full ISR.'
- id: timeout_ms
  type: s4
  doc: The timeout to await a response in milliseconds.
- id: num_topic_data
  type: s4
  doc: Number of elements of `topic_data`.
  -lc-count-of: topic_data
  if: api_version <= 8
- id: num_topic_data_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topic_data`.
  -lc-count-of: topic_data
  if: api_version >= 9
- id: topic_data
  doc: Each topic to produce to.
  type: topic_produce_data(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 9 ? num_topic_data_compact.value : num_topic_data)'
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
  topic_produce_data:
    doc: TopicProduceData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 8
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 9
    - id: name
      doc: The topic name.
      size: '(api_version >= 9 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partition_data
      type: s4
      doc: Number of elements of `partition_data`.
      -lc-count-of: partition_data
      if: api_version <= 8
    - id: num_partition_data_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_data`.
      -lc-count-of: partition_data
      if: api_version >= 9
    - id: partition_data
      doc: Each partition to produce to.
      type: partition_produce_data(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 9 ? num_partition_data_compact.value : num_partition_data)'
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
  partition_produce_data:
    doc: PartitionProduceData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: index
      type: s4
      doc: The partition index.
    - id: len_records
      type: s4
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 8
    - id: len_records_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `records`, or -1 for null.
      -lc-size-of: records
      -lc-absent: -1
      if: api_version >= 9
    - id: records
      doc: The record data to be produced.
      size: '(api_version >= 9 ? len_records_compact.value : len_records)'
      type: record_set
      if: '(api_version >= 9 ? len_records_compact.value : len_records) >= 0'
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

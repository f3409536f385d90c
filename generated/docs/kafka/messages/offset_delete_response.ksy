meta:
  id: offset_delete_response
  title: OffsetDeleteResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
doc: OffsetDeleteResponse (response), versions 0; flexible in none.
doc-ref: OffsetDeleteResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: error_code
  type: s2
  doc: The top-level error code, or 0 if there was no error.
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_topics
  type: s4
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The responses for each topic.
  type: offset_delete_response_topic(api_version)
  repeat: expr
  repeat-expr: num_topics
types:
  offset_delete_response_topic:
    doc: OffsetDeleteResponseTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The topic name.
      size: len_name
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The responses for each partition in the topic.
      type: offset_delete_response_partition(api_version)
      repeat: expr
      repeat-expr: num_partitions
  offset_delete_response_partition:
    doc: OffsetDeleteResponsePartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.

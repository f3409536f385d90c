meta:
  id: share_fetch_request
  title: ShareFetchRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ShareFetchRequest (request), versions 0; flexible in 0+.
doc-ref: ShareFetchRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_group_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `group_id`, or -1 for null.
  -lc-size-of: group_id
  -lc-absent: -1
- id: group_id
  doc: The group identifier.
  size: len_group_id_compact.value
  type: str
  encoding: UTF-8
  if: len_group_id_compact.value >= 0
- id: len_member_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `member_id`, or -1 for null.
  -lc-size-of: member_id
  -lc-absent: -1
- id: member_id
  doc: The member ID.
  size: len_member_id_compact.value
  type: str
  encoding: UTF-8
  if: len_member_id_compact.value >= 0
- id: share_session_epoch
  type: s4
  doc: 'The current share session epoch: 0 to open a share session; -1 to close it; otherwise increments
    for consecutive requests.'
- id: max_wait_ms
  type: s4
  doc: The maximum time in milliseconds to wait for the response.
- id: min_bytes
  type: s4
  doc: The minimum bytes to accumulate in the response.
- id: max_bytes
  type: s4
  doc: The maximum bytes to fetch.  See KIP-74 for cases where this limit may not be honored.
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics to fetch.
  type: fetch_topic(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
- id: num_forgotten_topics_data_compact
  type: biased_uvarint(32)
  doc: Number of elements of `forgotten_topics_data`.
  -lc-count-of: forgotten_topics_data
- id: forgotten_topics_data
  doc: The partitions to remove from this share session.
  type: forgotten_topic(api_version)
  repeat: expr
  repeat-expr: num_forgotten_topics_data_compact.value
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
  fetch_topic:
    doc: FetchTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The unique topic ID.
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The partitions to fetch.
      type: fetch_partition(api_version)
      repeat: expr
      repeat-expr: num_partitions_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  fetch_partition:
    doc: FetchPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: partition_max_bytes
      type: s4
      doc: The maximum bytes to fetch from this partition. 0 when only acknowledgement with no fetching
        is required. See KIP-74 for cases where this limit may not be honored.
    - id: num_acknowledgement_batches_compact
      type: biased_uvarint(32)
      doc: Number of elements of `acknowledgement_batches`.
      -lc-count-of: acknowledgement_batches
    - id: acknowledgement_batches
      doc: Record batches to acknowledge.
      type: acknowledgement_batch(api_version)
      repeat: expr
      repeat-expr: num_acknowledgement_batches_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  acknowledgement_batch:
    doc: AcknowledgementBatch.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: first_offset
      type: s8
      doc: First offset of batch of records to acknowledge.
    - id: last_offset
      type: s8
      doc: Last offset (inclusive) of batch of records to acknowledge.
    - id: num_acknowledge_types_compact
      type: biased_uvarint(32)
      doc: Number of elements of `acknowledge_types`.
      -lc-count-of: acknowledge_types
    - id: acknowledge_types
      doc: Array of acknowledge types - 0:Gap,1:Accept,2:Release,3:Reject.
      type: s1
      repeat: expr
      repeat-expr: num_acknowledge_types_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  forgotten_topic:
    doc: ForgottenTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: topic_id
      size: 16
      doc: The unique topic ID.
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
    - id: partitions
      doc: The partitions indexes to forget.
      type: s4
      repeat: expr
      repeat-expr: num_partitions_compact.value
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: share_acknowledge_request
  title: ShareAcknowledgeRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ShareAcknowledgeRequest (request), versions 0; flexible in 0+.
doc-ref: ShareAcknowledgeRequest.json
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
- id: num_topics_compact
  type: biased_uvarint(32)
  doc: Number of elements of `topics`.
  -lc-count-of: topics
- id: topics
  doc: The topics containing records to acknowledge.
  type: acknowledge_topic(api_version)
  repeat: expr
  repeat-expr: num_topics_compact.value
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
  acknowledge_topic:
    doc: AcknowledgeTopic.
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
      doc: The partitions containing records to acknowledge.
      type: acknowledge_partition(api_version)
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
  acknowledge_partition:
    doc: AcknowledgePartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
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

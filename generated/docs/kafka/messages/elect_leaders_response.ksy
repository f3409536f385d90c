meta:
  id: elect_leaders_response
  title: ElectLeadersResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ElectLeadersResponse (response), versions 0-2; flexible in 2+.
doc-ref: ElectLeadersResponse.json
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
  doc: The top level response error code.
  if: api_version >= 1
- id: num_replica_election_results
  type: s4
  doc: Number of elements of `replica_election_results`.
  -lc-count-of: replica_election_results
  if: api_version <= 1
- id: num_replica_election_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `replica_election_results`.
  -lc-count-of: replica_election_results
  if: api_version >= 2
- id: replica_election_results
  doc: The election results, or an empty array if the requester did not have permission and the request
    asks for all partitions.
  type: replica_election_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_replica_election_results_compact.value : num_replica_election_results)'
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
  replica_election_result:
    doc: ReplicaElectionResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_topic
      type: s2
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version <= 1
    - id: len_topic_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `topic`.
      -lc-size-of: topic
      if: api_version >= 2
    - id: topic
      doc: The topic name
      size: '(api_version >= 2 ? len_topic_compact.value : len_topic)'
      type: str
      encoding: UTF-8
    - id: num_partition_result
      type: s4
      doc: Number of elements of `partition_result`.
      -lc-count-of: partition_result
      if: api_version <= 1
    - id: num_partition_result_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partition_result`.
      -lc-count-of: partition_result
      if: api_version >= 2
    - id: partition_result
      doc: The results for each partition
      type: partition_result(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_partition_result_compact.value : num_partition_result)'
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
  partition_result:
    doc: PartitionResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_id
      type: s4
      doc: The partition id
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

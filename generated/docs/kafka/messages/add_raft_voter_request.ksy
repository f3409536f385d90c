meta:
  id: add_raft_voter_request
  title: AddRaftVoterRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AddRaftVoterRequest (request), versions 0; flexible in 0+.
doc-ref: AddRaftVoterRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_cluster_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `cluster_id`, or -1 for null.
  -lc-size-of: cluster_id
  -lc-absent: -1
- id: cluster_id
  doc: ClusterId.
  size: len_cluster_id_compact.value
  type: str
  encoding: UTF-8
  if: len_cluster_id_compact.value >= 0
- id: timeout_ms
  type: s4
  doc: TimeoutMs.
- id: voter_id
  type: s4
  doc: The replica id of the voter getting added to the topic partition
- id: voter_directory_id
  size: 16
  doc: The directory id of the voter getting added to the topic partition
- id: num_listeners_compact
  type: biased_uvarint(32)
  doc: Number of elements of `listeners`.
  -lc-count-of: listeners
- id: listeners
  doc: The endpoints that can be used to communicate with the voter
  type: listener(api_version)
  repeat: expr
  repeat-expr: num_listeners_compact.value
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
  listener:
    doc: Listener.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
    - id: name
      doc: The name of the endpoint
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
    - id: host
      doc: The hostname
      size: len_host_compact.value
      type: str
      encoding: UTF-8
    - id: port
      type: u2
      doc: The port
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

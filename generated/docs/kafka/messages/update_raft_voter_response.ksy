meta:
  id: update_raft_voter_response
  title: UpdateRaftVoterResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: UpdateRaftVoterResponse (response), versions 0; flexible in 0+.
doc-ref: UpdateRaftVoterResponse.json
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
  doc: The error code, or 0 if there was no error
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: update_raft_voter_response_tagged_field(api_version)
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  -lc-keyed:
    key: tag
    value: data
    fields:
      current_leader:
        key: 0
        default:
          leader_id: -1
          leader_epoch: -1
          host: ''
          port: 0
          tagged_fields: []
types:
  current_leader_tag:
    doc: The tagged field `current_leader` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: current_leader
      type: current_leader(api_version)
      doc: CurrentLeader.
  current_leader:
    doc: CurrentLeader.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: leader_id
      type: s4
      doc: The replica id of the current leader or -1 if the leader is unknown
    - id: leader_epoch
      type: s4
      doc: The latest known leader epoch
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
    - id: host
      doc: The node's hostname
      size: len_host_compact.value
      type: str
      encoding: UTF-8
    - id: port
      type: s4
      doc: The node's port
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  update_raft_voter_response_tagged_field:
    doc: 'One tagged field of update_raft_voter_response: its tag, its size and its bytes, read as the
      field of a tag it knows (0: `current_leader`).'
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: tag
      type: uvarint(32)
      doc: The field's tag.
    - id: len_data
      type: uvarint(32)
      doc: Length of `data` in bytes.
      -lc-size-of: data
    - id: data
      size: len_data.value
      type:
        switch-on: tag.value
        cases:
          0: current_leader_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

meta:
  id: broker_heartbeat_request
  title: BrokerHeartbeatRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
doc: BrokerHeartbeatRequest (request), versions 0-1; flexible in 0+.
doc-ref: BrokerHeartbeatRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: broker_id
  type: s4
  doc: The broker ID.
- id: broker_epoch
  type: s8
  doc: The broker epoch.
- id: current_metadata_offset
  type: s8
  doc: The highest metadata offset which the broker has reached.
- id: want_fence
  type: u1
  doc: True if the broker wants to be fenced, false otherwise.
- id: want_shut_down
  type: u1
  doc: True if the broker wants to be shut down, false otherwise.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: broker_heartbeat_request_tagged_field(api_version)
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  -lc-keyed:
    key: tag
    value: data
    fields:
      offline_log_dirs:
        key: 0
        default: []
types:
  offline_log_dirs_tag:
    doc: The tagged field `offline_log_dirs` (tag 0).
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: num_offline_log_dirs_compact
      type: biased_uvarint(32)
      doc: Number of elements of `offline_log_dirs`.
      -lc-count-of: offline_log_dirs
      if: api_version >= 1
    - id: offline_log_dirs
      doc: Log directories that failed and went offline.
      size: 16
      repeat: expr
      repeat-expr: num_offline_log_dirs_compact.value
      if: api_version >= 1
  broker_heartbeat_request_tagged_field:
    doc: 'One tagged field of broker_heartbeat_request: its tag, its size and its bytes, read as the field
      of a tag it knows (0: `offline_log_dirs`).'
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
          0: offline_log_dirs_tag(api_version)
      doc: The field of a known tag; an unknown tag's bytes.

meta:
  id: broker_registration_request
  title: BrokerRegistrationRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: BrokerRegistrationRequest (request), versions 0-4; flexible in 0+.
doc-ref: BrokerRegistrationRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: broker_id
  type: s4
  doc: The broker ID.
- id: len_cluster_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `cluster_id`.
  -lc-size-of: cluster_id
- id: cluster_id
  doc: The cluster id of the broker process.
  size: len_cluster_id_compact.value
  type: str
  encoding: UTF-8
- id: incarnation_id
  size: 16
  doc: The incarnation id of the broker process.
- id: num_listeners_compact
  type: biased_uvarint(32)
  doc: Number of elements of `listeners`.
  -lc-count-of: listeners
- id: listeners
  doc: The listeners of this broker
  type: listener(api_version)
  repeat: expr
  repeat-expr: num_listeners_compact.value
- id: num_features_compact
  type: biased_uvarint(32)
  doc: Number of elements of `features`.
  -lc-count-of: features
- id: features
  doc: 'The features on this broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.'
  type: feature(api_version)
  repeat: expr
  repeat-expr: num_features_compact.value
- id: len_rack_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `rack`, or -1 for null.
  -lc-size-of: rack
  -lc-absent: -1
- id: rack
  doc: The rack which this broker is in.
  size: len_rack_compact.value
  type: str
  encoding: UTF-8
  if: len_rack_compact.value >= 0
- id: is_migrating_zk_broker
  type: u1
  doc: If the required configurations for ZK migration are present, this value is set to true
  if: api_version >= 1
- id: num_log_dirs_compact
  type: biased_uvarint(32)
  doc: Number of elements of `log_dirs`.
  -lc-count-of: log_dirs
  if: api_version >= 2
- id: log_dirs
  doc: Log directories configured in this broker which are available.
  size: 16
  repeat: expr
  repeat-expr: num_log_dirs_compact.value
  if: api_version >= 2
- id: previous_broker_epoch
  type: s8
  doc: The epoch before a clean shutdown.
  if: api_version >= 3
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
      doc: The name of the endpoint.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
    - id: host
      doc: The hostname.
      size: len_host_compact.value
      type: str
      encoding: UTF-8
    - id: port
      type: u2
      doc: The port.
    - id: security_protocol
      type: s2
      doc: The security protocol.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  feature:
    doc: Feature.
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
      doc: The feature name.
      size: len_name_compact.value
      type: str
      encoding: UTF-8
    - id: min_supported_version
      type: s2
      doc: The minimum supported feature level.
    - id: max_supported_version
      type: s2
      doc: The maximum supported feature level.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: controller_registration_request
  title: ControllerRegistrationRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ControllerRegistrationRequest (request), versions 0; flexible in 0+.
doc-ref: ControllerRegistrationRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: controller_id
  type: s4
  doc: The ID of the controller to register.
- id: incarnation_id
  size: 16
  doc: The controller incarnation ID, which is unique to each process run.
- id: zk_migration_ready
  type: u1
  doc: Set if the required configurations for ZK migration are present.
- id: num_listeners_compact
  type: biased_uvarint(32)
  doc: Number of elements of `listeners`.
  -lc-count-of: listeners
- id: listeners
  doc: The listeners of this controller
  type: listener(api_version)
  repeat: expr
  repeat-expr: num_listeners_compact.value
- id: num_features_compact
  type: biased_uvarint(32)
  doc: Number of elements of `features`.
  -lc-count-of: features
- id: features
  doc: The features on this controller
  type: feature(api_version)
  repeat: expr
  repeat-expr: num_features_compact.value
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

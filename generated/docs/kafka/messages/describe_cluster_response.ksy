meta:
  id: describe_cluster_response
  title: DescribeClusterResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeClusterResponse (response), versions 0-1; flexible in 0+.
doc-ref: DescribeClusterResponse.json
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
  doc: The top-level error code, or 0 if there was no error
- id: len_error_message_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `error_message`, or -1 for null.
  -lc-size-of: error_message
  -lc-absent: -1
- id: error_message
  doc: The top-level error message, or null if there was no error.
  size: len_error_message_compact.value
  type: str
  encoding: UTF-8
  if: len_error_message_compact.value >= 0
- id: endpoint_type
  type: s1
  doc: The endpoint type that was described. 1=brokers, 2=controllers.
  if: api_version >= 1
- id: len_cluster_id_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `cluster_id`.
  -lc-size-of: cluster_id
- id: cluster_id
  doc: The cluster ID that responding broker belongs to.
  size: len_cluster_id_compact.value
  type: str
  encoding: UTF-8
- id: controller_id
  type: s4
  doc: The ID of the controller broker.
- id: num_brokers_compact
  type: biased_uvarint(32)
  doc: Number of elements of `brokers`.
  -lc-count-of: brokers
- id: brokers
  doc: Each broker in the response.
  type: describe_cluster_broker(api_version)
  repeat: expr
  repeat-expr: num_brokers_compact.value
- id: cluster_authorized_operations
  type: s4
  doc: 32-bit bitfield to represent authorized operations for this cluster.
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
  describe_cluster_broker:
    doc: DescribeClusterBroker.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: broker_id
      type: s4
      doc: The broker ID.
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
    - id: host
      doc: The broker hostname.
      size: len_host_compact.value
      type: str
      encoding: UTF-8
    - id: port
      type: s4
      doc: The broker port.
    - id: len_rack_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `rack`, or -1 for null.
      -lc-size-of: rack
      -lc-absent: -1
    - id: rack
      doc: The rack of the broker, or null if it has not been assigned to a rack.
      size: len_rack_compact.value
      type: str
      encoding: UTF-8
      if: len_rack_compact.value >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

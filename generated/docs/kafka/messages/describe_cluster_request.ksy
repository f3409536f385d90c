meta:
  id: describe_cluster_request
  title: DescribeClusterRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeClusterRequest (request), versions 0-1; flexible in 0+.
doc-ref: DescribeClusterRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: include_cluster_authorized_operations
  type: u1
  doc: Whether to include cluster authorized operations.
- id: endpoint_type
  type: s1
  doc: The endpoint type to describe. 1=brokers, 2=controllers.
  if: api_version >= 1
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'

meta:
  id: describe_acls_response
  title: DescribeAclsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeAclsResponse (response), versions 0-3; flexible in 2+.
doc-ref: DescribeAclsResponse.json
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
  doc: The error code, or 0 if there was no error.
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
  doc: The error message, or null if there was no error.
  size: '(api_version >= 2 ? len_error_message_compact.value : len_error_message)'
  type: str
  encoding: UTF-8
  if: '(api_version >= 2 ? len_error_message_compact.value : len_error_message) >= 0'
- id: num_resources
  type: s4
  doc: Number of elements of `resources`.
  -lc-count-of: resources
  if: api_version <= 1
- id: num_resources_compact
  type: biased_uvarint(32)
  doc: Number of elements of `resources`.
  -lc-count-of: resources
  if: api_version >= 2
- id: resources
  doc: Each Resource that is referenced in an ACL.
  type: describe_acls_resource(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_resources_compact.value : num_resources)'
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
  describe_acls_resource:
    doc: DescribeAclsResource.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: resource_type
      type: s1
      doc: The resource type.
    - id: len_resource_name
      type: s2
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version <= 1
    - id: len_resource_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `resource_name`.
      -lc-size-of: resource_name
      if: api_version >= 2
    - id: resource_name
      doc: The resource name.
      size: '(api_version >= 2 ? len_resource_name_compact.value : len_resource_name)'
      type: str
      encoding: UTF-8
    - id: pattern_type
      type: s1
      doc: The resource pattern type.
      if: api_version >= 1
    - id: num_acls
      type: s4
      doc: Number of elements of `acls`.
      -lc-count-of: acls
      if: api_version <= 1
    - id: num_acls_compact
      type: biased_uvarint(32)
      doc: Number of elements of `acls`.
      -lc-count-of: acls
      if: api_version >= 2
    - id: acls
      doc: The ACLs.
      type: acl_description(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_acls_compact.value : num_acls)'
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
  acl_description:
    doc: AclDescription.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_principal
      type: s2
      doc: Length in bytes of `principal`.
      -lc-size-of: principal
      if: api_version <= 1
    - id: len_principal_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `principal`.
      -lc-size-of: principal
      if: api_version >= 2
    - id: principal
      doc: The ACL principal.
      size: '(api_version >= 2 ? len_principal_compact.value : len_principal)'
      type: str
      encoding: UTF-8
    - id: len_host
      type: s2
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version <= 1
    - id: len_host_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host`.
      -lc-size-of: host
      if: api_version >= 2
    - id: host
      doc: The ACL host.
      size: '(api_version >= 2 ? len_host_compact.value : len_host)'
      type: str
      encoding: UTF-8
    - id: operation
      type: s1
      doc: The ACL operation.
    - id: permission_type
      type: s1
      doc: The ACL permission type.
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

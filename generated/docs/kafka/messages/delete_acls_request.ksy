meta:
  id: delete_acls_request
  title: DeleteAclsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DeleteAclsRequest (request), versions 0-3; flexible in 2+.
doc-ref: DeleteAclsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_filters
  type: s4
  doc: Number of elements of `filters`.
  -lc-count-of: filters
  if: api_version <= 1
- id: num_filters_compact
  type: biased_uvarint(32)
  doc: Number of elements of `filters`.
  -lc-count-of: filters
  if: api_version >= 2
- id: filters
  doc: The filters to use when deleting ACLs.
  type: delete_acls_filter(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_filters_compact.value : num_filters)'
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
  delete_acls_filter:
    doc: DeleteAclsFilter.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: resource_type_filter
      type: s1
      doc: The resource type.
    - id: len_resource_name_filter
      type: s2
      doc: Length in bytes of `resource_name_filter`, or -1 for null.
      -lc-size-of: resource_name_filter
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: len_resource_name_filter_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `resource_name_filter`, or -1 for null.
      -lc-size-of: resource_name_filter
      -lc-absent: -1
      if: api_version >= 2
    - id: resource_name_filter
      doc: The resource name.
      size: '(api_version >= 2 ? len_resource_name_filter_compact.value : len_resource_name_filter)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 2 ? len_resource_name_filter_compact.value : len_resource_name_filter) >= 0'
    - id: pattern_type_filter
      type: s1
      doc: The pattern type.
      if: api_version >= 1
    - id: len_principal_filter
      type: s2
      doc: Length in bytes of `principal_filter`, or -1 for null.
      -lc-size-of: principal_filter
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: len_principal_filter_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `principal_filter`, or -1 for null.
      -lc-size-of: principal_filter
      -lc-absent: -1
      if: api_version >= 2
    - id: principal_filter
      doc: The principal filter, or null to accept all principals.
      size: '(api_version >= 2 ? len_principal_filter_compact.value : len_principal_filter)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 2 ? len_principal_filter_compact.value : len_principal_filter) >= 0'
    - id: len_host_filter
      type: s2
      doc: Length in bytes of `host_filter`, or -1 for null.
      -lc-size-of: host_filter
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 1
    - id: len_host_filter_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `host_filter`, or -1 for null.
      -lc-size-of: host_filter
      -lc-absent: -1
      if: api_version >= 2
    - id: host_filter
      doc: The host filter, or null to accept all hosts.
      size: '(api_version >= 2 ? len_host_filter_compact.value : len_host_filter)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 2 ? len_host_filter_compact.value : len_host_filter) >= 0'
    - id: operation
      type: s1
      doc: The ACL operation.
    - id: permission_type
      type: s1
      doc: The permission type.
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

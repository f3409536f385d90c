meta:
  id: create_acls_request
  title: CreateAclsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: CreateAclsRequest (request), versions 0-3; flexible in 2+.
doc-ref: CreateAclsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_creations
  type: s4
  doc: Number of elements of `creations`.
  -lc-count-of: creations
  if: api_version <= 1
- id: num_creations_compact
  type: biased_uvarint(32)
  doc: Number of elements of `creations`.
  -lc-count-of: creations
  if: api_version >= 2
- id: creations
  doc: The ACLs that we want to create.
  type: acl_creation(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_creations_compact.value : num_creations)'
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
  acl_creation:
    doc: AclCreation.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: resource_type
      type: s1
      doc: The type of the resource.
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
      doc: The resource name for the ACL.
      size: '(api_version >= 2 ? len_resource_name_compact.value : len_resource_name)'
      type: str
      encoding: UTF-8
    - id: resource_pattern_type
      type: s1
      doc: The pattern type for the ACL.
      if: api_version >= 1
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
      doc: The principal for the ACL.
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
      doc: The host for the ACL.
      size: '(api_version >= 2 ? len_host_compact.value : len_host)'
      type: str
      encoding: UTF-8
    - id: operation
      type: s1
      doc: The operation type for the ACL (read, write, etc.).
    - id: permission_type
      type: s1
      doc: The permission type for the ACL (allow, deny, etc.).
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

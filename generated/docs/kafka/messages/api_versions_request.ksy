meta:
  id: api_versions_request
  title: ApiVersionsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: ApiVersionsRequest (request), versions 0-4; flexible in 3+.
doc-ref: ApiVersionsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: len_client_software_name_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `client_software_name`.
  -lc-size-of: client_software_name
  if: api_version >= 3
- id: client_software_name
  doc: The name of the client.
  size: len_client_software_name_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 3
- id: len_client_software_version_compact
  type: biased_uvarint(32)
  doc: Length in bytes of `client_software_version`.
  -lc-size-of: client_software_version
  if: api_version >= 3
- id: client_software_version
  doc: The version of the client.
  size: len_client_software_version_compact.value
  type: str
  encoding: UTF-8
  if: api_version >= 3
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 3
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 3

meta:
  id: describe_client_quotas_request
  title: DescribeClientQuotasRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeClientQuotasRequest (request), versions 0-1; flexible in 1+.
doc-ref: DescribeClientQuotasRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_components
  type: s4
  doc: Number of elements of `components`.
  -lc-count-of: components
  if: api_version <= 0
- id: num_components_compact
  type: biased_uvarint(32)
  doc: Number of elements of `components`.
  -lc-count-of: components
  if: api_version >= 1
- id: components
  doc: Filter components to apply to quota entities.
  type: component_data(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 1 ? num_components_compact.value : num_components)'
- id: strict
  type: u1
  doc: Whether the match is strict, i.e. should exclude entities with unspecified entity types.
- id: num_tagged_fields
  type: uvarint(32)
  doc: Number of tagged fields.
  -lc-count-of: tagged_fields
  if: api_version >= 1
- id: tagged_fields
  type: tagged_field
  repeat: expr
  repeat-expr: num_tagged_fields.value
  doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
  if: api_version >= 1
types:
  component_data:
    doc: ComponentData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_entity_type
      type: s2
      doc: Length in bytes of `entity_type`.
      -lc-size-of: entity_type
      if: api_version <= 0
    - id: len_entity_type_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `entity_type`.
      -lc-size-of: entity_type
      if: api_version >= 1
    - id: entity_type
      doc: The entity type that the filter component applies to.
      size: '(api_version >= 1 ? len_entity_type_compact.value : len_entity_type)'
      type: str
      encoding: UTF-8
    - id: match_type
      type: s1
      doc: How to match the entity {0 = exact name, 1 = default name, 2 = any specified name}.
    - id: len_match
      type: s2
      doc: Length in bytes of `match`, or -1 for null.
      -lc-size-of: match
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 0
    - id: len_match_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `match`, or -1 for null.
      -lc-size-of: match
      -lc-absent: -1
      if: api_version >= 1
    - id: match
      doc: The string to match against, or null if unused for the match type.
      size: '(api_version >= 1 ? len_match_compact.value : len_match)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 1 ? len_match_compact.value : len_match) >= 0'
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: api_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: api_version >= 1

meta:
  id: alter_client_quotas_response
  title: AlterClientQuotasResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterClientQuotasResponse (response), versions 0-1; flexible in 1+.
doc-ref: AlterClientQuotasResponse.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: throttle_time_ms
  type: s4
  doc: The duration in milliseconds for which the request was throttled due to a quota violation, or zero
    if the request did not violate any quota.
- id: num_entries
  type: s4
  doc: Number of elements of `entries`.
  -lc-count-of: entries
  if: api_version <= 0
- id: num_entries_compact
  type: biased_uvarint(32)
  doc: Number of elements of `entries`.
  -lc-count-of: entries
  if: api_version >= 1
- id: entries
  doc: The quota configuration entries to alter.
  type: entry_data(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 1 ? num_entries_compact.value : num_entries)'
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
  entry_data:
    doc: EntryData.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The error code, or `0` if the quota alteration succeeded.
    - id: len_error_message
      type: s2
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 0
    - id: len_error_message_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `error_message`, or -1 for null.
      -lc-size-of: error_message
      -lc-absent: -1
      if: api_version >= 1
    - id: error_message
      doc: The error message, or `null` if the quota alteration succeeded.
      size: '(api_version >= 1 ? len_error_message_compact.value : len_error_message)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 1 ? len_error_message_compact.value : len_error_message) >= 0'
    - id: num_entity
      type: s4
      doc: Number of elements of `entity`.
      -lc-count-of: entity
      if: api_version <= 0
    - id: num_entity_compact
      type: biased_uvarint(32)
      doc: Number of elements of `entity`.
      -lc-count-of: entity
      if: api_version >= 1
    - id: entity
      doc: The quota entity to alter.
      type: entity_data(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 1 ? num_entity_compact.value : num_entity)'
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
  entity_data:
    doc: EntityData.
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
      doc: The entity type.
      size: '(api_version >= 1 ? len_entity_type_compact.value : len_entity_type)'
      type: str
      encoding: UTF-8
    - id: len_entity_name
      type: s2
      doc: Length in bytes of `entity_name`, or -1 for null.
      -lc-size-of: entity_name
      -lc-absent: -1
      valid:
        min: -1
      if: api_version <= 0
    - id: len_entity_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `entity_name`, or -1 for null.
      -lc-size-of: entity_name
      -lc-absent: -1
      if: api_version >= 1
    - id: entity_name
      doc: The name of the entity, or null if the default.
      size: '(api_version >= 1 ? len_entity_name_compact.value : len_entity_name)'
      type: str
      encoding: UTF-8
      if: '(api_version >= 1 ? len_entity_name_compact.value : len_entity_name) >= 0'
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

meta:
  id: alter_replica_log_dirs_request
  title: AlterReplicaLogDirsRequest
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: AlterReplicaLogDirsRequest (request), versions 0-2; flexible in 2+.
doc-ref: AlterReplicaLogDirsRequest.json
params:
- id: api_version
  type: u2
  doc: The version of the message.
seq:
- id: num_dirs
  type: s4
  doc: Number of elements of `dirs`.
  -lc-count-of: dirs
  if: api_version <= 1
- id: num_dirs_compact
  type: biased_uvarint(32)
  doc: Number of elements of `dirs`.
  -lc-count-of: dirs
  if: api_version >= 2
- id: dirs
  doc: The alterations to make for each directory.
  type: alter_replica_log_dir(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_dirs_compact.value : num_dirs)'
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
  alter_replica_log_dir:
    doc: AlterReplicaLogDir.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_path
      type: s2
      doc: Length in bytes of `path`.
      -lc-size-of: path
      if: api_version <= 1
    - id: len_path_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `path`.
      -lc-size-of: path
      if: api_version >= 2
    - id: path
      doc: The absolute directory path.
      size: '(api_version >= 2 ? len_path_compact.value : len_path)'
      type: str
      encoding: UTF-8
    - id: num_topics
      type: s4
      doc: Number of elements of `topics`.
      -lc-count-of: topics
      if: api_version <= 1
    - id: num_topics_compact
      type: biased_uvarint(32)
      doc: Number of elements of `topics`.
      -lc-count-of: topics
      if: api_version >= 2
    - id: topics
      doc: The topics to add to the directory.
      type: alter_replica_log_dir_topic(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_topics_compact.value : num_topics)'
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
  alter_replica_log_dir_topic:
    doc: AlterReplicaLogDirTopic.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: len_name
      type: s2
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version <= 1
    - id: len_name_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `name`.
      -lc-size-of: name
      if: api_version >= 2
    - id: name
      doc: The topic name.
      size: '(api_version >= 2 ? len_name_compact.value : len_name)'
      type: str
      encoding: UTF-8
    - id: num_partitions
      type: s4
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version <= 1
    - id: num_partitions_compact
      type: biased_uvarint(32)
      doc: Number of elements of `partitions`.
      -lc-count-of: partitions
      if: api_version >= 2
    - id: partitions
      doc: The partition indexes.
      type: s4
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_partitions_compact.value : num_partitions)'
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

meta:
  id: describe_log_dirs_response
  title: DescribeLogDirsResponse
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - tagged_field
doc: DescribeLogDirsResponse (response), versions 0-4; flexible in 2+.
doc-ref: DescribeLogDirsResponse.json
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
  if: api_version >= 3
- id: num_results
  type: s4
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version <= 1
- id: num_results_compact
  type: biased_uvarint(32)
  doc: Number of elements of `results`.
  -lc-count-of: results
  if: api_version >= 2
- id: results
  doc: The log directories.
  type: describe_log_dirs_result(api_version)
  repeat: expr
  repeat-expr: '(api_version >= 2 ? num_results_compact.value : num_results)'
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
  describe_log_dirs_result:
    doc: DescribeLogDirsResult.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: error_code
      type: s2
      doc: The error code, or 0 if there was no error.
    - id: len_log_dir
      type: s2
      doc: Length in bytes of `log_dir`.
      -lc-size-of: log_dir
      if: api_version <= 1
    - id: len_log_dir_compact
      type: biased_uvarint(32)
      doc: Length in bytes of `log_dir`.
      -lc-size-of: log_dir
      if: api_version >= 2
    - id: log_dir
      doc: The absolute log directory path.
      size: '(api_version >= 2 ? len_log_dir_compact.value : len_log_dir)'
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
      doc: Each topic.
      type: describe_log_dirs_topic(api_version)
      repeat: expr
      repeat-expr: '(api_version >= 2 ? num_topics_compact.value : num_topics)'
    - id: total_bytes
      type: s8
      doc: The total size in bytes of the volume the log directory is in.
      if: api_version >= 4
    - id: usable_bytes
      type: s8
      doc: The usable size in bytes of the volume the log directory is in.
      if: api_version >= 4
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
  describe_log_dirs_topic:
    doc: DescribeLogDirsTopic.
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
      doc: Partitions.
      type: describe_log_dirs_partition(api_version)
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
  describe_log_dirs_partition:
    doc: DescribeLogDirsPartition.
    params:
    - id: api_version
      type: u2
      doc: The version of the message.
    seq:
    - id: partition_index
      type: s4
      doc: The partition index.
    - id: partition_size
      type: s8
      doc: The size of the log segments in this partition in bytes.
    - id: offset_lag
      type: s8
      doc: The lag of the log's LEO w.r.t. partition's HW (if it is the current log for the partition)
        or current replica's LEO (if it is the future log for the partition)
    - id: is_future_key
      type: u1
      doc: True if this log is created by AlterReplicaLogDirsRequest and will replace the current log
        of the replica in the future.
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

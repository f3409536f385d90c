meta:
  id: request
  title: Request frame
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - messages/add_offsets_to_txn_request
  - messages/add_partitions_to_txn_request
  - messages/add_raft_voter_request
  - messages/allocate_producer_ids_request
  - messages/alter_client_quotas_request
  - messages/alter_configs_request
  - messages/alter_partition_reassignments_request
  - messages/alter_partition_request
  - messages/alter_replica_log_dirs_request
  - messages/alter_user_scram_credentials_request
  - messages/api_versions_request
  - messages/assign_replicas_to_dirs_request
  - messages/begin_quorum_epoch_request
  - messages/broker_heartbeat_request
  - messages/broker_registration_request
  - messages/consumer_group_describe_request
  - messages/consumer_group_heartbeat_request
  - messages/controlled_shutdown_request
  - messages/controller_registration_request
  - messages/create_acls_request
  - messages/create_delegation_token_request
  - messages/create_partitions_request
  - messages/create_topics_request
  - messages/delete_acls_request
  - messages/delete_groups_request
  - messages/delete_records_request
  - messages/delete_share_group_state_request
  - messages/delete_topics_request
  - messages/describe_acls_request
  - messages/describe_client_quotas_request
  - messages/describe_cluster_request
  - messages/describe_configs_request
  - messages/describe_delegation_token_request
  - messages/describe_groups_request
  - messages/describe_log_dirs_request
  - messages/describe_producers_request
  - messages/describe_quorum_request
  - messages/describe_topic_partitions_request
  - messages/describe_transactions_request
  - messages/describe_user_scram_credentials_request
  - messages/elect_leaders_request
  - messages/end_quorum_epoch_request
  - messages/end_txn_request
  - messages/envelope_request
  - messages/expire_delegation_token_request
  - messages/fetch_request
  - messages/fetch_snapshot_request
  - messages/find_coordinator_request
  - messages/get_telemetry_subscriptions_request
  - messages/heartbeat_request
  - messages/incremental_alter_configs_request
  - messages/init_producer_id_request
  - messages/initialize_share_group_state_request
  - messages/join_group_request
  - messages/leader_and_isr_request
  - messages/leave_group_request
  - messages/list_client_metrics_resources_request
  - messages/list_groups_request
  - messages/list_offsets_request
  - messages/list_partition_reassignments_request
  - messages/list_transactions_request
  - messages/metadata_request
  - messages/offset_commit_request
  - messages/offset_delete_request
  - messages/offset_fetch_request
  - messages/offset_for_leader_epoch_request
  - messages/produce_request
  - messages/push_telemetry_request
  - messages/read_share_group_state_request
  - messages/read_share_group_state_summary_request
  - messages/remove_raft_voter_request
  - messages/renew_delegation_token_request
  - messages/sasl_authenticate_request
  - messages/sasl_handshake_request
  - messages/share_acknowledge_request
  - messages/share_fetch_request
  - messages/share_group_describe_request
  - messages/share_group_heartbeat_request
  - messages/stop_replica_request
  - messages/sync_group_request
  - messages/tagged_field
  - messages/txn_offset_commit_request
  - messages/unregister_broker_request
  - messages/update_features_request
  - messages/update_metadata_request
  - messages/update_raft_voter_request
  - messages/vote_request
  - messages/write_share_group_state_request
  - messages/write_txn_markers_request
doc: 'A request without its 4-byte size: its header, then the body its API key and version name.'
doc-ref: RequestHeader.json
seq:
- id: header
  type: request_header
  doc: The request header.
- id: body
  doc: The request body.
  type:
    switch-on: header.request_api_key
    cases:
      0: produce_request(header.request_api_version)
      1: fetch_request(header.request_api_version)
      2: list_offsets_request(header.request_api_version)
      3: metadata_request(header.request_api_version)
      4: leader_and_isr_request(header.request_api_version)
      5: stop_replica_request(header.request_api_version)
      6: update_metadata_request(header.request_api_version)
      7: controlled_shutdown_request(header.request_api_version)
      8: offset_commit_request(header.request_api_version)
      9: offset_fetch_request(header.request_api_version)
      10: find_coordinator_request(header.request_api_version)
      11: join_group_request(header.request_api_version)
      12: heartbeat_request(header.request_api_version)
      13: leave_group_request(header.request_api_version)
      14: sync_group_request(header.request_api_version)
      15: describe_groups_request(header.request_api_version)
      16: list_groups_request(header.request_api_version)
      17: sasl_handshake_request(header.request_api_version)
      18: api_versions_request(header.request_api_version)
      19: create_topics_request(header.request_api_version)
      20: delete_topics_request(header.request_api_version)
      21: delete_records_request(header.request_api_version)
      22: init_producer_id_request(header.request_api_version)
      23: offset_for_leader_epoch_request(header.request_api_version)
      24: add_partitions_to_txn_request(header.request_api_version)
      25: add_offsets_to_txn_request(header.request_api_version)
      26: end_txn_request(header.request_api_version)
      27: write_txn_markers_request(header.request_api_version)
      28: txn_offset_commit_request(header.request_api_version)
      29: describe_acls_request(header.request_api_version)
      30: create_acls_request(header.request_api_version)
      31: delete_acls_request(header.request_api_version)
      32: describe_configs_request(header.request_api_version)
      33: alter_configs_request(header.request_api_version)
      34: alter_replica_log_dirs_request(header.request_api_version)
      35: describe_log_dirs_request(header.request_api_version)
      36: sasl_authenticate_request(header.request_api_version)
      37: create_partitions_request(header.request_api_version)
      38: create_delegation_token_request(header.request_api_version)
      39: renew_delegation_token_request(header.request_api_version)
      40: expire_delegation_token_request(header.request_api_version)
      41: describe_delegation_token_request(header.request_api_version)
      42: delete_groups_request(header.request_api_version)
      43: elect_leaders_request(header.request_api_version)
      44: incremental_alter_configs_request(header.request_api_version)
      45: alter_partition_reassignments_request(header.request_api_version)
      46: list_partition_reassignments_request(header.request_api_version)
      47: offset_delete_request(header.request_api_version)
      48: describe_client_quotas_request(header.request_api_version)
      49: alter_client_quotas_request(header.request_api_version)
      50: describe_user_scram_credentials_request(header.request_api_version)
      51: alter_user_scram_credentials_request(header.request_api_version)
      52: vote_request(header.request_api_version)
      53: begin_quorum_epoch_request(header.request_api_version)
      54: end_quorum_epoch_request(header.request_api_version)
      55: describe_quorum_request(header.request_api_version)
      56: alter_partition_request(header.request_api_version)
      57: update_features_request(header.request_api_version)
      58: envelope_request(header.request_api_version)
      59: fetch_snapshot_request(header.request_api_version)
      60: describe_cluster_request(header.request_api_version)
      61: describe_producers_request(header.request_api_version)
      62: broker_registration_request(header.request_api_version)
      63: broker_heartbeat_request(header.request_api_version)
      64: unregister_broker_request(header.request_api_version)
      65: describe_transactions_request(header.request_api_version)
      66: list_transactions_request(header.request_api_version)
      67: allocate_producer_ids_request(header.request_api_version)
      68: consumer_group_heartbeat_request(header.request_api_version)
      69: consumer_group_describe_request(header.request_api_version)
      70: controller_registration_request(header.request_api_version)
      71: get_telemetry_subscriptions_request(header.request_api_version)
      72: push_telemetry_request(header.request_api_version)
      73: assign_replicas_to_dirs_request(header.request_api_version)
      74: list_client_metrics_resources_request(header.request_api_version)
      75: describe_topic_partitions_request(header.request_api_version)
      76: share_group_heartbeat_request(header.request_api_version)
      77: share_group_describe_request(header.request_api_version)
      78: share_fetch_request(header.request_api_version)
      79: share_acknowledge_request(header.request_api_version)
      80: add_raft_voter_request(header.request_api_version)
      81: remove_raft_voter_request(header.request_api_version)
      82: update_raft_voter_request(header.request_api_version)
      83: initialize_share_group_state_request(header.request_api_version)
      84: read_share_group_state_request(header.request_api_version)
      85: write_share_group_state_request(header.request_api_version)
      86: delete_share_group_state_request(header.request_api_version)
      87: read_share_group_state_summary_request(header.request_api_version)
types:
  request_header:
    doc: RequestHeader (header), versions 0-2; flexible in 2+.
    seq:
    - id: request_api_key
      type: s2
      doc: The API key of this request.
      valid:
        any-of:
        - 0
        - 1
        - 2
        - 3
        - 4
        - 5
        - 6
        - 7
        - 8
        - 9
        - 10
        - 11
        - 12
        - 13
        - 14
        - 15
        - 16
        - 17
        - 18
        - 19
        - 20
        - 21
        - 22
        - 23
        - 24
        - 25
        - 26
        - 27
        - 28
        - 29
        - 30
        - 31
        - 32
        - 33
        - 34
        - 35
        - 36
        - 37
        - 38
        - 39
        - 40
        - 41
        - 42
        - 43
        - 44
        - 45
        - 46
        - 47
        - 48
        - 49
        - 50
        - 51
        - 52
        - 53
        - 54
        - 55
        - 56
        - 57
        - 58
        - 59
        - 60
        - 61
        - 62
        - 63
        - 64
        - 65
        - 66
        - 67
        - 68
        - 69
        - 70
        - 71
        - 72
        - 73
        - 74
        - 75
        - 76
        - 77
        - 78
        - 79
        - 80
        - 81
        - 82
        - 83
        - 84
        - 85
        - 86
        - 87
    - id: request_api_version
      type: s2
      doc: The API version of this request.
      valid:
        min: '[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][request_api_key]'
        max: '[11, 17, 10, 12, 7, 4, 8, 3, 9, 9, 6, 9, 4, 5, 5, 5, 5, 1, 4, 7, 6, 2, 5, 4, 5, 4, 5, 1,
          4, 3, 3, 3, 4, 2, 2, 4, 2, 3, 3, 2, 2, 3, 2, 2, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 2, 3, 2, 0,
          1, 1, 0, 4, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][request_api_key]'
    - id: correlation_id
      type: s4
      doc: The correlation ID of this request.
    - id: len_client_id
      type: s2
      doc: Length in bytes of `client_id`, or -1 for null.
      -lc-size-of: client_id
      -lc-absent: -1
      valid:
        min: -1
      if: header_version >= 1
    - id: client_id
      doc: The client ID string.
      size: len_client_id
      type: str
      encoding: UTF-8
      if: header_version >= 1 and len_client_id >= 0
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: header_version >= 2
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: header_version >= 2
    instances:
      header_version:
        value: '((request_api_key == 7 and request_api_version >= 0 and request_api_version <= 0)) ? 0
          : (request_api_version >= [9, 12, 6, 9, 4, 2, 6, 3, 8, 6, 3, 6, 4, 4, 4, 5, 3, 2, 3, 5, 4, 2,
          2, 4, 3, 3, 3, 1, 3, 2, 2, 2, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 0, 1, 1, 1, 0, 0, 0,
          1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0][request_api_key]) ? 2 : 1'
        doc: 'The header''s version: 2 where the request''s version is flexible, else 1 (0 for ControlledShutdown
          v0).'

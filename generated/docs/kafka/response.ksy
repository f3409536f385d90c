meta:
  id: response
  title: Response frame
  endian: be
  -lc-fills-input: true
  imports:
  - /common/biased_uvarint
  - /common/uvarint
  - messages/add_offsets_to_txn_response
  - messages/add_partitions_to_txn_response
  - messages/add_raft_voter_response
  - messages/allocate_producer_ids_response
  - messages/alter_client_quotas_response
  - messages/alter_configs_response
  - messages/alter_partition_reassignments_response
  - messages/alter_partition_response
  - messages/alter_replica_log_dirs_response
  - messages/alter_user_scram_credentials_response
  - messages/api_versions_response
  - messages/assign_replicas_to_dirs_response
  - messages/begin_quorum_epoch_response
  - messages/broker_heartbeat_response
  - messages/broker_registration_response
  - messages/consumer_group_describe_response
  - messages/consumer_group_heartbeat_response
  - messages/controlled_shutdown_response
  - messages/controller_registration_response
  - messages/create_acls_response
  - messages/create_delegation_token_response
  - messages/create_partitions_response
  - messages/create_topics_response
  - messages/delete_acls_response
  - messages/delete_groups_response
  - messages/delete_records_response
  - messages/delete_share_group_state_response
  - messages/delete_topics_response
  - messages/describe_acls_response
  - messages/describe_client_quotas_response
  - messages/describe_cluster_response
  - messages/describe_configs_response
  - messages/describe_delegation_token_response
  - messages/describe_groups_response
  - messages/describe_log_dirs_response
  - messages/describe_producers_response
  - messages/describe_quorum_response
  - messages/describe_topic_partitions_response
  - messages/describe_transactions_response
  - messages/describe_user_scram_credentials_response
  - messages/elect_leaders_response
  - messages/end_quorum_epoch_response
  - messages/end_txn_response
  - messages/envelope_response
  - messages/expire_delegation_token_response
  - messages/fetch_response
  - messages/fetch_snapshot_response
  - messages/find_coordinator_response
  - messages/get_telemetry_subscriptions_response
  - messages/heartbeat_response
  - messages/incremental_alter_configs_response
  - messages/init_producer_id_response
  - messages/initialize_share_group_state_response
  - messages/join_group_response
  - messages/leader_and_isr_response
  - messages/leave_group_response
  - messages/list_client_metrics_resources_response
  - messages/list_groups_response
  - messages/list_offsets_response
  - messages/list_partition_reassignments_response
  - messages/list_transactions_response
  - messages/metadata_response
  - messages/offset_commit_response
  - messages/offset_delete_response
  - messages/offset_fetch_response
  - messages/offset_for_leader_epoch_response
  - messages/produce_response
  - messages/push_telemetry_response
  - messages/read_share_group_state_response
  - messages/read_share_group_state_summary_response
  - messages/remove_raft_voter_response
  - messages/renew_delegation_token_response
  - messages/sasl_authenticate_response
  - messages/sasl_handshake_response
  - messages/share_acknowledge_response
  - messages/share_fetch_response
  - messages/share_group_describe_response
  - messages/share_group_heartbeat_response
  - messages/stop_replica_response
  - messages/sync_group_response
  - messages/tagged_field
  - messages/txn_offset_commit_response
  - messages/unregister_broker_response
  - messages/update_features_response
  - messages/update_metadata_response
  - messages/update_raft_voter_response
  - messages/vote_response
  - messages/write_share_group_state_response
  - messages/write_txn_markers_response
doc: 'A response without its 4-byte size: its header, then the body of the API key and version it answers,
  which the caller gives (a response does not say).'
doc-ref: ResponseHeader.json
params:
- id: api_key
  type: s2
  doc: The API key of the request this answers.
- id: api_version
  type: s2
  doc: The version of the request this answers.
seq:
- id: header
  type: response_header(header_version)
  doc: The response header.
- id: body
  doc: The response body.
  type:
    switch-on: '(api_key >= 0 and api_key <= 87 and api_version >= [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][api_key] and api_version <= [11, 17, 10, 12, 7, 4, 8, 3, 9,
      9, 6, 9, 4, 5, 5, 5, 5, 1, 4, 7, 6, 2, 5, 4, 5, 4, 5, 1, 4, 3, 3, 3, 4, 2, 2, 4, 2, 3, 3, 2, 2,
      3, 2, 2, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 2, 3, 2, 0, 1, 1, 0, 4, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][api_key]) ? api_key : -1'
    cases:
      0: produce_response(api_version)
      1: fetch_response(api_version)
      2: list_offsets_response(api_version)
      3: metadata_response(api_version)
      4: leader_and_isr_response(api_version)
      5: stop_replica_response(api_version)
      6: update_metadata_response(api_version)
      7: controlled_shutdown_response(api_version)
      8: offset_commit_response(api_version)
      9: offset_fetch_response(api_version)
      10: find_coordinator_response(api_version)
      11: join_group_response(api_version)
      12: heartbeat_response(api_version)
      13: leave_group_response(api_version)
      14: sync_group_response(api_version)
      15: describe_groups_response(api_version)
      16: list_groups_response(api_version)
      17: sasl_handshake_response(api_version)
      18: api_versions_response(api_version)
      19: create_topics_response(api_version)
      20: delete_topics_response(api_version)
      21: delete_records_response(api_version)
      22: init_producer_id_response(api_version)
      23: offset_for_leader_epoch_response(api_version)
      24: add_partitions_to_txn_response(api_version)
      25: add_offsets_to_txn_response(api_version)
      26: end_txn_response(api_version)
      27: write_txn_markers_response(api_version)
      28: txn_offset_commit_response(api_version)
      29: describe_acls_response(api_version)
      30: create_acls_response(api_version)
      31: delete_acls_response(api_version)
      32: describe_configs_response(api_version)
      33: alter_configs_response(api_version)
      34: alter_replica_log_dirs_response(api_version)
      35: describe_log_dirs_response(api_version)
      36: sasl_authenticate_response(api_version)
      37: create_partitions_response(api_version)
      38: create_delegation_token_response(api_version)
      39: renew_delegation_token_response(api_version)
      40: expire_delegation_token_response(api_version)
      41: describe_delegation_token_response(api_version)
      42: delete_groups_response(api_version)
      43: elect_leaders_response(api_version)
      44: incremental_alter_configs_response(api_version)
      45: alter_partition_reassignments_response(api_version)
      46: list_partition_reassignments_response(api_version)
      47: offset_delete_response(api_version)
      48: describe_client_quotas_response(api_version)
      49: alter_client_quotas_response(api_version)
      50: describe_user_scram_credentials_response(api_version)
      51: alter_user_scram_credentials_response(api_version)
      52: vote_response(api_version)
      53: begin_quorum_epoch_response(api_version)
      54: end_quorum_epoch_response(api_version)
      55: describe_quorum_response(api_version)
      56: alter_partition_response(api_version)
      57: update_features_response(api_version)
      58: envelope_response(api_version)
      59: fetch_snapshot_response(api_version)
      60: describe_cluster_response(api_version)
      61: describe_producers_response(api_version)
      62: broker_registration_response(api_version)
      63: broker_heartbeat_response(api_version)
      64: unregister_broker_response(api_version)
      65: describe_transactions_response(api_version)
      66: list_transactions_response(api_version)
      67: allocate_producer_ids_response(api_version)
      68: consumer_group_heartbeat_response(api_version)
      69: consumer_group_describe_response(api_version)
      70: controller_registration_response(api_version)
      71: get_telemetry_subscriptions_response(api_version)
      72: push_telemetry_response(api_version)
      73: assign_replicas_to_dirs_response(api_version)
      74: list_client_metrics_resources_response(api_version)
      75: describe_topic_partitions_response(api_version)
      76: share_group_heartbeat_response(api_version)
      77: share_group_describe_response(api_version)
      78: share_fetch_response(api_version)
      79: share_acknowledge_response(api_version)
      80: add_raft_voter_response(api_version)
      81: remove_raft_voter_response(api_version)
      82: update_raft_voter_response(api_version)
      83: initialize_share_group_state_response(api_version)
      84: read_share_group_state_response(api_version)
      85: write_share_group_state_response(api_version)
      86: delete_share_group_state_response(api_version)
      87: read_share_group_state_summary_response(api_version)
types:
  response_header:
    doc: ResponseHeader (header), versions 0-1; flexible in 1+.
    seq:
    - id: correlation_id
      type: s4
      doc: The correlation ID of this response.
    - id: num_tagged_fields
      type: uvarint(32)
      doc: Number of tagged fields.
      -lc-count-of: tagged_fields
      if: header_version >= 1
    - id: tagged_fields
      type: tagged_field
      repeat: expr
      repeat-expr: num_tagged_fields.value
      doc: 'The tagged fields, in the order written: each its tag, size and bytes.'
      if: header_version >= 1
    params:
    - id: header_version
      type: u1
      doc: The header's version.
instances:
  header_version:
    value: '((api_key == 18 and api_version >= 0)) ? 0 : (api_key >= 0 and api_key <= 87 and api_version
      >= [9, 12, 6, 9, 4, 2, 6, 3, 8, 6, 3, 6, 4, 4, 4, 5, 3, 2, 3, 5, 4, 2, 2, 4, 3, 3, 3, 1, 3, 2, 2,
      2, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][api_key]) ? 1 : 0'
    doc: 'The header''s version: 1 where the response''s version is flexible, else 0 (always 0 for ApiVersions).'

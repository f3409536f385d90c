'use strict'
// kafka.request (encode) through kafkajs's own request builders: one hand-written function per API
// version (src/protocol/requests/<api>/v<N>/request.js) that takes arguments of kafkajs's own names
// (`groupGenerationId`, `groupProtocols`) and writes the body, framed by kafkajs's request.js (the
// header: api key, version, correlation id, client id). This is how kafkajs's client writes every
// request it sends.
//
// The vector's value names its fields as Kafka's message specs do, so each API's arguments are
// named here field by field (ARGS): a spec field of the version that has no argument there is a
// field kafkajs cannot write, and the vector is `unsupported`, naming it. Every byte is kafkajs's.
// kafkajs reads no request, so `kafka.request` is encode only.

const Encoder = require('kafkajs/src/protocol/encoder')
const Request = require('kafkajs/src/protocol/request')
const spec = require('./specs')

const REQUEST = 'kafka.request'

// A vector kafkajs cannot write (an API version it has no builder of, or a field it takes no
// argument for).
class NotWritten extends Error {}

// kafkajs's arguments, by kafkajs's API name, for the spec fields of each version (lower_snake):
//   'name'             the argument of that name, the field's value as kafkajs takes it;
//   ['name', {...}]    a list of structs: each element's fields named by the inner table;
//   ['name', 'inner']  a list of numbers, each handed over as { inner: n };
//   '.'                (in an inner table) a struct of one field, handed over as that field's value;
//   [ARGUMENT] for the builders that take one value, not an object of arguments (DeleteGroups).
const ARGUMENT = Symbol('the builder takes this value itself')
// An ACL filter (DescribeAcls' body, each of DeleteAcls' filters) as kafkajs's builders take it.
const ACL_FILTER = {
  resource_type_filter: 'resourceType',
  resource_name_filter: 'resourceName',
  pattern_type_filter: 'resourcePatternType',
  principal_filter: 'principal',
  host_filter: 'host',
  operation: 'operation',
  permission_type: 'permissionType',
}
// Where a version's builder names an argument otherwise, "key/version" -> its table.
const ARGS_OF_VERSION = { '10/0': { key: 'groupId' } } // FindCoordinator v0
const ARGS = {
  AddOffsetsToTxn: { transactional_id: 'transactionalId', producer_id: 'producerId', producer_epoch: 'producerEpoch', group_id: 'groupId' },
  AddPartitionsToTxn: {
    v3_and_below_transactional_id: 'transactionalId',
    v3_and_below_producer_id: 'producerId',
    v3_and_below_producer_epoch: 'producerEpoch',
    v3_and_below_topics: ['topics', { name: 'topic', partitions: 'partitions' }],
  },
  AlterConfigs: {
    resources: ['resources', { resource_type: 'type', resource_name: 'name', configs: ['configEntries', { name: 'name', value: 'value' }] }],
    validate_only: 'validateOnly',
  },
  AlterPartitionReassignments: {
    timeout_ms: 'timeout',
    topics: ['topics', { name: 'topic', partitions: ['partitionAssignment', { partition_index: 'partition', replicas: 'replicas' }] }],
  },
  ApiVersions: {},
  CreateAcls: {
    creations: ['creations', {
      resource_type: 'resourceType',
      resource_name: 'resourceName',
      resource_pattern_type: 'resourcePatternType',
      principal: 'principal',
      host: 'host',
      operation: 'operation',
      permission_type: 'permissionType',
    }],
  },
  CreatePartitions: {
    topics: ['topicPartitions', { name: 'topic', count: 'count', assignments: ['assignments', { broker_ids: '.' }] }],
    timeout_ms: 'timeout',
    validate_only: 'validateOnly',
  },
  CreateTopics: {
    topics: ['topics', {
      name: 'topic',
      num_partitions: 'numPartitions',
      replication_factor: 'replicationFactor',
      assignments: ['replicaAssignment', { partition_index: 'partition', broker_ids: 'replicas' }],
      configs: ['configEntries', { name: 'name', value: 'value' }],
    }],
    timeout_ms: 'timeout',
    validate_only: 'validateOnly',
  },
  DeleteAcls: { filters: ['filters', ACL_FILTER] },
  DeleteGroups: { groups_names: ARGUMENT },
  DeleteRecords: {
    topics: ['topics', { name: 'topic', partitions: ['partitions', { partition_index: 'partition', offset: 'offset' }] }],
    timeout_ms: 'timeout',
  },
  DeleteTopics: { topic_names: 'topics', timeout_ms: 'timeout' },
  DescribeConfigs: {
    resources: ['resources', { resource_type: 'type', resource_name: 'name', configuration_keys: 'configNames' }],
    include_synonyms: 'includeSynonyms',
  },
  DescribeAcls: ACL_FILTER,
  DescribeGroups: { groups: 'groupIds' },
  EndTxn: { transactional_id: 'transactionalId', producer_id: 'producerId', producer_epoch: 'producerEpoch', committed: 'transactionResult' },
  Fetch: {
    replica_id: 'replicaId',
    max_wait_ms: 'maxWaitTime',
    min_bytes: 'minBytes',
    max_bytes: 'maxBytes',
    isolation_level: 'isolationLevel',
    session_id: 'sessionId',
    session_epoch: 'sessionEpoch',
    topics: ['topics', {
      topic: 'topic',
      partitions: ['partitions', {
        partition: 'partition',
        current_leader_epoch: 'currentLeaderEpoch',
        fetch_offset: 'fetchOffset',
        log_start_offset: 'logStartOffset',
        partition_max_bytes: 'maxBytes',
      }],
    }],
    forgotten_topics_data: ['forgottenTopics', { topic: 'topic', partitions: 'partitions' }],
    rack_id: 'rackId',
  },
  GroupCoordinator: { key: 'coordinatorKey', key_type: 'coordinatorType' }, // FindCoordinator (kafkajs's old name)
  Heartbeat: { group_id: 'groupId', generation_id: 'groupGenerationId', member_id: 'memberId', group_instance_id: 'groupInstanceId' },
  InitProducerId: { transactional_id: 'transactionalId', transaction_timeout_ms: 'transactionTimeout' },
  JoinGroup: {
    group_id: 'groupId',
    session_timeout_ms: 'sessionTimeout',
    rebalance_timeout_ms: 'rebalanceTimeout',
    member_id: 'memberId',
    group_instance_id: 'groupInstanceId',
    protocol_type: 'protocolType',
    protocols: ['groupProtocols', { name: 'name', metadata: 'metadata' }],
  },
  LeaveGroup: { group_id: 'groupId', member_id: 'memberId', members: ['members', { member_id: 'memberId', group_instance_id: 'groupInstanceId' }] },
  ListGroups: {},
  ListPartitionReassignments: { timeout_ms: 'timeout', topics: ['topics', { name: 'topic', partition_indexes: 'partitions' }] },
  ListOffsets: {
    replica_id: 'replicaId',
    isolation_level: 'isolationLevel',
    topics: ['topics', {
      name: 'topic',
      partitions: ['partitions', { partition_index: 'partition', timestamp: 'timestamp', max_num_offsets: 'maxNumOffsets' }],
    }],
  },
  Metadata: { topics: ['topics', { name: '.' }], allow_auto_topic_creation: 'allowAutoTopicCreation' },
  OffsetCommit: {
    group_id: 'groupId',
    generation_id_or_member_epoch: 'groupGenerationId',
    member_id: 'memberId',
    retention_time_ms: 'retentionTime',
    topics: ['topics', {
      name: 'topic',
      partitions: ['partitions', {
        partition_index: 'partition',
        committed_offset: 'offset',
        commit_timestamp: 'timestamp',
        committed_metadata: 'metadata',
      }],
    }],
  },
  OffsetFetch: { group_id: 'groupId', topics: ['topics', { name: 'topic', partition_indexes: ['partitions', 'partition'] }] },
  SaslAuthenticate: { auth_bytes: 'authBytes' },
  SaslHandshake: { mechanism: 'mechanism' },
  TxnOffsetCommit: {
    transactional_id: 'transactionalId',
    group_id: 'groupId',
    producer_id: 'producerId',
    producer_epoch: 'producerEpoch',
    topics: ['topics', {
      name: 'topic',
      partitions: ['partitions', { partition_index: 'partition', committed_offset: 'offset', committed_metadata: 'metadata' }],
    }],
  },
  SyncGroup: {
    group_id: 'groupId',
    generation_id: 'generationId',
    member_id: 'memberId',
    group_instance_id: 'groupInstanceId',
    assignments: ['groupAssignment', { member_id: 'memberId', assignment: 'memberAssignment' }],
  },
}

// The APIs whose builders take no vector's value, and why.
const NOT_MAPPED = {
  Produce: "kafkajs's Produce builders make the record batches themselves, from messages, with times and " +
    'attributes of their own: no batch of a vector can be handed over',
}

// kafkajs's callers hand SaslAuthenticate's builder the auth bytes already framed with their
// length (its SASL mechanisms write them with `writeBytes`); the builder writes them as they are.
const FRAMED = { SaslAuthenticate: { auth_bytes: true } }

// ---- canonical JSON -> kafkajs's values ----

const fromHex = text => (text == null ? null : Buffer.from(text, 'hex'))

// One value of the spec's type as kafkajs's builders take it.
function primitive(value, type) {
  if (value === null || value === undefined) return null
  switch (type) {
    case 'bool':
      return Boolean(value)
    case 'int64':
      return String(value) // kafkajs's Long reads decimal text exactly
    case 'bytes':
    case 'uuid':
      return fromHex(value)
    default:
      return value
  }
}

// The arguments of a struct of `fields` (those of `version`) whose canonical JSON is `value`.
function args(specFile, fields, version, value, table, where) {
  const out = {}
  for (const field of spec.placed(fields, version)) {
    const name = spec.snake(field.name)
    const here = `${where}.${name}`
    const target = table[name]
    if (target === undefined) throw new NotWritten(`kafkajs takes no argument for ${here}`)
    if (field.type === 'records') throw new NotWritten(`kafkajs writes ${here} from messages of its own`)
    const made = fieldValue(specFile, field, version, value[name], target, here)
    if (target === ARGUMENT || target === '.') {
      if (spec.placed(fields, version).length !== 1) throw new Error(`${where}: '.' or ARGUMENT names a struct's only field`)
      return made
    }
    out[Array.isArray(target) ? target[0] : target] = made
  }
  return out
}

function fieldValue(specFile, field, version, value, target, where) {
  const element = spec.elementType(field.type)
  if (element === null) return primitive(value, field.type)
  if (value === null || value === undefined) return null
  if (spec.PRIMITIVES.has(element)) {
    // a list of strings or bytes holds each as {value} in the canonical JSON
    const items = value.map(e => primitive(e !== null && typeof e === 'object' && 'value' in e ? e.value : e, element))
    const inner = Array.isArray(target) ? target[1] : null
    return inner ? items.map(n => ({ [inner]: n })) : items
  }
  if (!Array.isArray(target)) throw new NotWritten(`${where}: a list of structs kafkajs takes in another shape`)
  const fields = spec.structFields(specFile, field)
  return value.map(e => args(specFile, fields, version, e, target[1], `${where}[]`))
}

// kafkajs's builders of flexible versions write no tagged field, known or unknown: a vector that
// holds one is not written.
function taggedFieldsNone(value, fields, version, where) {
  if ((value.tagged_fields || []).length) throw new NotWritten(`kafkajs writes no tagged fields (${where})`)
  for (const field of fields) {
    const name = spec.snake(field.name)
    if (spec.inVersions(field.taggedVersions, version) && value[name] != null) {
      throw new NotWritten(`kafkajs writes no tagged field (${where}.${name})`)
    }
  }
}

// ---- the testee's part ----

// What `testee.js` needs of kafka.request: its encode handler; null without the specs.
function requestFormat(specsDir = spec.specsFolder()) {
  const specs = spec.loadSpecs(specsDir, 'Request.json')
  if (!specs) return null
  const files = spec.versionFiles('request.js')
  return { encode: value => encodeRequest(specs, files, value) }
}

async function encodeRequest(specs, files, value) {
  const { header, body } = value
  const key = header.request_api_key
  const version = header.request_api_version
  const specFile = specs.get(key)
  const builder = files.get(`${key}/${version}`)
  if (!specFile || !builder || !spec.inVersions(specFile.validVersions, version)) {
    throw new NotWritten(`kafkajs has no builder of API ${key} version ${version}`)
  }
  // kafkajs frames every request with header v1; the builders of flexible versions write the
  // header's tagged fields (none) as the first byte of their body, which makes header v2
  if (header.header_version === 2 && (header.tagged_fields || []).length) {
    throw new NotWritten("kafkajs writes no tagged fields in a request's header")
  }
  if (header.header_version === 0) throw new NotWritten('kafkajs writes request header v1, not v0')
  if (spec.isFlexible(specFile, version)) taggedFieldsNone(body, specFile.fields, version, 'body')
  const table = ARGS_OF_VERSION[`${key}/${version}`] || ARGS[builder.name]
  if (!table) throw new NotWritten(NOT_MAPPED[builder.name] || `kafkajs's ${builder.name} builder is not mapped here`)
  let made = args(specFile, specFile.fields, version, body, table, 'body')
  for (const name of Object.keys(FRAMED[builder.name] || {})) {
    const arg = table[name]
    if (made[arg] != null) made = { ...made, [arg]: new Encoder().writeBytes(made[arg]).buffer }
  }
  const request = require(builder.file)(made)
  const framed = await Request({ correlationId: header.correlation_id, clientId: header.client_id, request })
  return framed.buffer.slice(4) // the frame without its size, as the vectors hold it
}

module.exports = { REQUEST, requestFormat, NotWritten }

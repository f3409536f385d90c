'use strict'
// kafka.request (encode) through kafkajs's own request builders: one hand-written function per API
// version (src/protocol/requests/<api>/v<N>/request.js) that takes arguments of kafkajs's own names
// (`groupGenerationId`, `groupProtocols`) and writes the body, framed by kafkajs's request.js (the
// header: api key, version, correlation id, client id). This is how kafkajs's client writes every
// request it sends.
//
// The vector's value names its fields as Kafka's message specs do, so each API's arguments are
// named here field by field (ARGS): a spec field of the version that has no argument there is a
// field kafkajs cannot write, and the vector is `unsupported`, naming it. Produce's builders make
// the record batches themselves: its records go over as messages (produceArgs). Every byte is
// kafkajs's. kafkajs reads no request, so `kafka.request` is encode only.

const Encoder = require('kafkajs/src/protocol/encoder')
const Request = require('kafkajs/src/protocol/request')
const { CODEC_BY_NAME: CODECS, fromHex, headersToObject } = require('./records')
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

// kafkajs's callers hand SaslAuthenticate's builder the auth bytes already framed with their
// length (its SASL mechanisms write them with `writeBytes`); the builder writes them as they are.
const FRAMED = { SaslAuthenticate: ['authBytes'] }

// ---- canonical JSON -> kafkajs's values ----

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
    case 'float64': // a NaN or an infinity comes by name (canonical JSON has no number for them)
      return typeof value === 'string' ? Number(value) : value
    default:
      return value
  }
}

// The arguments of a struct of `fields` (those of `version`) whose canonical JSON is `value`.
function args(specFile, fields, version, value, table, where) {
  const out = {}
  const present = spec.placed(fields, version)
  for (const field of present) {
    const name = spec.snake(field.name)
    const here = `${where}.${name}`
    const target = table[name]
    if (target === undefined) throw new NotWritten(`kafkajs takes no argument for ${here}`)
    if (field.type === 'records') throw new NotWritten(`kafkajs writes ${here} from messages of its own`)
    const made = fieldValue(specFile, field, version, value[name], target, here)
    if (target === ARGUMENT || target === '.') {
      if (present.length !== 1) throw new Error(`${where}: '.' or ARGUMENT names a struct's only field`)
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

// ---- Produce: kafkajs makes the record batches ----

// A Produce request's arguments. kafkajs's builders make each partition's record batch
// themselves, from messages (key, value, headers, timestamp: what producer.send takes), with the
// producer id, epoch and codec of the request, a first offset and partition leader epoch of 0,
// offset deltas 0, 1, 2..., its first and max timestamps from the messages', and the
// transactional bit exactly when the request has a transactional id. A vector whose batch is
// not what kafkajs makes of its records is not written, naming what differs.
function produceArgs(body, version) {
  const batches = []
  const topicData = (body.topic_data || []).map((topic, t) => ({
    topic: topic.name,
    partitions: (topic.partition_data || []).map((partition, p) => {
      const where = `body.topic_data[${t}].partition_data[${p}].records`
      const batch = onlyBatch(partition.records, version, where)
      batches.push([batch, where])
      return { partition: partition.index, firstSequence: batch.base_sequence, messages: messages(batch, body, where) }
    }),
  }))
  const [first] = batches.length ? batches[0] : [{ producer_id: '-1', producer_epoch: 0, attributes: { compression: 'none' } }]
  for (const [batch, where] of batches) {
    for (const [field, value] of [['producer_id', first.producer_id], ['producer_epoch', first.producer_epoch]]) {
      if (String(batch[field]) !== String(value)) throw new NotWritten(`kafkajs writes one ${field} for all of a request's batches (${where})`)
    }
    if (batch.attributes.compression !== first.attributes.compression) {
      throw new NotWritten(`kafkajs writes one codec for all of a request's batches (${where})`)
    }
  }
  return {
    acks: body.acks,
    timeout: body.timeout_ms,
    transactionalId: body.transactional_id,
    producerId: String(first.producer_id),
    producerEpoch: first.producer_epoch,
    compression: CODECS[first.attributes.compression],
    topicData,
  }
}

// The one record batch of a partition's records, as kafkajs's builder of `version` can make it.
function onlyBatch(records, version, where) {
  if (records == null) throw new NotWritten(`kafkajs writes no null records (${where})`)
  if (version < 3) throw new NotWritten('kafkajs\'s Produce v0-2 builders write legacy message sets with offsets and times of their own')
  if (records.entries.length !== 1 || records.partial_entry) {
    throw new NotWritten(`kafkajs writes one record batch per partition (${where})`)
  }
  const batch = records.entries[0]
  const a = batch.attributes
  const fixed = [
    ['magic', batch.magic, 2], ['base_offset', String(batch.base_offset), '0'],
    ['partition_leader_epoch', batch.partition_leader_epoch, 0], ['attributes.is_control', a.is_control, false],
    ['attributes.timestamp_type', a.timestamp_type, 'create_time'], ['attributes.has_delete_horizon', a.has_delete_horizon, false],
    ['attributes.reserved', a.reserved, 0],
  ]
  for (const [field, value, theirs] of fixed) {
    if (value !== theirs) throw new NotWritten(`kafkajs writes ${field} ${JSON.stringify(theirs)} (${where})`)
  }
  if (!Object.hasOwn(CODECS, a.compression)) throw new NotWritten(`kafkajs cannot write codec ${a.compression} (${where})`)
  return batch
}

// kafkajs's messages of a batch: each record's key, value, headers and absolute timestamp (text,
// as producer.send takes it).
function messages(batch, body, where) {
  if (batch.attributes.is_transactional !== (body.transactional_id != null)) {
    throw new NotWritten(`kafkajs marks a batch transactional exactly when the request has a transactional id (${where})`)
  }
  if (!batch.records.length) throw new NotWritten(`kafkajs stamps a batch without records with the time of writing (${where})`)
  const stamps = batch.records.map(r => BigInt(batch.base_timestamp) + BigInt(r.timestamp_delta))
  const least = stamps.reduce((x, y) => (y < x ? y : x))
  const most = stamps.reduce((x, y) => (y > x ? y : x))
  if (least !== BigInt(batch.base_timestamp) || most !== BigInt(batch.max_timestamp)) {
    throw new NotWritten(`kafkajs takes a batch's first and max timestamps from its records' (${where})`)
  }
  return batch.records.map((record, i) => {
    const here = `${where}.entries[0].records[${i}]`
    if (record.attributes !== 0) throw new NotWritten(`kafkajs writes record attributes 0 (${here})`)
    if (record.offset_delta !== i) throw new NotWritten(`kafkajs writes offset deltas 0, 1, 2... (${here})`)
    if (stamps[i] === 0n) throw new NotWritten(`kafkajs stamps a record of timestamp 0 with the time of writing (${here})`)
    const headers = headersToObject(record.headers)
    if (headers === null) throw new NotWritten(`kafkajs keeps headers in an object, which cannot keep their order (${here})`)
    return { key: fromHex(record.key), value: fromHex(record.value), headers, timestamp: String(stamps[i]) }
  })
}

// ---- the testee's part ----

// What `testee.js` needs of kafka.request: its encode handler; null without the specs.
function requestFormat(specsDir = spec.specsFolder()) {
  const specs = spec.loadSpecs(specsDir, 'Request.json', REQUEST)
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
  let made
  if (builder.name === 'Produce') {
    made = produceArgs(body, version)
  } else {
    const table = ARGS_OF_VERSION[`${key}/${version}`] || ARGS[builder.name]
    if (!table) throw new NotWritten(`kafkajs's ${builder.name} builder is not mapped here`)
    made = args(specFile, specFile.fields, version, body, table, 'body')
  }
  for (const arg of FRAMED[builder.name] || []) {
    if (made[arg] != null) made = { ...made, [arg]: new Encoder().writeBytes(made[arg]).buffer }
  }
  const request = require(builder.file)(made)
  const framed = await Request({ correlationId: header.correlation_id, clientId: header.client_id, request })
  return framed.buffer.slice(4) // the frame without its size, as the vectors hold it
}

module.exports = { REQUEST, requestFormat, NotWritten }

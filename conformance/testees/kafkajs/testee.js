#!/usr/bin/env node
'use strict'
// Conformance testee (conformance/PROTOCOL.md) for kafka.record_batch_v2, driving kafkajs's OWN
// record batch encoder and decoder (src/protocol/recordBatch/...), for kafka.message_set and
// kafka.record_set (decode only), driving its legacy MessageSet and Fetch decoders (legacy.js), for
// kafka.response (decode, its response readers: protocol.js) and for kafka.request (encode, its
// request builders: requests.js). This file holds no codec logic:
// it only translates between kafkajs's objects and logcodec's canonical JSON, and tells the
// harness what kafkajs cannot report or set (see README.md for every quirk found).
//
//   node conformance/testees/kafkajs/testee.js     (after `npm ci --prefix conformance/testees/kafkajs`)

const readline = require('readline')

const kafkajsVersion = require('kafkajs/package.json').version
const { CompressionTypes, CompressionCodecs } = require('kafkajs')
const Decoder = require('kafkajs/src/protocol/decoder')
const RecordBatchDecoder = require('kafkajs/src/protocol/recordBatch/v0/decoder')
const { RecordBatch, MAGIC_BYTE } = require('kafkajs/src/protocol/recordBatch/v0')
const Record = require('kafkajs/src/protocol/recordBatch/record/v0')
const TimestampTypes = require('kafkajs/src/protocol/timestampTypes')
const errors = require('kafkajs/src/errors')
const legacy = require('./legacy')
const { CODEC_BY_NAME, fromHex, headersToList, headersToObject } = require('./records')
const protocol = require('./protocol')
const requests = require('./requests')

// kafkajs ships gzip only. Snappy comes from kafkajs-snappy, the codec package kafkajs documents,
// registered the documented way. LZ4 (kafkajs-lz4 needs a node-gyp build of the native lz4@0.6) and
// ZSTD (@kafkajs/zstd fails to build) are not installed: kafkajs then throws KafkaJSNotImplemented,
// which this testee answers as `unsupported`.
CompressionCodecs[CompressionTypes.Snappy] = require('kafkajs-snappy')

const FORMAT = 'kafka.record_batch_v2'
// Value paths kafkajs's decoder reads but never returns. `magic` is only copied into each record
// (`record.magicByte`), so a batch without records has none to report; it is given when present.
const UNSUPPORTED_FIELDS = [
  'magic',
  'attributes.reserved',
  'attributes.has_delete_horizon',
  'attributes.compression',
]

class Unsupported extends Error {}

const { Refused, hex } = legacy  // one refusal class for both formats, so one check catches it
// kafkajs reports records' absolute offsets and timestamps (base + delta, added exactly with its
// BigInt-backed Long, as decimal strings); the canonical deltas are the differences.
const delta = (absolute, base) => BigInt(absolute) - BigInt(base)

// ---- decode: bytes -> kafkajs's RecordBatchDecoder -> canonical JSON ----

async function decode(bytes) {
  const decoder = new Decoder(bytes)
  const batch = await RecordBatchDecoder(decoder)
  if (decoder.offset < bytes.length) {
    // RecordBatchDecoder reads one batch and leaves the rest of the buffer to its caller (the
    // fetch loop); the protocol asks for exactly one batch.
    throw new Refused(
      'trailing_bytes',
      `kafkajs decoded one batch of ${decoder.offset} bytes; ${bytes.length - decoder.offset} bytes follow it`
    )
  }
  return batchValue(batch)
}

// A batch as kafkajs's RecordBatchDecoder returns it, as canonical JSON.
function batchValue(batch) {
  if (batch.isControlBatch) {
    throw new Unsupported(
      'kafkajs hands control records over as raw key/value buffers (isControlRecord) and never decodes the transaction marker'
    )
  }
  if (batch.timestampType === TimestampTypes.LOG_APPEND_TIME) {
    throw new Unsupported(
      "under log-append time kafkajs reports the batch's maxTimestamp as every record's timestamp; the records' own timestamp deltas are not available"
    )
  }
  const value = {
    base_offset: String(batch.firstOffset),
    len_batch: null,
    partition_leader_epoch: batch.partitionLeaderEpoch,
    crc: null, // read and discarded: kafkajs does not check CRCs
    attributes: {
      is_control: batch.isControlBatch,
      is_transactional: batch.inTransaction,
      timestamp_type: batch.timestampType === TimestampTypes.LOG_APPEND_TIME ? 'log_append_time' : 'create_time',
    },
    last_offset_delta: batch.lastOffsetDelta,
    base_timestamp: String(batch.firstTimestamp),
    max_timestamp: String(batch.maxTimestamp),
    producer_id: String(batch.producerId),
    producer_epoch: batch.producerEpoch,
    base_sequence: batch.firstSequence,
    num_records: null,
    records: batch.records.map(record => ({
      len_record: null,
      attributes: record.attributes,
      timestamp_delta: String(delta(record.timestamp, batch.firstTimestamp)),
      offset_delta: Number(delta(record.offset, batch.firstOffset)),
      len_key: null,
      key: hex(record.key),
      len_value: null,
      value: hex(record.value),
      num_headers: null,
      headers: headersToList(record.headers).map(h => ({ len_key: null, key: h.key, len_value: null, value: hex(h.value) })),
    })),
  }
  if (batch.records.length > 0) value.magic = batch.records[0].magicByte
  return value
}

// ---- encode: canonical JSON -> kafkajs's Record and RecordBatch encoders -> bytes ----

// kafkajs's headers object of a record's list, or Unsupported where it cannot keep the order.
function headersOf(list) {
  const object = headersToObject(list)
  if (object === null) {
    throw new Unsupported(
      `kafkajs takes headers as an object keyed by header key, which cannot keep the order ${JSON.stringify(list.map(h => h.key))}`
    )
  }
  return object
}

async function encode(value) {
  const attributes = value.attributes
  if (value.magic !== MAGIC_BYTE) throw new Unsupported(`kafkajs always writes magic ${MAGIC_BYTE}`)
  if (attributes.is_control) throw new Unsupported('kafkajs cannot set the control bit')
  if (attributes.timestamp_type !== 'create_time') throw new Unsupported('kafkajs always writes timestamp type create_time')
  if (attributes.has_delete_horizon) throw new Unsupported('kafkajs cannot set the delete-horizon bit')
  if (attributes.reserved !== 0) throw new Unsupported('kafkajs cannot set the reserved attribute bits')
  if (!Object.hasOwn(CODEC_BY_NAME, attributes.compression)) {
    throw new Unsupported(`kafkajs cannot write codec ${JSON.stringify(attributes.compression)}`)
  }
  const records = value.records.map((record, i) => {
    if (record.attributes !== 0) throw new Unsupported(`kafkajs always writes record attributes 0 (record ${i})`)
    return Record({
      offsetDelta: record.offset_delta,
      timestampDelta: record.timestamp_delta,
      key: fromHex(record.key),
      value: fromHex(record.value),
      headers: headersOf(record.headers),
    })
  })
  // last_offset_delta is derived in canonical JSON: when null it is the last record's offset
  // delta (0 without records). kafkajs's RecordBatch takes it as a plain parameter.
  const n = value.records.length
  const lastOffsetDelta =
    value.last_offset_delta != null ? value.last_offset_delta : n ? value.records[n - 1].offset_delta : 0
  const batch = await RecordBatch({
    compression: CODEC_BY_NAME[attributes.compression],
    firstOffset: value.base_offset,
    firstTimestamp: value.base_timestamp,
    maxTimestamp: value.max_timestamp,
    partitionLeaderEpoch: value.partition_leader_epoch,
    lastOffsetDelta,
    transactional: attributes.is_transactional,
    producerId: value.producer_id,
    producerEpoch: value.producer_epoch,
    firstSequence: value.base_sequence,
    records,
  })
  return batch.buffer
}

// ---- the protocol ----

function errorKind(error) {
  if (error instanceof Refused) return error.kind
  if (error instanceof errors.KafkaJSPartialMessageError) return 'truncated'
  if (error instanceof errors.KafkaJSInvalidLongError || error instanceof errors.KafkaJSInvalidVarIntError) {
    return 'invalid_value'
  }
  // zlib (kafkajs's gzip codec) and snappyjs (kafkajs-snappy) report a broken compressed stream.
  if (typeof error.code === 'string' && error.code.startsWith('Z_')) return 'corrupt_compressed'
  if (error.message === 'Invalid Snappy bitstream') return 'corrupt_compressed'
  return null // e.g. a RangeError from reading past a Buffer: kafkajs cannot tell what broke
}

// format -> operation -> handler. kafkajs's legacy MessageSet encoder writes offset -1 (or the index
// inside a wrapper) and the current time, so it cannot write any vector's value: legacy is decode only.
const HANDLERS = {
  [FORMAT]: { decode, encode },
  [legacy.MESSAGE_SET]: { decode: bytes => legacy.decodeMessageSet(bytes) },
  [legacy.RECORD_SET]: { decode: bytes => legacy.decodeRecordSet(bytes, batchValue) },
}
const responses = protocol.responseFormat()
if (responses) HANDLERS[protocol.RESPONSE] = { decode: responses.decode }
const requestFormat = requests.requestFormat()
if (requestFormat) HANDLERS[requests.REQUEST] = { encode: requestFormat.encode }

async function answer(request) {
  const { seq, op, format } = request
  const handler = Object.hasOwn(HANDLERS, format) && Object.hasOwn(HANDLERS[format], op) ? HANDLERS[format][op] : null
  if (!handler) return { seq, ok: false, unsupported: `${op} of ${format}` }
  try {
    if (op === 'decode') return { seq, ok: true, value: await handler(Buffer.from(request.bytes, 'hex'), request.params) }
    return { seq, ok: true, bytes: hex(await handler(request.value)) }
  } catch (error) {
    if (error instanceof Unsupported || error instanceof errors.KafkaJSNotImplemented || error instanceof protocol.NotRead || error instanceof requests.NotWritten) {
      return { seq, ok: false, unsupported: error.message }
    }
    if (!(error instanceof Error)) error = new Error(String(error))
    const message = `${error.name}: ${error.message}`.slice(0, 500)
    return { seq, ok: false, error: { kind: errorKind(error), message } }
  }
}

const send = message => process.stdout.write(JSON.stringify(message) + '\n')

function main() {
  const pending = new Set()
  const lines = readline.createInterface({ input: process.stdin, terminal: false })
  lines.on('line', line => {
    if (!line.trim()) return
    let request
    try {
      request = JSON.parse(line)
    } catch (error) {
      process.stderr.write(`kafkajs testee: not JSON: ${line.slice(0, 200)}\n`)
      return
    }
    if (request.type === 'start') {
      send({
        type: 'started',
        protocol: 1,
        implementation: { name: 'kafkajs', version: kafkajsVersion },
        formats: Object.fromEntries(Object.entries(HANDLERS).map(([f, ops]) => [f, Object.keys(ops).sort()])),
        unsupported_fields: {
          [FORMAT]: UNSUPPORTED_FIELDS,
          [legacy.MESSAGE_SET]: [],
          // a record set's v2 batches lose what kafkajs hides of any v2 batch; kafkajs's fetch
          // decoder drops a cut-off last entry without saying how many bytes it read
          [legacy.RECORD_SET]: UNSUPPORTED_FIELDS.map(p => `entries[].${p}`).concat(['partial_entry']),
          ...(responses ? { [protocol.RESPONSE]: responses.unsupported } : {}),
        },
      })
    } else if (request.type === 'run') {
      // Answers may go out in any order; each carries its seq.
      const job = answer(request).then(reply => {
        try {
          send(reply)
        } catch (error) {
          send({ seq: request.seq, ok: false, error: { kind: null, message: `testee: ${error.message}` } })
        }
      })
      pending.add(job)
      job.finally(() => pending.delete(job))
    } else if (request.type === 'stop') {
      lines.close()
    } else {
      process.stderr.write(`kafkajs testee: unknown request ${JSON.stringify(request.type)}\n`)
    }
  })
  // On stop (or end of input) finish the requests in flight, flush stdout, exit with status 0.
  lines.on('close', () =>
    Promise.all(pending).then(() => process.stdout.write('', () => process.exit(0)))
  )
}

main()

'use strict'
// kafka.message_set and kafka.record_set (decode) through kafkajs's own decoders. No codec logic:
//
// * What a consumer gets is kafkajs's answer: its MessageSet decoder (messageSet/decoder.js) for a
//   message set, its Fetch decoder (requests/fetch/v4/decodeMessages.js, used by Fetch v4 to v11)
//   for a record set. Both return a flat list of messages or records: a compressed wrapper is
//   replaced by its inner messages, with offsets made absolute, and both stop silently where they
//   cannot go on (a cut-off entry, a magic they do not expect).
// * To put that flat list back into the canonical tree, each top-level entry's header is read with
//   kafkajs's own per-entry decoders (message/decoder.js, recordBatch/v0/decoder.js), and a
//   wrapper's inner messages as written with its MessageSet decoder over the value its codec
//   decompressed. Entries the flat list does not reach are missing from the answer, as they are
//   for kafkajs's users.
// * Inner offsets: canonical JSON keeps them as written and defines inner_offset_base as Java does
//   (wrapper offset - last inner offset, when not negative). The answer is kafkajs's absolute offset
//   minus that base: the offset as written when kafkajs follows Java's rule, a difference when not.
// * kafkajs never checks a legacy CRC; derived fields (sizes, CRCs, lengths) are left null.

const Decoder = require('kafkajs/src/protocol/decoder')
const MessageSetDecoder = require('kafkajs/src/protocol/messageSet/decoder')
const MessageDecoder = require('kafkajs/src/protocol/message/decoder')
const RecordBatchDecoder = require('kafkajs/src/protocol/recordBatch/v0/decoder')
const decodeMessages = require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages')
const { lookupCodecByAttributes } = require('kafkajs/src/protocol/message/compression')
const { MAGIC_BYTE } = require('kafkajs/src/protocol/recordBatch/v0')

const MESSAGE_SET = 'kafka.message_set'
const RECORD_SET = 'kafka.record_set'
const CODECS = ['none', 'gzip', 'snappy', 'lz4']
const MAGIC_OFFSET = 16 // the magic byte's place in every entry, legacy or v2

class Refused extends Error {
  constructor(kind, message) {
    super(message)
    this.name = 'Refused'
    this.kind = kind
  }
}

const hex = buffer => (buffer == null ? null : Buffer.from(buffer).toString('hex'))
// A Fetch response's record set after its int32 size, as decodeMessages reads it.
function sizePrefixed(bytes) {
  const prefixed = Buffer.alloc(4 + bytes.length)
  prefixed.writeInt32BE(bytes.length, 0)
  bytes.copy(prefixed, 4)
  return prefixed
}

function attributes(bits) {
  const codec = bits & 0x07
  return {
    reserved: (bits >> 4) & 0x0f,
    timestamp_type: bits & 0x08 ? 'log_append_time' : 'create_time',
    compression: codec < CODECS.length ? CODECS[codec] : codec,
  }
}

function entry(offset, message, value) {
  return {
    offset: String(offset),
    len_message: null,
    message: {
      crc: null,
      magic: message.magicByte,
      attributes: attributes(message.attributes),
      timestamp: message.timestamp === undefined ? null : String(message.timestamp),
      len_key: null,
      key: hex(message.key),
      len_value: null,
      value,
    },
  }
}

// Java's inner_offset_base: magic 1 only, and only when not negative.
function javaBase(magic, wrapperOffset, lastInnerOffset) {
  const base = BigInt(wrapperOffset) - BigInt(lastInnerOffset)
  return magic === 1 && base >= 0n ? base : 0n
}

// One top-level legacy message at the decoder's position, and the inner messages as written
// when it is a compressed wrapper (both read by kafkajs's own decoders).
async function readLegacyEntry(decoder) {
  const offset = decoder.readInt64().toString()
  const head = MessageDecoder(offset, decoder.readInt32(), decoder)
  const codec = lookupCodecByAttributes(head.attributes)
  if (!codec) return { head, written: null }
  const inner = await codec.decompress(head.value)
  return { head, written: await MessageSetDecoder(new Decoder(sizePrefixed(inner))) }
}

// The canonical entry of `head`, given the messages kafkajs handed out for it.
function legacyEntry(head, written, given) {
  if (written === null) return entry(given[0].offset, given[0], hex(given[0].value))
  const base = written.length ? javaBase(head.magicByte, head.offset, written[written.length - 1].offset) : 0n
  const inner = given.map(m => entry(BigInt(m.offset) - base, m, hex(m.value)))
  return entry(head.offset, head, { entries: inner, inner_offset_base: null })
}

// Walks the top-level entries beside kafkajs's flat answer, taking from it what each entry
// accounts for, until the flat answer is used up.
async function rebuild(bytes, flat, readEntry) {
  const decoder = new Decoder(bytes)
  const entries = []
  let taken = 0
  while (taken < flat.length) {
    const { value, count } = await readEntry(decoder, flat.slice(taken))
    entries.push(value)
    taken += count
  }
  return entries
}

async function readMessageSetEntry(decoder, rest) {
  const { head, written } = await readLegacyEntry(decoder)
  const count = written === null ? 1 : written.length
  return { value: legacyEntry(head, written, rest.slice(0, count)), count }
}

async function decodeMessageSet(bytes) {
  // with no size given, the decoder reads the int32 size before the set, as in a Fetch v0 to v3
  const flat = await MessageSetDecoder(new Decoder(sizePrefixed(bytes)))
  if (bytes.length > 0 && flat.length === 0) {
    throw new Refused('truncated', `kafkajs's MessageSet decoder finds no complete message in ${bytes.length} bytes`)
  }
  return { entries: await rebuild(bytes, flat, readMessageSetEntry), inner_offset_base: null }
}

async function decodeRecordSet(bytes, batchValue) {
  const flat = await decodeMessages(new Decoder(sizePrefixed(bytes)))
  const readEntry = async (decoder, rest) => {
    const magicAt = decoder.offset + MAGIC_OFFSET
    if (magicAt < decoder.buffer.length && decoder.buffer.readInt8(magicAt) === MAGIC_BYTE) {
      const batch = await RecordBatchDecoder(decoder)
      const count = batch.records.length
      return { value: batchValue({ ...batch, records: rest.slice(0, count) }), count }
    }
    return readMessageSetEntry(decoder, rest)
  }
  return { entries: await rebuild(bytes, flat, readEntry), partial_entry: null }
}

module.exports = { MESSAGE_SET, RECORD_SET, Refused, hex, decodeMessageSet, decodeRecordSet }

'use strict'
// kafka.response (decode) through kafkajs's own response decoders: one hand-written reader per
// API version (src/protocol/requests/<api>/v<N>/response.js), which return objects of kafkajs's
// own names (`topicMetadata`, `partitionErrorCode`), read field by field in wire order.
//
// kafkajs's names are not Kafka's, so this file names kafkajs's values by position: the leaves of
// kafkajs's value, in the order it read them, are matched one to one with the fields the frame's
// version has in Kafka's message specs (the JSON files this repository ships in
// schemas/kafka/messages, or the folder KAFKA_MESSAGE_SPECS names). The specs give only names,
// versions and types; every value is kafkajs's. A value whose shape does not fit the spec's
// fields (a field kafkajs drops, or reads in another place) is refused with a message saying so:
// kafkajs read something else than the spec's version. Encoding a response is not offered (kafkajs
// writes none); requests are requests.js's.

const Decoder = require('kafkajs/src/protocol/decoder')
const { specsFolder, loadSpecs, inVersions, snake, elementType, PRIMITIVES, structFields, placed, isFlexible, versionFiles } =
  require('./specs')

const RESPONSE = 'kafka.response'

// Fields kafkajs computes beside those it reads, by API key and version: not on the wire.
const COMPUTED = { 32: { 0: ['configSource'], 1: ['isDefault'], 2: ['isDefault'], 3: ['isDefault'], 4: ['isDefault'] } }
const computedOf = (key, version) => (COMPUTED[key] || {})[version] || []

// kafkajs's value does not fit the spec's fields of the version: kafkajs read something else.
class Misfit extends Error {
  get name() {
    return 'Misfit'
  }
}

// ---- kafkajs's value as leaves in the order read ----

// An object's fields as read off the wire: kafkajs moves a throttle time read to
// `clientSideThrottleTime` and puts 0 in `throttleTime`, or adds a `throttleTime` of 0 beside the
// `throttleTimeMs` it read; it makes error objects (KafkaJS...) of error codes it read.
function wireEntries(object, computed) {
  let entries = Object.entries(object).filter(([k, v]) => !computed.includes(k) && !isKafkajsError(v))
  if ('throttleTimeMs' in object) {
    entries = entries.filter(([k]) => k !== 'throttleTime' && k !== 'clientSideThrottleTime')
  } else if ('clientSideThrottleTime' in object) {
    entries = entries
      .filter(([k]) => k !== 'clientSideThrottleTime')
      .map(([k, v]) => [k, k === 'throttleTime' ? object.clientSideThrottleTime : v])
  }
  return entries
}

const isKafkajsError = v => v !== null && typeof v === 'object' && String(v.name).startsWith('KafkaJS')
const isLeaf = v => v === null || v === undefined || typeof v !== 'object' || Buffer.isBuffer(v)

// kafkajs's value flattened: a struct's fields inline, a list one leaf (of its elements, each
// flattened), every number, text and buffer a leaf.
function flatten(value, computed, out = []) {
  if (isLeaf(value)) {
    out.push(value)
  } else if (Array.isArray(value)) {
    out.push(value.map(e => (isLeaf(e) ? e : flatten(e, computed))))
  } else {
    for (const [, v] of wireEntries(value, computed)) flatten(v, computed, out)
  }
  return out
}

// ---- the leaves named by the spec's fields ----

class Leaves {
  constructor(items, where) {
    this.items = items
    this.at = 0
    this.where = where
  }

  take(field) {
    if (this.at >= this.items.length) throw new Misfit(`kafkajs's value has no value left for ${field}`)
    return this.items[this.at++]
  }

  done() {
    if (this.at < this.items.length) {
      throw new Misfit(`kafkajs's value has ${this.items.length - this.at} value(s) more than ${this.where} has fields`)
    }
  }
}

const int64Text = v => (typeof v === 'bigint' ? v.toString() : String(v))

// One leaf of kafkajs's as the canonical JSON of the spec's type.
function primitive(value, type, field) {
  if (value === null || value === undefined) return null
  switch (type) {
    case 'bool':
      if (typeof value !== 'boolean') throw new Misfit(`${field} is a bool, kafkajs gives ${typeof value}`)
      return value ? 1 : 0
    case 'int64':
      return int64Text(value)
    case 'string':
      if (typeof value !== 'string') throw new Misfit(`${field} is a string, kafkajs gives ${typeof value}`)
      return value
    case 'bytes':
    case 'uuid':
      if (!Buffer.isBuffer(value)) throw new Misfit(`${field} is ${type}, kafkajs gives ${typeof value}`)
      return value.toString('hex')
    case 'float64':
      if (typeof value !== 'number') throw new Misfit(`${field} is float64, kafkajs gives ${typeof value}`)
      return floatJson(value)
    default: // the integer types
      if (typeof value !== 'number' && typeof value !== 'bigint') throw new Misfit(`${field} is ${type}, kafkajs gives ${typeof value}`)
      return Number(value)
  }
}

// A float as canonical JSON: a number, or the name of a NaN or an infinity (JSON has no number for them).
const floatJson = v => (Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : v)

// The canonical JSON of a struct whose fields (those of `version`) take their values from `leaves`.
// A field the version lacks is left out (null); so are the derived lengths and counts and the
// `records` of a Fetch response (kafkajs keeps only its records' client view: unsupported).
function struct(spec, fields, version, leaves, where) {
  const out = {}
  for (const field of placed(fields, version)) {
    const name = snake(field.name)
    const here = `${where}.${name}`
    const element = elementType(field.type)
    const value = leaves.take(here)
    if (field.type === 'records') continue
    if (element === null && !PRIMITIVES.has(field.type)) {
      throw new Misfit(`${here}: a struct field kafkajs would inline (not in the APIs it reads)`)
    }
    if (element === null) {
      out[name] = primitive(value, field.type, here)
    } else if (value === null || value === undefined) {
      out[name] = null
    } else if (!Array.isArray(value)) {
      throw new Misfit(`${here} is a list, kafkajs gives ${typeof value}`)
    } else if (PRIMITIVES.has(element)) {
      // a list of strings or bytes holds each as {value}, as the canonical JSON's element struct
      const boxed = element === 'string' || element === 'bytes'
      out[name] = value.map(e => {
        const one = primitive(Array.isArray(e) ? single(e, here) : e, element, `${here}[]`)
        return boxed ? { value: one } : one
      })
    } else {
      const inner = structFields(spec, field)
      out[name] = value.map(e => {
        const items = new Leaves(Array.isArray(e) ? e : [e], `${here}[]`)
        const made = struct(spec, inner, version, items, `${here}[]`)
        items.done()
        return made
      })
    }
  }
  return out
}

function single(items, where) {
  if (items.length !== 1) throw new Misfit(`${where} holds one value, kafkajs gives ${items.length}`)
  return items[0]
}

// ---- the testee's part ----

// What `testee.js` needs of kafka.response: its handler, and the paths kafkajs cannot report.
function responseFormat(specsDir = specsFolder()) {
  const specs = loadSpecs(specsDir, 'Response.json', RESPONSE)
  if (!specs) return null
  const files = new Map([...versionFiles('response.js')].map(([k, v]) => [k, v.file]))
  return { decode: (bytes, params) => decodeResponse(specs, files, bytes, params), unsupported: unsupportedPaths(specs, files) }
}

// An API version kafkajs has no reader of: the request is `unsupported`.
class NotRead extends Error {}

async function decodeResponse(specs, files, bytes, params = {}) {
  const { api_key: key, api_version: version } = params
  const spec = specs.get(key)
  const file = files.get(`${key}/${version}`)
  if (!spec || !file || !inVersions(spec.validVersions, version)) {
    throw new NotRead(`kafkajs has no reader of API ${key} version ${version}`)
  }
  // kafkajs's connection takes the correlation id off the frame (a flexible header's tagged
  // fields it leaves to the body's reader, which reads them first) and hands the rest on.
  const header = new Decoder(bytes)
  const correlationId = header.readInt32()
  let reader = require(file)
  if (typeof reader === 'function') reader = reader({ topics: [] }) // (a reader made per request: DeleteRecords)
  const value = await reader.decode(bytes.slice(4))
  const leaves = new Leaves(flatten(value, computedOf(key, version)), 'body')
  const body = struct(spec, spec.fields, version, leaves, 'body')
  leaves.done()
  return { header: { correlation_id: correlationId }, body }
}

// What kafkajs never reports, as value paths: the `records` of a Fetch response (it keeps each
// record's client view: offset, timestamp, key, value, headers; not the batches) and, in the
// flexible versions it reads, every tagged field (its readers skip them).
function unsupportedPaths(specs, files) {
  const out = new Set()
  for (const file of files.keys()) {
    const [key, version] = file.split('/').map(Number)
    const spec = specs.get(key)
    if (!spec || !inVersions(spec.validVersions, version)) continue
    const flexible = isFlexible(spec, version)
    if (flexible) out.add('header.tagged_fields')
    const walk = (fields, where) => {
      if (flexible) out.add(`${where}.tagged_fields`)
      for (const f of placed(fields, version)) {
        if (f.type === 'records') out.add(`${where}.${snake(f.name)}`)
        const element = elementType(f.type)
        if (element && !PRIMITIVES.has(element)) walk(structFields(spec, f), `${where}.${snake(f.name)}[]`)
      }
    }
    walk(spec.fields, 'body')
  }
  return [...out].sort()
}

module.exports = { RESPONSE, responseFormat, NotRead, wireEntries, computedOf }

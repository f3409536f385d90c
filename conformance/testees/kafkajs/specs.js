'use strict'
// Kafka's message specs as the kafkajs testee reads them (protocol.js for responses, requests.js for
// requests): names, versions and types. The specs are the JSON files this repository ships in
// schemas/kafka/messages (an installed package's logcodec/schemas/kafka/messages: three folders up
// from this file either way), or those of the folder KAFKA_MESSAGE_SPECS names.

const fs = require('fs')
const path = require('path')

const REQUESTS = path.dirname(require.resolve('kafkajs/src/protocol/requests'))
const DEFAULT_SPECS = path.resolve(__dirname, '..', '..', '..', 'schemas', 'kafka', 'messages')

const specsFolder = () => process.env.KAFKA_MESSAGE_SPECS || DEFAULT_SPECS

// A spec file is JSON with `//` comment lines (Kafka's own files have no other comments).
const readSpec = file =>
  JSON.parse(fs.readFileSync(file, 'utf8').split('\n').filter(l => !l.trim().startsWith('//')).join('\n'))

// The specs of the folder whose file names end with `suffix` (Request.json, Response.json), by API
// key; null, with a line on stderr saying that `format` is not offered, when the folder is not there.
function loadSpecs(dir, suffix, format) {
  if (!fs.existsSync(dir)) {
    process.stderr.write(`kafkajs testee: no Kafka message specs at ${dir} (KAFKA_MESSAGE_SPECS): ${format} not offered\n`)
    return null
  }
  const specs = new Map()
  for (const name of fs.readdirSync(dir).filter(n => n.endsWith(suffix))) {
    const spec = readSpec(path.join(dir, name))
    specs.set(spec.apiKey, spec)
  }
  return specs
}
// Kafka's version ranges: "3+", "1-3", "2" or "none".
function inVersions(range, version) {
  if (range == null || range === 'none') return false
  if (range.endsWith('+')) return version >= Number(range.slice(0, -1))
  const [low, high = low] = range.split('-').map(Number)
  return version >= low && version <= high
}

// A spec's CamelCase name in the canonical JSON's lower_snake (ThrottleTimeMs -> throttle_time_ms).
const snake = name => name.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

const elementType = type => (type.startsWith('[]') ? type.slice(2) : null)
const PRIMITIVES = new Set(['bool', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'float64', 'string', 'bytes', 'uuid', 'records'])

// The fields of a struct type: written inline in the field, or one of the spec's commonStructs.
function structFields(spec, field) {
  if (field.fields) return field.fields
  const name = elementType(field.type) || field.type
  const common = (spec.commonStructs || []).find(s => s.name === name)
  if (!common) throw new Error(`the spec ${spec.name} has no struct ${name}`)
  return common.fields
}

// The fields a version writes in place (a tagged field lives in the tagged fields, which kafkajs skips).
const placed = (fields, version) =>
  fields.filter(f => inVersions(f.versions, version) && !inVersions(f.taggedVersions, version))

const isFlexible = (spec, version) => inVersions(spec.flexibleVersions, version)

// Each API's folder of kafkajs's requests, as kafkajs's own index names it (`Name: require('./folder')`).
function folders() {
  const text = fs.readFileSync(path.join(REQUESTS, 'index.js'), 'utf8')
  return Object.fromEntries([...text.matchAll(/(\w+): require\('\.\/(\w+)'\)/g)].map(m => [m[1], m[2]]))
}

// kafkajs's file `file` (request.js, response.js) of each API key and version it has one of:
// "key/version" -> { name, file }, `name` kafkajs's name of the API.
function versionFiles(file) {
  const byName = folders()
  const out = new Map()
  for (const [name, key] of Object.entries(require('kafkajs/src/protocol/requests/apiKeys'))) {
    const folder = byName[name] && path.join(REQUESTS, byName[name])
    if (!folder || !fs.existsSync(folder)) continue
    for (const v of fs.readdirSync(folder).filter(d => /^v\d+$/.test(d))) {
      const found = path.join(folder, v, file)
      if (fs.existsSync(found)) out.set(`${key}/${v.slice(1)}`, { name, file: found })
    }
  }
  return out
}

module.exports = {
  specsFolder, loadSpecs, inVersions, snake, elementType, PRIMITIVES, structFields, placed, isFlexible, versionFiles,
}

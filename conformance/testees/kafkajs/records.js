'use strict'
// What the kafkajs testee's record batches (testee.js) and Produce requests (requests.js) share:
// kafkajs's codec of each canonical codec name, the canonical JSON's hex bytes as a Buffer, and a record's headers as kafkajs takes and gives
// them (an object keyed by header key, a key held by several headers naming the list of their
// values).

const { CompressionTypes } = require('kafkajs')

const CODEC_BY_NAME = {
  none: CompressionTypes.None,
  gzip: CompressionTypes.GZIP,
  snappy: CompressionTypes.Snappy,
  lz4: CompressionTypes.LZ4,
  zstd: CompressionTypes.ZSTD,
}

const fromHex = text => (text == null ? null : Buffer.from(text, 'hex'))

// kafkajs returns a record's headers as an object: { key: value } or { key: [values...] } for
// duplicate keys. Its own encoder turns that object back into a list this way (record/v0/index.js).
const headersToList = headers =>
  Object.keys(headers).flatMap(key =>
    Array.isArray(headers[key])
      ? headers[key].map(value => ({ key, value }))
      : [{ key, value: headers[key] }]
  )

// The canonical JSON's list of headers (key, value as hex) as kafkajs's object; null when the object
// cannot keep the list's order (a key again after another key, or keys that look like numbers,
// which an object lists first).
function headersToObject(list) {
  const object = Object.create(null) // no prototype: a header named __proto__ stays a header
  for (const { key, value } of list) {
    const buffer = fromHex(value)
    if (!(key in object)) object[key] = buffer
    else if (Array.isArray(object[key])) object[key].push(buffer)
    else object[key] = [object[key], buffer]
  }
  const order = list.map(h => h.key).join('\u0000')
  return headersToList(object).map(h => h.key).join('\u0000') === order ? object : null
}

module.exports = { CODEC_BY_NAME, fromHex, headersToList, headersToObject }

// kafkajs's response decoders (an implementation we did not write) over frames' bodies:
// reads [{id, key, version, hex}] (key: the API key) as JSON on stdin, writes
// {id: decoded value | {error}} as JSON: a BigInt as {int: "..."}, a Buffer as {hex: "..."}; each
// object with only the fields kafkajs read off the wire (the kafkajs testee's rules: what kafkajs
// computes, moves or makes beside them is set aside). Run from the repository, whose node_modules
// holds kafkajs (package.json), after `npm ci --prefix conformance/testees/kafkajs`.
const fs = require('fs')
const path = require('path')
const { wireEntries, computedOf } = require('../../conformance/testees/kafkajs/protocol')

const requestsDir = path.dirname(require.resolve('kafkajs/src/protocol/requests'))
// Each API's folder, as kafkajs's own index names it (`Name: require('./folder')`)
const folders = {}
for (const m of fs.readFileSync(path.join(requestsDir, 'index.js'), 'utf8').matchAll(/(\w+): require\('\.\/(\w+)'\)/g)) {
  folders[m[1]] = m[2]
}

const names = Object.fromEntries(Object.entries(require('kafkajs/src/protocol/requests/apiKeys')).map(([n, k]) => [k, n]))

const plain = (key, value) => {
  if (typeof value === 'bigint') return { int: value.toString() }
  if (value && value.type === 'Buffer' && Array.isArray(value.data)) return { hex: Buffer.from(value.data).toString('hex') }
  return value
}

// kafkajs's value with each object's fields as read off the wire.
const onWire = (value, computed) => {
  if (Array.isArray(value)) return value.map(v => onWire(v, computed))
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value
  return Object.fromEntries(wireEntries(value, computed).map(([k, v]) => [k, onWire(v, computed)]))
}

const main = async () => {
  const cases = JSON.parse(fs.readFileSync(0, 'utf8'))
  const out = {}
  for (const c of cases) {
    const folder = folders[names[c.key]]
    const file = folder && path.join(requestsDir, folder, `v${c.version}`, 'response.js')
    if (!file || !fs.existsSync(file)) {
      out[c.id] = { unsupported: true }
      continue
    }
    try {
      let response = require(file)
      if (typeof response === 'function') response = response({ topics: [] }) // (a response made per request: DeleteRecords)
      out[c.id] = { value: onWire(await response.decode(Buffer.from(c.hex, 'hex')), computedOf(c.key, c.version)) }
    } catch (e) {
      out[c.id] = { error: `${e.name}: ${e.message}` }
    }
  }
  process.stdout.write(JSON.stringify(out, plain))
}

main()

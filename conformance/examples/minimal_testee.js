// A complete conformance testee in plain Node.js (no npm packages) that decodes UNCOMPRESSED
// kafka.record_batch_v2 batches, written from the format description. Protocol: conformance/PROTOCOL.md.
// kind: a protocol error kind, or 'unsupported' (the harness skips the case)
class Refused extends Error { constructor(kind, message) { super(message); this.kind = kind } }
function crc32c(bytes) { // CRC-32C (Castagnoli), bit by bit: short but slow; real code uses a table
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}
class Reader { // reads records; len_batch said the batch is all there, so running off it is a bad length
  constructor(buf, pos = 0) { this.buf = buf; this.pos = pos }
  take(n, what) {
    if (n > this.buf.length - this.pos) throw new Refused('invalid_length', `${what} runs past the end`)
    this.pos += n
    return this.buf.subarray(this.pos - n, this.pos)
  }
  varint(what, maxBytes = 5) { // a BigInt; at most 5 bytes for 32 bits, 10 for a 64-bit varlong
    let value = 0n
    for (let i = 0; i < maxBytes; i++) { // 7 bits a byte, least significant first; the high bit says "more"
      const byte = this.take(1, what)[0]
      value |= BigInt(byte & 0x7f) << BigInt(7 * i)
      if (byte === 0 && i > 0) throw new Refused('invalid_value', `${what}: overlong varint (a last byte of 0)`)
      else if (byte < 0x80) return (value >> 1n) ^ -(value & 1n) // zigzag: 0, 1, 2, 3, ... mean 0, -1, 1, -2, ...
    }
    throw new Refused('invalid_value', `${what}: varint longer than ${maxBytes} bytes`)
  }
  sized(what, nullOk = true) { // a varint length (negative for null, as Java reads it), then the bytes
    const n = Number(this.varint(`length of ${what}`))
    if (n < 0 && !nullOk) throw new Refused('invalid_length', `length ${n} of ${what}`)
    return n < 0 ? null : this.take(n, what)
  }
}
function record(r, isControl) { // derived fields (lengths, counts, crc) may be left out of an answer
  const rec = { attributes: r.take(1, 'attributes').readInt8(0),
    timestamp_delta: String(r.varint('timestamp_delta', 10)), // 64-bit integers travel as decimal strings
    offset_delta: Number(r.varint('offset_delta')), key: r.sized('key'), value: r.sized('value'), headers: [] }
  if (isControl) { // a transaction marker. key: int16 version, int16 type; value: int16 version, int32 epoch
    if (!rec.key || rec.key.length < 4 || rec.value?.length < 6) throw new Refused('invalid_length', 'marker too short')
    const [version, type] = [rec.key.readInt16BE(0), rec.key.readInt16BE(2)]
    rec.key = { version, type: ['abort', 'commit'][type] ?? type } // enums by name
    if (rec.value) rec.value = { version: rec.value.readInt16BE(0), coordinator_epoch: rec.value.readInt32BE(2) }
  }
  for (let i = Number(r.varint('num_headers')); i > 0; i--) { // a negative count fails the record length check
    const key = r.sized('header key', false), value = r.sized('header value')
    const text = key.toString('utf8') // U+FFFD stands for each byte that is not UTF-8
    if (!Buffer.from(text).equals(key)) throw new Refused('invalid_value', 'a header key is not UTF-8')
    rec.headers.push({ key: text, value: value && value.toString('hex') })
  }
  for (const field of ['key', 'value']) if (Buffer.isBuffer(rec[field])) rec[field] = rec[field].toString('hex')
  return rec // bytes travel as lowercase hex, null stays null
}
function decode(data) {
  // The header, 61 bytes, big-endian: base_offset(8) len_batch(4) partition_leader_epoch(4) magic(1) crc(4)
  // attributes(2) last_offset_delta(4) base_timestamp(8) max_timestamp(8) producer_id(8) producer_epoch(2)
  // base_sequence(4) num_records(4); then the records.
  const h = Buffer.concat([data, Buffer.alloc(61)]) // padded: a short input fails the checks below, not a read
  const length = h.readInt32BE(8), magic = h.readInt8(16), bits = h.readUInt16BE(21), count = h.readInt32BE(57)
  for (const [failed, kind, message] of [ // in this order, so that each broken input gets its own kind
    [data.length < 12 || length > data.length - 12, 'truncated', 'the input ends inside the batch'],
    [length < 49, 'invalid_length', `len_batch ${length} < 49`],
    [length < data.length - 12, 'trailing_bytes', `${data.length - 12 - length} bytes after the batch`],
    [magic !== 2, 'invalid_value', `magic ${magic} is not 2`],
    [h.readUInt32BE(17) !== crc32c(data.subarray(21)), 'checksum_mismatch', 'crc (attributes to the end) mismatch'],
    [(bits & 7) > 4, 'unknown_codec', `compression codec ${bits & 7}`], // 1 to 4: gzip snappy lz4 zstd
    [(bits & 7) !== 0, 'unsupported', 'compressed records: this example reads uncompressed ones only'],
    [count < 0, 'invalid_length', `num_records ${count}`],
  ]) if (failed) throw new Refused(kind, message)
  const r = new Reader(data, 61), records = []
  for (let i = 0; i < count; i++) {
    const body = new Reader(r.sized(`record ${i}`, false))
    records.push(record(body, (bits & 0x20) !== 0))
    if (body.pos !== body.buf.length) throw new Refused('invalid_length', `record ${i} is shorter than its length`)
  }
  if (r.pos !== data.length) throw new Refused('trailing_bytes', `${data.length - r.pos} bytes after the records`)
  return { base_offset: String(h.readBigInt64BE(0)), partition_leader_epoch: h.readInt32BE(12), magic,
    attributes: { reserved: bits >> 7, has_delete_horizon: (bits & 0x40) !== 0, is_control: (bits & 0x20) !== 0,
      is_transactional: (bits & 0x10) !== 0, timestamp_type: bits & 8 ? 'log_append_time' : 'create_time',
      compression: 'none' }, // enums by name
    last_offset_delta: h.readInt32BE(23), base_timestamp: String(h.readBigInt64BE(27)),
    max_timestamp: String(h.readBigInt64BE(35)), producer_id: String(h.readBigInt64BE(43)),
    producer_epoch: h.readInt16BE(51), base_sequence: h.readInt32BE(53), records }
}
const send = message => process.stdout.write(JSON.stringify(message) + '\n') // one JSON answer per line
require('readline').createInterface({ input: process.stdin }).on('line', line => { // one JSON request per line
  const request = JSON.parse(line)
  if (request.type === 'stop') return process.stdout.write('', () => process.exit(0)) // exit with status 0
  if (request.type === 'start') return send({ type: 'started', protocol: 1, // the handshake: what we handle
    formats: { 'kafka.record_batch_v2': ['decode'] }, implementation: { name: 'minimal-node-example', version: '1' } })
  try { // a "run", only of what we declared; echo its seq, since the harness may send several at once
    send({ seq: request.seq, ok: true, value: decode(Buffer.from(request.bytes, 'hex')) })
  } catch (e) {
    if (!(e instanceof Refused)) throw e // a bug here: crash loudly, the harness reports it
    send(e.kind === 'unsupported' ? { seq: request.seq, ok: false, unsupported: e.message }
      : { seq: request.seq, ok: false, error: { kind: e.kind, message: e.message } })
  }
})

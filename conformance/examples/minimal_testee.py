"""A complete conformance testee in plain Python (standard library only) that decodes UNCOMPRESSED
kafka.record_batch_v2 batches, written from the format description. Protocol: conformance/PROTOCOL.md."""
import json, struct, sys

FIELDS = ("base_offset len_batch partition_leader_epoch magic crc attributes last_offset_delta base_timestamp "
          "max_timestamp producer_id producer_epoch base_sequence num_records").split()
HEADER = struct.Struct(">qiibIHiqqqhii")  # those 13 fields, big-endian, 61 bytes; then the records

class Refused(Exception):  # Refused(kind, message); kind: a protocol error kind, or "unsupported" (case skipped)
    pass

def crc32c(data):  # CRC-32C (Castagnoli), bit by bit: short but slow; real code uses a table
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF

class Reader:  # reads records; len_batch said the batch is all there, so running off it is a bad length
    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos
    def take(self, n, what):
        if n > len(self.data) - self.pos: raise Refused("invalid_length", f"{what} runs past the end")
        self.pos += n
        return self.data[self.pos - n:self.pos]
    def varint(self, what, max_bytes=5):  # at most 5 bytes for 32 bits, 10 for a 64-bit varlong
        value = 0
        for i in range(max_bytes):  # 7 bits a byte, least significant first; the high bit says "more"
            byte = self.take(1, what)[0]
            value |= (byte & 0x7F) << (7 * i)
            if byte < 0x80:
                if byte == 0 and i: raise Refused("invalid_value", f"{what}: overlong varint (a last byte of 0)")
                return (value >> 1) ^ -(value & 1)  # zigzag: 0, 1, 2, 3, ... mean 0, -1, 1, -2, ...
        raise Refused("invalid_value", f"{what}: varint longer than {max_bytes} bytes")
    def sized(self, what, null_ok=True):  # a varint length (negative for null, as Java reads it), then the bytes
        n = self.varint(f"length of {what}")
        if n < 0 and not null_ok: raise Refused("invalid_length", f"length {n} of {what}")
        return None if n < 0 else self.take(n, what)

def record(r, is_control):  # derived fields (lengths, counts, crc) may be left out of an answer
    rec = {"attributes": int.from_bytes(r.take(1, "attributes"), "big", signed=True),
           "timestamp_delta": str(r.varint("timestamp_delta", 10)),  # 64-bit integers travel as decimal strings
           "offset_delta": r.varint("offset_delta"), "key": r.sized("key"), "value": r.sized("value"), "headers": []}
    if is_control:  # a transaction marker. key: int16 version, int16 type; value: int16 version, int32 epoch
        if rec["key"] is None or len(rec["key"]) < 4 or (rec["value"] is not None and len(rec["value"]) < 6):
            raise Refused("invalid_length", "control record key or value too short")
        version, kind = struct.unpack_from(">hh", rec["key"])
        rec["key"] = {"version": version, "type": {0: "abort", 1: "commit"}.get(kind, kind)}  # enums by name
        if rec["value"] is not None:
            rec["value"] = dict(zip(["version", "coordinator_epoch"], struct.unpack_from(">hi", rec["value"])))
    for _ in range(max(0, r.varint("num_headers"))):  # a negative count fails the record length check
        key, value = r.sized("header key", null_ok=False), r.sized("header value")
        text = key.decode("utf-8", "replace")  # U+FFFD stands for each byte that is not UTF-8
        if text.encode("utf-8") != key: raise Refused("invalid_value", f"header key {key!r} is not UTF-8")
        rec["headers"].append({"key": text, "value": None if value is None else value.hex()})
    for field in "key", "value":  # bytes travel as lowercase hex
        rec[field] = rec[field].hex() if isinstance(rec[field], bytes) else rec[field]
    return rec

def decode(data):
    batch = dict(zip(FIELDS, HEADER.unpack_from(data.ljust(HEADER.size, b"\0"))))  # short input: checked below
    length, bits, count = batch["len_batch"], batch["attributes"], batch["num_records"]
    for failed, kind, message in [  # in this order, so that each broken input gets its own kind
            (len(data) < 12 or length > len(data) - 12, "truncated", "the input ends inside the batch"),
            (length < HEADER.size - 12, "invalid_length", f"len_batch {length} < {HEADER.size - 12}"),
            (length < len(data) - 12, "trailing_bytes", f"{len(data) - 12 - length} bytes after the batch"),
            (batch["magic"] != 2, "invalid_value", f"magic {batch['magic']} is not 2"),
            (batch["crc"] != crc32c(data[21:]), "checksum_mismatch", "crc (attributes to the end) mismatch"),
            (bits & 7 > 4, "unknown_codec", f"compression codec {bits & 7}"),  # 1 to 4: gzip snappy lz4 zstd
            (bits & 7 != 0, "unsupported", "compressed records: this example reads uncompressed ones only"),
            (count < 0, "invalid_length", f"num_records {count}")]:
        if failed: raise Refused(kind, message)
    r, batch["records"] = Reader(data, HEADER.size), []
    for i in range(count):
        body = Reader(r.sized(f"record {i}", null_ok=False))
        batch["records"].append(record(body, is_control=bool(bits & 0x20)))
        if body.pos != len(body.data): raise Refused("invalid_length", f"record {i} is shorter than its length says")
    if r.pos != len(data): raise Refused("trailing_bytes", f"{len(data) - r.pos} bytes after {count} records")
    batch.update({name: str(batch[name]) for name in ("base_offset", "base_timestamp", "max_timestamp", "producer_id")})
    batch["attributes"] = {"reserved": bits >> 7, "has_delete_horizon": bool(bits & 0x40), "compression": "none",
                           "is_control": bool(bits & 0x20), "is_transactional": bool(bits & 0x10),
                           "timestamp_type": ["create_time", "log_append_time"][bits >> 3 & 1]}  # enums by name
    return batch

for line in sys.stdin:  # one JSON request per line in, one JSON answer per line out
    request = json.loads(line)
    if request["type"] == "stop": break  # exit with status 0
    if request["type"] == "start":  # the handshake: which formats and operations we handle
        answer = {"type": "started", "protocol": 1, "formats": {"kafka.record_batch_v2": ["decode"]},
                  "implementation": {"name": "minimal-python-example", "version": "1"}}
    else:  # "run", only of what we declared; echo its seq, since the harness may send several at once
        try:
            answer = {"seq": request["seq"], "ok": True, "value": decode(bytes.fromhex(request["bytes"]))}
        except Refused as e:
            kind, message = e.args
            answer = {"seq": request["seq"], "ok": False, "unsupported": message} if kind == "unsupported" \
                else {"seq": request["seq"], "ok": False, "error": {"kind": kind, "message": message}}
    print(json.dumps(answer), flush=True)

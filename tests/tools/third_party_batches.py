"""Make the `third_party` vectors of schemas/kafka/record_batch_v2.vectors.yaml (run once, output pasted).

    python -m tests.tools.third_party_batches

Each batch holds the same three records. Two are written whole by a library's own
builder (kafka-python, aiokafka's C extension). The others carry records
compressed by a compression library in the framing another Kafka client writes
(raw snappy and zstd without a content size as librdkafka and kafkajs write them,
LZ4 with a content checksum and 4 MiB blocks as kafkajs writes it); for those the
records and the batch header around the compressed bytes are laid out by this
script with plain `struct` and `crc32c`, not by logcodec.
"""

import struct

import cramjam
import lz4.frame
import zstandard
from crc32c import crc32c
from kafka.record.default_records import DefaultRecordBatchBuilder as KafkaPythonBuilder

from aiokafka.record._crecords.default_records import DefaultRecordBatchBuilder as AiokafkaCBuilder

RECORDS = [(i, 1_700_000_000_000 + i, b"key-%d" % i, b"value-%d " % i * 20, [("h", b"%d" % i)]) for i in range(3)]


def built_by(builder_cls, codec: int, *extra) -> bytes:
    builder = builder_cls(2, codec, 0, -1, -1, -1, 1 << 20, *extra)
    for offset, ts, key, value, headers in RECORDS:
        builder.append(offset, ts, key, value, headers)
    return bytes(builder.build())


def zigzag(n: int) -> bytes:
    z, out = (n << 1) ^ (n >> 63), bytearray()
    while z >= 0x80:
        out.append(z & 0x7F | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def plain_records() -> bytes:
    out = b""
    for offset, ts, key, value, headers in RECORDS:
        body = b"\x00" + zigzag(ts - RECORDS[0][1]) + zigzag(offset) + zigzag(len(key)) + key
        body += zigzag(len(value)) + value + zigzag(len(headers))
        for hk, hv in headers:
            body += zigzag(len(hk)) + hk.encode() + zigzag(len(hv)) + hv
        out += zigzag(len(body)) + body
    return out


def batch_around(codec: int, payload: bytes) -> bytes:
    after_crc = struct.pack(">hiqqqhii", codec, len(RECORDS) - 1, RECORDS[0][1], RECORDS[-1][1], -1, -1, -1,
                            len(RECORDS)) + payload
    head = struct.pack(">qiib", 0, 4 + 1 + 4 + len(after_crc), 0, 2)
    return head + struct.pack(">I", crc32c(after_crc)) + after_crc


def main() -> None:
    records = plain_records()
    batches = {
        "kafka_python_gzip": built_by(KafkaPythonBuilder, 1),
        "aiokafka_c_lz4": built_by(AiokafkaCBuilder, 3),
        "raw_snappy": batch_around(2, bytes(cramjam.snappy.compress_raw(records))),
        "zstd_without_content_size": batch_around(4, zstandard.ZstdCompressor(write_content_size=False).compress(records)),
        "lz4_content_checksum_4mib_blocks": batch_around(3, lz4.frame.compress(
            records, content_checksum=True, block_size=lz4.frame.BLOCKSIZE_MAX4MB, store_size=False)),
    }
    for name, data in batches.items():
        print(f"      - name: {name}\n        bytes: {data.hex()}")


if __name__ == "__main__":
    main()

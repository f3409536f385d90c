"""Testee: librdkafka's own record batch decoder and encoder, through confluent-kafka, on loopback.

librdkafka has no API that turns bytes into records or records into bytes: its codec runs only
on a broker connection. So this testee runs a tiny fake Kafka broker on 127.0.0.1 (one thread
per connection, an ephemeral port, alive as long as the process) that speaks just enough of
the protocol for librdkafka's clients: ApiVersions (0-3), Metadata v1, Fetch v4, ListOffsets
v1 and Produce v3 (to producers also Produce v7, Fetch v10 and FindCoordinator v0, without which
librdkafka silently drops lz4 and zstd). The request and response structs are read and written
with kafka-python's ``kafka.protocol`` classes; the record bytes pass through it untouched.

Decoding: the input is the only content of a fresh topic's partition 0. A fresh
``confluent_kafka.Consumer`` (``check.crcs=true``, ``enable.partition.eof=true``) is assigned
to it at offset 0, and its Fetch response carries the input as the partition's records.
librdkafka parses the batch (CRC-32C, decompression, records) and hands out ``Message``
objects; the adapter translates those. librdkafka reports only records, so:

* reported by librdkafka: each record's key, value, headers (the Python binding decodes header
  keys as UTF-8), absolute offset and timestamp with its type (``Message.timestamp()``), the
  batch's ``partition_leader_epoch`` (``Message.leader_epoch()``, None standing for -1), and
  the batch's codec, which librdkafka states in its own ``msg`` debug log line "Enqueue N
  message(s) ... (..., N ctrl msgs, N aborted msgsets, <codec>)";
* ``offset_delta`` and ``timestamp_delta`` are librdkafka's absolute offset and timestamp minus
  the header's ``base_offset`` and ``base_timestamp`` as the fake broker reads them from the
  input (a broker's log index knows them: it needs them for the high watermark). That undoes
  exactly the ``base + delta`` librdkafka computed; ``base_offset`` and ``base_timestamp``
  themselves are not reported (``unsupported_fields``);
* not reported at all (``unsupported_fields``): ``magic``, the reserved, delete-horizon,
  control and transactional attribute bits, ``max_timestamp``, ``producer_id``,
  ``producer_epoch``, ``base_sequence``, every record's ``attributes`` byte, and
  ``last_offset_delta`` (librdkafka does move on to base_offset + last_offset_delta + 1, but
  the end of partition it then reports is the fake broker's own number);
* answered ``unsupported`` for one request: a control batch (librdkafka consumes transaction
  markers itself and never hands them out), a batch without records (nothing is handed out,
  so no header field can be seen; librdkafka's skipping past it to the end of the partition
  is still required), and log-append time (librdkafka reports the batch's max_timestamp as
  every record's timestamp, as Kafka specifies, so the deltas are gone).

A refusal is what librdkafka reports: a consumer error event (CRC mismatch with check.crcs,
decompression failure, "message might be too large to fetch" for a batch cut short at the
end of the fetch), a protocol parse failure or read-buffer underflow in its debug log (the
batch is then silently skipped and fetched again forever), the binding failing to decode a
header key, or librdkafka fetching the same data three times without delivering a record, an
error or the end of the partition.

Legacy message sets (``kafka.message_set``) and record sets (``kafka.record_set``), decode only:
the input is served the same way, but as one Fetch response: the broker serves it at offset 0 and
answers a fetch from any later offset with the end of the partition there, so librdkafka reads
the bytes once, as a partition's records, and reports where it moved on to. It picks its reader
per entry by the magic byte, so magic 0, 1 and 2 mix. What it hands out of a legacy message: the
offset, key, value and, for magic 1 with a non-zero timestamp, the timestamp and its type; not the
magic, the reserved bits, or a timestamp type when there is no timestamp (``unsupported_fields``).
A plain message is mapped onto kafka_legacy's entry shape. A compressed wrapper's messages come out
flat with absolute offsets, without the wrapper: such an input is answered ``unsupported``, saying
what librdkafka's log reports per wrapper. A record set is split into entries where the broker's log
has them (each entry's offset, a v2 batch's offset range and base timestamp); v2 batches are mapped
as above except the codec (its log names one per fetch response), and the partial last entry, which
librdkafka drops silently, is not reported. A read-buffer underflow in its debug log refuses a
message set (``truncated``); in a record set it is that partial entry.

Encoding: a fresh ``confluent_kafka.Producer`` (``linger.ms`` long and ``flush()``, so one
call makes one batch; ``compression.codec`` per the value; no idempotence) produces each
record with its key, value, headers and timestamp to a fresh topic; the fake broker captures
the ``records`` of the ProduceRequest, which are answered as they are. librdkafka chooses
``base_offset`` 0, ``partition_leader_epoch`` 0, producer id/epoch/sequence -1, contiguous
offset deltas, ``base_timestamp`` = the first record's timestamp, ``max_timestamp`` = the
largest, create time, no control/transactional/delete-horizon/reserved bits, record
attributes 0, and it cannot write a timestamp <= 0 (0 means "now") or a batch without records.
A value asking for anything else is ``unsupported``, with the reason; so is a batch librdkafka
wrote uncompressed because compressing did not shrink it, or split into several batches.

See confluent_kafka_NOTES.md for what was tried, the timings and the results.

    python -m logcodec.conformance.testees.confluent_kafka
"""

from __future__ import annotations

import itertools
import logging
import re
import socket
import struct
import sys
import threading
import time

from typing import NamedTuple

from logcodec.conformance.testee import Implementation, Refused, Unsupported, main_guard
from logcodec.conformance.testees.kafka_legacy import MESSAGE_SET, RECORD_SET
from logcodec.conformance.testees.kafka_legacy import entry_json as legacy_entry_json

FORMAT = "kafka.record_batch_v2"

UNSUPPORTED_FIELDS = [
    "base_offset", "magic", "last_offset_delta", "base_timestamp", "max_timestamp",
    "producer_id", "producer_epoch", "base_sequence",
    "attributes.reserved", "attributes.has_delete_horizon", "attributes.is_control",
    "attributes.is_transactional",
    "records[].attributes",
]

#: librdkafka's names of the codecs in its logs (rd_kafka_compression2str) -> canonical names
LOG_CODECS = {"none": "none", "uncompressed": "none", "gzip": "gzip", "snappy": "snappy", "lz4": "lz4",
              "zstd": "zstd", "inherit": None}
CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}

DECODE_DEADLINE = 5.0  # seconds for one decode, at most
ENCODE_DEADLINE = 5.0  # seconds for one encode, at most
STUCK_FETCHES = 3  # the data served this often without progress: librdkafka will not deliver it
CONNECTION_IDLE = 60.0  # the fake broker drops a connection idle this long
LEADER_EPOCH_WRITTEN = 0  # what librdkafka's producer writes as partition_leader_epoch

_ENQUEUE = re.compile(r"Enqueue (\d+) message\(s\) .* on (\S+) \[\d+\] fetch queue \(.*?, (-?\d+) ctrl msgs, "
                      r"(-?\d+) aborted msgsets, (\w+)\)")
#: the same line from the reader of a legacy wrapper's inner message set (its codec: of a wrapper inside it)
_ENQUEUE_INNER = re.compile(r"Enqueue (\d+) compressed message\(s\) .* on (\S+) \[\d+\] fetch queue "
                            r"\(.*?last_offset (-?\d+), .*?, (\w+)\)")

#: what librdkafka cannot say of a legacy message (it has no timestamp type without a timestamp: magic 0,
#: or magic 1 with timestamp 0)
LEGACY_UNSUPPORTED = ["entries[].message.magic", "entries[].message.attributes.reserved",
                      "entries[].message.attributes.timestamp_type"]
#: of a record set: the legacy messages' fields, the v2 batches' (and their codec: librdkafka's log names
#: one per fetch response, not per batch) and the partial last entry, which librdkafka drops silently
RECORD_SET_UNSUPPORTED = LEGACY_UNSUPPORTED + [f"entries[].{p}" for p in UNSUPPORTED_FIELDS] + [
    "entries[].attributes.compression", "partial_entry"]


# ---------------------------------------------------------------- the fake broker


class _Partition:
    def __init__(self, data: bytes = b"", high_watermark: int = 0, one_response: bool = False) -> None:
        self.data = data
        self.high_watermark = high_watermark
        #: serve the data at offset 0 only; a fetch from any later offset finds the end of the partition there
        self.one_response = one_response
        self.served = 0  # Fetch responses that carried the data
        self.produced: list[bytes] = []


class FakeBroker:
    """A single-node Kafka broker on 127.0.0.1 that serves fixed bytes and captures produced ones."""

    #: api key -> (min, max) version advertised in ApiVersions: the lowest that librdkafka's
    #: consumer needs for record batches v2 (Fetch v4, Produce v3)
    ADVERTISED = {0: (3, 3), 1: (4, 4), 2: (1, 1), 3: (1, 1), 18: (0, 3)}
    #: to producers (client.id PRODUCER_ID) more: librdkafka compresses with lz4 only when the
    #: broker has FindCoordinator (its test for KIP-57's fixed lz4 framing, Kafka >= 0.10) and
    #: with zstd only when it has Produce v7 and Fetch v10 (Kafka >= 2.1); otherwise it silently
    #: sends the batch uncompressed. The producer never sends a Fetch or FindCoordinator.
    ADVERTISED_TO_PRODUCERS = {**ADVERTISED, 0: (3, 7), 1: (4, 10), 10: (0, 0)}
    PRODUCER_ID = "logcodec-producer"

    def __init__(self) -> None:
        from kafka.protocol.consumer.fetch import FetchRequest, FetchResponse
        from kafka.protocol.consumer.offsets import ListOffsetsRequest, ListOffsetsResponse
        from kafka.protocol.metadata.api_versions import ApiVersionsRequest, ApiVersionsResponse
        from kafka.protocol.metadata.metadata import MetadataRequest, MetadataResponse
        from kafka.protocol.producer.produce import ProduceRequest, ProduceResponse

        self.requests = {0: ProduceRequest, 1: FetchRequest, 2: ListOffsetsRequest, 3: MetadataRequest,
                         18: ApiVersionsRequest}
        self.R = {"fetch": FetchResponse, "offsets": ListOffsetsResponse, "versions": ApiVersionsResponse,
                  "metadata": MetadataResponse, "produce": ProduceResponse}
        self.partitions: dict[str, _Partition] = {}
        self.lock = threading.Lock()
        self.errors: list[str] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept, name="fake-broker", daemon=True).start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def close(self) -> None:
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass

    def add(self, topic: str, data: bytes = b"", high_watermark: int = 0, one_response: bool = False) -> _Partition:
        with self.lock:
            self.partitions[topic] = part = _Partition(data, high_watermark, one_response)
            return part

    def remove(self, topic: str) -> None:
        with self.lock:
            self.partitions.pop(topic, None)

    # ------------------------------------------------ connections

    def _accept(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), name="fake-broker-conn", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(CONNECTION_IDLE)
        stream = conn.makefile("rb")
        try:
            while not self.closed:
                head = stream.read(4)
                if len(head) < 4:
                    return
                (size,) = struct.unpack(">i", head)
                body = stream.read(size)
                if len(body) < size:
                    return
                out = self._handle(body)
                if out is not None:
                    conn.sendall(out)
        except (OSError, ValueError):
            return
        except Exception as exc:  # noqa: BLE001 - a broker bug must show, not hang a request
            self.errors.append(f"{type(exc).__name__}: {exc}")
            print(f"fake broker: {type(exc).__name__}: {exc}", file=sys.stderr)
        finally:
            conn.close()

    def _handle(self, body: bytes) -> bytes | None:
        key, version, correlation, id_len = struct.unpack(">hhih", body[:10])
        client_id = body[10:10 + max(id_len, 0)].decode("utf-8", "replace")
        advertised = self.ADVERTISED_TO_PRODUCERS if client_id == self.PRODUCER_ID else self.ADVERTISED
        cls = self.requests.get(key)
        low, high = advertised.get(key, (0, -1))
        if key == 18 and version > high:
            # Kafka's answer to a too new ApiVersionsRequest: v0, UNSUPPORTED_VERSION, the versions
            return self._encode(self._api_versions(advertised, error=35), 0, correlation)
        if cls is None or not low <= version <= high:
            self.errors.append(f"unexpected request: api key {key} v{version}")
            print(f"fake broker: unexpected request api key {key} v{version}", file=sys.stderr)
            return None
        request = cls.decode(body, version=version, header=True)
        response = {0: self._produce, 1: self._fetch, 2: self._list_offsets, 3: self._metadata,
                    18: lambda req: self._api_versions(advertised)}[key](request)
        if response is None:
            return None
        return self._encode(response, version, correlation)

    @staticmethod
    def _encode(response, version: int, correlation: int) -> bytes:
        response.API_VERSION = version
        response.with_header(correlation_id=correlation)
        return bytes(response.encode(header=True, framed=True))

    # ------------------------------------------------ the APIs

    def _api_versions(self, advertised: dict, error: int = 0):
        R = self.R["versions"]
        return R(error_code=error, throttle_time_ms=0, api_keys=[
            R.ApiVersion(api_key=k, min_version=lo, max_version=hi) for k, (lo, hi) in advertised.items()])

    def _metadata(self, request):
        R = self.R["metadata"]
        P = R.MetadataResponseTopic.MetadataResponsePartition
        with self.lock:
            names = [t.name for t in (request.topics or [])] if request.topics is not None else list(self.partitions)
            known = set(self.partitions)
        topics = [R.MetadataResponseTopic(
            error_code=0 if name in known else 3, name=name, is_internal=False,
            partitions=[P(error_code=0, partition_index=0, leader_id=0, replica_nodes=[0], isr_nodes=[0],
                          offline_replicas=[])] if name in known else [])
            for name in names]
        return R(throttle_time_ms=0, brokers=[R.MetadataResponseBroker(node_id=0, host="127.0.0.1", port=self.port,
                                                                       rack=None)],
                 cluster_id="logcodec-fake", controller_id=0, topics=topics)

    def _fetch(self, request):
        R = self.R["fetch"]
        D = R.FetchableTopicResponse.PartitionData
        topics, served_any = [], False
        for t in request.topics:
            parts = []
            for p in t.partitions:
                with self.lock:
                    part = self.partitions.get(t.topic)
                    if part is None or p.partition != 0:
                        parts.append(D(partition_index=p.partition, error_code=3, high_watermark=-1,
                                       last_stable_offset=-1, aborted_transactions=None, records=None))
                        continue
                    hw = part.high_watermark
                    if part.one_response and p.fetch_offset > 0:
                        hw = p.fetch_offset  # librdkafka is done with the response: end of partition
                    records = part.data if p.fetch_offset < hw else b""
                    if p.fetch_offset < hw:
                        part.served += 1
                        served_any = bool(records)
                parts.append(D(partition_index=0, error_code=0, high_watermark=hw, last_stable_offset=hw,
                               aborted_transactions=[], records=records))
            topics.append(R.FetchableTopicResponse(topic=t.topic, partitions=parts))
        if not served_any:
            time.sleep(min(max(request.max_wait_ms, 0), 100) / 1000)  # a long poll, as brokers do
        return R(throttle_time_ms=0, responses=topics)

    def _list_offsets(self, request):
        R = self.R["offsets"]
        P = R.ListOffsetsTopicResponse.ListOffsetsPartitionResponse
        out = []
        for t in request.topics:
            with self.lock:
                part = self.partitions.get(t.name)
            parts = [P(partition_index=p.partition_index, error_code=0 if part else 3, timestamp=-1,
                       offset=(part.high_watermark if p.timestamp == -1 else 0) if part else -1)
                     for p in t.partitions]
            out.append(R.ListOffsetsTopicResponse(name=t.name, partitions=parts))
        return R(throttle_time_ms=0, topics=out)

    def _produce(self, request):
        R = self.R["produce"]
        P = R.TopicProduceResponse.PartitionProduceResponse
        out = []
        for t in request.topic_data:
            parts = []
            for p in t.partition_data:
                with self.lock:
                    part = self.partitions.get(t.name)
                    if part is not None and p.index == 0:
                        part.produced.append(bytes(p.records or b""))
                parts.append(P(index=p.index, error_code=0 if part else 3, base_offset=0, log_append_time_ms=-1))
            out.append(R.TopicProduceResponse(name=t.name, partition_responses=parts))
        return None if request.acks == 0 else R(responses=out, throttle_time_ms=0)


# ---------------------------------------------------------------- librdkafka's side


class _LogLines(logging.Handler):
    """Keeps the librdkafka log lines of one client (they arrive through poll())."""

    KEEP = ("PROTOERR", "PROTOUFLOW", "CONSUME", "FETCHERR", "ERROR", "FAIL", "MSGSET", "CRC")

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        if line.split(" ", 1)[0] in self.KEEP and len(self.lines) < 500:
            self.lines.append(line)


def _logger(name: str) -> tuple[logging.Logger, _LogLines]:
    lines = _LogLines()
    logger = logging.Logger(name, logging.DEBUG)  # not registered: one per client, garbage-collected
    logger.addHandler(lines)
    return logger, lines


def _error_kind(code: int, text: str) -> str | None:
    from confluent_kafka import KafkaError

    if code == KafkaError._BAD_MSG and "CRC" in text:
        return "checksum_mismatch"
    if code == KafkaError._BAD_COMPRESSION:
        return "corrupt_compressed"
    if code == KafkaError._NOT_IMPLEMENTED and "Decompression" in text:
        return "unknown_codec"
    if code == KafkaError._NOT_IMPLEMENTED and "Unsupported Message(Set) MagicByte" in text:
        return "invalid_value"  # a magic above 2
    if code == KafkaError.MSG_SIZE_TOO_LARGE:
        return "truncated"  # the fetched data ends inside the first batch
    return None


def _log_kind(line: str) -> str | None:
    if line.startswith("PROTOUFLOW"):
        return "truncated"
    if line.startswith("PROTOERR") and re.search(r"length -?\d+ < header size", line):
        return "invalid_length"
    return None


def _unicode_error(exc: BaseException) -> UnicodeDecodeError | None:
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, UnicodeDecodeError):
            return exc
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


def _int(data: bytes, start: int, size: int) -> int:
    return int.from_bytes(data[start:start + size], "big", signed=True)


class _Consumed(NamedTuple):
    """What one consumer got: messages (offset, (timestamp type, timestamp), key, value, headers,
    leader epoch), error events (code, name, text), the end of partition, a header-key failure of the
    binding, librdkafka's kept log lines, and how often the broker served the data."""
    topic: str
    messages: list
    errors: list
    eof: int | None
    header_error: str | None
    lines: list
    served: int


def _enqueued(got: _Consumed) -> list[tuple]:
    return [m.groups() for m in map(_ENQUEUE.search, got.lines) if m and m.group(2) == got.topic]


def _problems(lines: list[str]) -> list[str]:
    return [x for x in lines if x.startswith(("PROTOERR", "PROTOUFLOW"))]


def _legacy_json(message: tuple) -> dict:
    """One legacy message as librdkafka hands it out, as a message set's entry (kafka_legacy's shape)."""
    from confluent_kafka import TIMESTAMP_NOT_AVAILABLE

    offset, (kind, stamp), key, value, _headers, _epoch = message
    attributes = {"reserved": None, "timestamp_type": None, "compression": "none"}  # not a wrapper: no codec
    return legacy_entry_json(offset, None, attributes, None if kind == TIMESTAMP_NOT_AVAILABLE else str(stamp),
                             None if key is None else key.hex(), None if value is None else value.hex())


class _Framed(NamedTuple):
    offset: int
    magic: int | None
    last_offset: int  # a v2 batch's base_offset + last_offset_delta; a legacy message's offset
    base_timestamp: int  # a v2 batch's, else 0


def _frame(data: bytes) -> list[_Framed]:
    """The whole entries of a record set as a broker's log holds them (offset, size, magic; a v2 batch's
    offset range and base timestamp, which its log index keeps): where librdkafka's flat list of
    messages is split into entries. A cut-off tail is not an entry."""
    out, pos = [], 0
    while pos + 12 <= len(data):
        size = _int(data, pos + 8, 4)
        end = pos + 12 + size
        if size < 0 or end > len(data):
            break
        offset, magic = _int(data, pos, 8), (data[pos + 16] if size > 4 else None)
        if magic == 2 and size >= 23:
            out.append(_Framed(offset, 2, offset + _int(data, pos + 23, 4), _int(data, pos + 27, 8)))
        else:
            out.append(_Framed(offset, magic, offset, 0))
        pos = end
    return out


def _high_watermark(data: bytes) -> int:
    """The partition's end as a broker's log index has it: base_offset + last_offset_delta + 1.

    Never below 1, so the data is always served at offset 0 and an end of partition is
    only reached by moving past it."""
    if len(data) < 27:
        return 1
    end = _int(data, 0, 8) + _int(data, 23, 4) + 1
    return max(1, min(end, 2**63 - 1))


class Librdkafka:
    def __init__(self) -> None:
        import confluent_kafka

        self.ck = confluent_kafka
        self.broker = FakeBroker()
        self.names = itertools.count()
        self.lock = threading.Lock()

    def _topic(self, op: str) -> str:
        # One length for every name: where the batch sits in librdkafka's receive buffer depends on
        # it, and librdkafka's handling of invalid/crc_over_attributes depends on that (see NOTES).
        with self.lock:
            return f"logcodec-{op[0]}{next(self.names) % 10**6:06d}"

    # ------------------------------------------------ decode

    def decode(self, data: bytes) -> dict:
        got = self._consume(data, _high_watermark(data))
        self._refusal(got)
        if got.eof is None:
            self._stalled(got)
        return self._batch(got, got.messages, _int(data, 0, 8), _int(data, 27, 8), codec_from_log=True)

    def decode_message_set(self, data: bytes) -> dict:
        got = self._consume(data, 1 if data else 0, one_response=True)
        self._legacy_refusal(got, cut_is_error=True)
        self._no_wrappers(got)
        return {"entries": [_legacy_json(m) for m in got.messages], "inner_offset_base": None}

    def decode_record_set(self, data: bytes) -> dict:
        got = self._consume(data, 1 if data else 0, one_response=True)
        self._legacy_refusal(got, cut_is_error=False)
        self._no_wrappers(got)
        self._no_controls(got)
        rest, entries = list(got.messages), []
        for entry in _frame(data):
            if entry.magic != 2:  # a legacy message: librdkafka hands out one message at its offset, or none
                if rest and rest[0][0] == entry.offset:
                    entries.append(_legacy_json(rest.pop(0)))
                continue
            records = []
            while rest and entry.offset <= rest[0][0] <= entry.last_offset:
                records.append(rest.pop(0))
            if not records:
                raise Unsupported(f"librdkafka hands out no record of the v2 batch at offset {entry.offset}, and it "
                                  f"exposes header fields only through records")
            # no codec: librdkafka's log names one per fetch, not per batch (unsupported_fields)
            entries.append(self._batch(got, records, entry.offset, entry.base_timestamp, codec_from_log=False))
        # messages that fall in no whole entry (a misread offset) are shown as they are, so the case fails
        entries += [_legacy_json(m) for m in rest]
        return {"entries": entries, "partial_entry": None}

    # ------------------------------------------------ consuming

    def _consume(self, data: bytes, high_watermark: int, one_response: bool = False) -> "_Consumed":
        ck = self.ck
        topic = self._topic("decode")
        part = self.broker.add(topic, data, high_watermark, one_response)
        logger, log = _logger(topic)
        consumer = ck.Consumer({
            "bootstrap.servers": self.broker.address, "group.id": "logcodec-conformance",
            "enable.auto.commit": False, "enable.partition.eof": True, "check.crcs": True,
            "fetch.wait.max.ms": 10, "fetch.error.backoff.ms": 10, "socket.connection.setup.timeout.ms": 3000,
            "topic.metadata.refresh.interval.ms": 1000, "debug": "fetch,msg,protocol", "logger": logger,
        })
        messages, errors, eof, header_error = [], [], None, None
        deadline = time.monotonic() + DECODE_DEADLINE
        try:
            consumer.assign([ck.TopicPartition(topic, 0, 0)])
            while True:
                # The binding turns a header key that is not UTF-8 into a UnicodeDecodeError which it
                # sometimes leaves pending, so it surfaces as a SystemError from a later C call (even
                # time.monotonic()): every call of the loop is guarded.
                try:
                    if time.monotonic() >= deadline:
                        break
                    msg = consumer.poll(0.02)
                    if msg is None:
                        if part.served >= STUCK_FETCHES:
                            break
                        continue
                    err = msg.error()
                    if err is not None:
                        if err.code() == ck.KafkaError._PARTITION_EOF:
                            eof = msg.offset()
                            break
                        errors.append((err.code(), err.name(), err.str()))
                        break
                    messages.append((msg.offset(), msg.timestamp(), msg.key(), msg.value(), msg.headers() or [],
                                     msg.leader_epoch()))
                except (SystemError, UnicodeDecodeError) as exc:
                    cause = _unicode_error(exc)
                    if cause is None:
                        raise
                    header_error = f"{type(cause).__name__}: {cause}"
                    break
            # the codec line of the msg debug log comes before the messages; poll a little if it has not
            if eof is not None and not any(_ENQUEUE.search(x) for x in log.lines):
                for _ in range(5):
                    consumer.poll(0.02)
                    if any(_ENQUEUE.search(x) for x in log.lines):
                        break
        finally:
            consumer.close()
            self.broker.remove(topic)
        return _Consumed(topic, messages, errors, eof, header_error, log.lines, part.served)

    # ------------------------------------------------ what librdkafka said

    @staticmethod
    def _refusal(got: "_Consumed") -> None:
        """A consumer error event, or the binding failing on a header key, is a refusal."""
        if got.errors:
            code, name, text = got.errors[0]
            raise Refused(f"librdkafka consumer error {name} ({code}): {text}", _error_kind(code, text))
        if got.header_error:
            raise Refused(f"confluent-kafka cannot decode a header key as UTF-8 ({got.header_error})", "invalid_value")

    @staticmethod
    def _stalled(got: "_Consumed") -> None:
        """No end of partition: librdkafka skipped the data (its debug log says why) or never got past it."""
        problems = _problems(got.lines)
        if problems:
            detail = "; ".join(dict.fromkeys(re.sub(r"^\S+ \[[^]]*\] \[[^]]*\]: \S+: ", "", x) for x in problems))
            raise Refused(f"librdkafka skips the batch and fetches it again ({detail[:400]})",
                          _log_kind(problems[-1]))
        raise Refused(f"librdkafka delivered no record, no error and no end of partition "
                      f"(the data was fetched {got.served} times)", None)

    def _legacy_refusal(self, got: "_Consumed", cut_is_error: bool) -> None:
        """For message and record sets, which librdkafka reads in one Fetch response: besides its error
        events, a parse failure in its debug log is a refusal, and so is a read-buffer underflow (an
        entry cut short, which it drops silently as the partial tail of a fetch) when `cut_is_error`."""
        self._refusal(got)
        if got.eof is None:
            self._stalled(got)
        problems = [x for x in _problems(got.lines) if cut_is_error or not x.startswith("PROTOUFLOW")]
        if problems:
            detail = "; ".join(dict.fromkeys(re.sub(r"^\S+ \[[^]]*\] \[[^]]*\]: \S+: ", "", x) for x in problems))
            raise Refused(f"librdkafka delivered {len(got.messages)} message(s) and stopped reading the fetch "
                          f"({detail[:400]})", _log_kind(problems[-1]))

    @staticmethod
    def _no_wrappers(got: "_Consumed") -> None:
        """A legacy wrapper's messages come out flat, with absolute offsets: the wrapper itself (offset,
        magic, timestamp, key, codec) and the inner offsets as written are not exposed, so the value cannot
        be rebuilt. The answer says what librdkafka did: its log line per wrapper counts the inner
        messages it read and names their last offset as written, and the codec of a wrapper inside."""
        wrappers = [m.groups() for m in map(_ENQUEUE_INNER.search, got.lines) if m and m.group(2) == got.topic]
        if not wrappers:
            return
        read = sum(int(n) for n, *_ in wrappers)
        said = "; ".join(f"{n} inner message(s), the last at offset {last} as written"
                         + ("" if codec == "uncompressed" else f", among them a {codec} wrapper, decompressed too")
                         for n, _, last, codec in wrappers)
        offsets = [m[0] for m in got.messages]
        nested = any(codec != "uncompressed" for *_, codec in wrappers)  # its count includes the inner ones
        lost = "" if nested or len(offsets) >= read else (
            f"; {read - len(offsets)} message(s) read were not handed out (magic 1: librdkafka adds the base "
            f"wrapper offset - last inner offset even when negative and drops what falls below the fetch offset 0)")
        raise Unsupported(f"librdkafka hands out the messages of compressed wrappers flat, without the wrapper "
                          f"(offset, magic, timestamp, key, codec) or the inner offsets as written. Its log: "
                          f"{len(wrappers)} wrapper(s): {said}; handed out {len(offsets)} message(s) in all, "
                          f"offsets {offsets[:12]}{lost}")

    @staticmethod
    def _no_controls(got: "_Consumed") -> None:
        controls = sum(int(g[2]) for g in _enqueued(got))
        if controls:
            raise Unsupported(f"librdkafka consumed {controls} control record(s) itself")

    @staticmethod
    def _codec(got: "_Consumed") -> str:
        codecs = {LOG_CODECS.get(g[4], g[4]) for g in _enqueued(got) if int(g[0]) > 0}
        if len(codecs) != 1 or None in codecs:
            raise Unsupported(f"librdkafka's log did not state one codec for the batch ({sorted(map(str, codecs))})")
        return codecs.pop()

    def _batch(self, got: "_Consumed", messages: list, base_offset: int, base_timestamp: int,
               codec_from_log: bool) -> dict:
        """A v2 batch from the records librdkafka handed out of it; its codec from librdkafka's log when
        `codec_from_log` (the input is that one batch), else left out."""
        controls = sum(int(g[2]) for g in _enqueued(got))
        eof = got.eof
        if not messages:
            if controls:
                raise Unsupported(f"a control batch: librdkafka consumes its {controls} control record(s) "
                                  f"itself and hands out none (it moved on to offset {eof})")
            raise Unsupported(f"librdkafka hands out no record for this batch (it moved on to offset {eof}), "
                              f"and it exposes header fields only through records")
        if controls:
            raise Unsupported(f"librdkafka consumed {controls} control record(s) itself")
        if any(ts[0] == self.ck.TIMESTAMP_LOG_APPEND_TIME for _, ts, *_ in messages):
            raise Unsupported("log-append time: librdkafka reports the batch's max_timestamp "
                              f"({messages[0][1][1]}) as every record's timestamp, so timestamp_delta is not exposed")
        if any(ts[0] != self.ck.TIMESTAMP_CREATE_TIME for _, ts, *_ in messages):
            raise Unsupported(f"librdkafka reports no timestamp type ({messages[0][1]})")
        attributes = {"timestamp_type": "create_time"}
        if codec_from_log:
            attributes["compression"] = self._codec(got)
        epochs = {(-1 if m[5] is None else m[5]) for m in messages}
        return {
            "partition_leader_epoch": epochs.pop() if len(epochs) == 1 else sorted(epochs),
            "attributes": attributes,
            "records": [{
                "timestamp_delta": str(ts[1] - base_timestamp),
                "offset_delta": offset - base_offset,
                "key": None if key is None else key.hex(),
                "value": None if value is None else value.hex(),
                "headers": [{"key": k, "value": None if v is None else bytes(v).hex()} for k, v in headers],
            } for offset, ts, key, value, headers, _ in messages],
        }

    # ------------------------------------------------ encode

    def encode(self, value: dict) -> bytes:
        records, codec = self._producible(value)
        ck = self.ck
        topic = self._topic("encode")
        part = self.broker.add(topic)
        logger, _ = _logger(topic)
        delivered, failures = [], []

        def report(err, msg):
            (failures if err is not None else delivered).append(err or msg)

        producer = ck.Producer({
            "bootstrap.servers": self.broker.address, "client.id": FakeBroker.PRODUCER_ID,
            "acks": 1, "enable.idempotence": False,
            "linger.ms": 2000, "batch.num.messages": 1000000, "batch.size": 2**31 - 1,
            "message.max.bytes": 1000000000, "compression.codec": codec, "message.timeout.ms": 4000,
            "socket.connection.setup.timeout.ms": 3000, "logger": logger,
        })
        try:
            for key, val, headers, timestamp in records:
                producer.produce(topic, value=val, key=key, headers=headers, partition=0, timestamp=timestamp,
                                 on_delivery=report)
            left = producer.flush(ENCODE_DEADLINE)
        finally:
            self.broker.remove(topic)
        if failures or left:
            raise Refused(f"librdkafka did not deliver the records: {failures[:1] or f'{left} left'}", None)
        if len(part.produced) != 1:
            raise Unsupported(f"librdkafka sent the records in {len(part.produced)} produce requests")
        out = part.produced[0]
        if len(out) < 61 or 12 + _int(out, 8, 4) != len(out):
            raise Unsupported("librdkafka wrote the records as more than one batch")
        if _int(out, 21, 2) & 7 != CODEC_IDS[codec]:
            raise Unsupported(f"librdkafka sent the batch without compression: {codec} did not make it smaller")
        return out

    @staticmethod
    def _producible(value: dict) -> tuple[list, str]:
        """What librdkafka's producer is asked to send, or `unsupported` with what it cannot write."""
        attrs = value.get("attributes") or {}
        records = value.get("records") or []
        need = {
            "base_offset": ("0", "librdkafka writes base_offset 0"),
            "partition_leader_epoch": (LEADER_EPOCH_WRITTEN, f"librdkafka writes partition_leader_epoch "
                                                             f"{LEADER_EPOCH_WRITTEN}"),
            "magic": (2, "librdkafka writes magic 2"),
            "producer_id": ("-1", "without idempotence librdkafka writes producer_id -1"),
            "producer_epoch": (-1, "without idempotence librdkafka writes producer_epoch -1"),
            "base_sequence": (-1, "without idempotence librdkafka writes base_sequence -1"),
        }
        for name, (wanted, why) in need.items():
            if value.get(name) != wanted:
                raise Unsupported(f"{name} {value.get(name)!r}: {why}")
        for name, wanted in (("reserved", 0), ("has_delete_horizon", False), ("is_control", False),
                             ("is_transactional", False), ("timestamp_type", "create_time")):
            if attrs.get(name) != wanted:
                raise Unsupported(f"attributes.{name} {attrs.get(name)!r}: librdkafka's producer writes {wanted!r}")
        codec = attrs.get("compression")
        if codec not in CODEC_IDS:
            raise Unsupported(f"codec {codec!r}: librdkafka writes none, gzip, snappy, lz4 or zstd")
        if not records:
            raise Unsupported("librdkafka cannot produce a batch without records")
        base = int(value["base_timestamp"])
        out = []
        for i, rec in enumerate(records):
            if rec.get("attributes") != 0:
                raise Unsupported(f"record attributes {rec.get('attributes')!r}: librdkafka writes 0")
            if rec.get("offset_delta") != i:
                raise Unsupported(f"offset deltas {[r.get('offset_delta') for r in records][:8]}: "
                                  f"librdkafka writes 0, 1, 2, ...")
            if not isinstance(rec.get("key"), (str, type(None))) or not isinstance(rec.get("value"), (str, type(None))):
                raise Unsupported("a control record's key or value: librdkafka's producer writes no control record")
            timestamp = base + int(rec["timestamp_delta"])
            if timestamp <= 0:
                raise Unsupported(f"timestamp {timestamp}: librdkafka replaces a timestamp of 0 by the current "
                                  f"time and cannot be given a negative one")
            headers = [(h["key"], None if h["value"] is None else bytes.fromhex(h["value"]))
                       for h in rec.get("headers") or []]
            out.append((None if rec["key"] is None else bytes.fromhex(rec["key"]),
                        None if rec["value"] is None else bytes.fromhex(rec["value"]), headers, timestamp))
        if int(records[0]["timestamp_delta"]) != 0:
            raise Unsupported("librdkafka writes the first record's timestamp as base_timestamp, "
                              f"so its timestamp_delta is 0, not {records[0]['timestamp_delta']}")
        largest = max(t for *_, t in out)
        if int(value["max_timestamp"]) != largest:
            raise Unsupported(f"max_timestamp {value['max_timestamp']}: librdkafka writes the largest record "
                              f"timestamp, {largest}")
        last = value.get("last_offset_delta")
        if last is not None and last != len(records) - 1:
            raise Unsupported(f"last_offset_delta {last}: librdkafka writes the last record's, {len(records) - 1}")
        return out, codec


def build() -> Implementation:
    import confluent_kafka

    lib = Librdkafka()
    version, _ = confluent_kafka.libversion()
    return Implementation(
        name="librdkafka (confluent-kafka)",
        version=f"{version} (confluent-kafka {confluent_kafka.version()[0]})",
        handlers={FORMAT: {"decode": lib.decode, "encode": lib.encode},
                  MESSAGE_SET: {"decode": lib.decode_message_set}, RECORD_SET: {"decode": lib.decode_record_set}},
        unsupported_fields={FORMAT: UNSUPPORTED_FIELDS, MESSAGE_SET: LEGACY_UNSUPPORTED,
                            RECORD_SET: RECORD_SET_UNSUPPORTED},
    )


if __name__ == "__main__":
    main_guard(build)

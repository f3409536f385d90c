"""A captured Kafka connection: the client's requests and the broker's responses, paired.

A connection carries `kafka.frame`s: a client writes its requests end to end, each after its size,
and the broker its responses, in the order of the requests they answer (a Produce request with
`acks` 0 gets none). A response's header holds only its request's correlation id, so a response
can be read only beside its request: `read_conversation` reads the requests (`kafka.request`),
then each response (`kafka.response`) with the API and version of the request whose correlation
id it carries. What a capture of a connection holds, each side's bytes as sent, is its input
(as `tshark`'s "follow TCP stream" saves them, one file a direction).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from logcodec._api import codec
from logcodec.inputs import InputError
from logcodec.net.tcp import tcp_streams
from logcodec.relay import captured
from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits
from logcodec.runtime.values import to_json

PRODUCE = 0  # the API key of Produce, whose requests with acks 0 are not answered


@dataclass
class Exchange:
    """A request and its response. Offsets are where each frame's size starts in its side's bytes."""

    request_at: int
    correlation_id: int | None  # None where not even the request's header could be read
    api_key: int | None
    api_version: int | None
    request: object | None  # the `kafka.request` value; None where it could not be decoded
    expects_response: bool
    response_at: int | None = None  # None: unanswered (the capture ends first, or acks 0)
    response: object | None = None  # the `kafka.response` value; None where unanswered or not decoded

    def to_json(self) -> dict:
        return {"request_at": self.request_at, "correlation_id": self.correlation_id, "api_key": self.api_key,
                "api_version": self.api_version, "request": _json(self.request),
                "expects_response": self.expects_response, "response_at": self.response_at,
                "response": _json(self.response)}


@dataclass(frozen=True)
class Stray:
    """A response that answers no request of the capture (its request was before the capture began,
    or could not be read): its place, the correlation id it carries and its bytes, not decoded."""

    response_at: int
    correlation_id: int | None
    frame: bytes

    def to_json(self) -> dict:
        return {"response_at": self.response_at, "correlation_id": self.correlation_id, "frame": self.frame.hex()}


@dataclass
class Conversation:
    """What `read_conversation` read.

    `findings` are the DecodeErrors of frames that could not be read, and the responses that
    answer no request or answer one out of order; each names its side in its path
    (`requests[3].request.body.acks`) and its offset in that side's bytes. `cut` holds, for each
    side whose bytes end inside a frame (as a capture stops), that `truncated` error: no finding.
    """

    exchanges: list[Exchange] = field(default_factory=list)
    strays: list[Stray] = field(default_factory=list)
    findings: list[DecodeError] = field(default_factory=list)
    cut: dict[str, DecodeError] = field(default_factory=dict)
    #: for a connection captured after it began (`mid_connection`), the bytes of each side before
    #: its first whole frame, which are not read (every offset still counts from the side's start)
    skipped: dict[str, int] = field(default_factory=dict)

    def to_json(self, first: int | None = None) -> dict:
        """The conversation's JSON; with `first`, only the first exchanges, strays and findings."""
        return {"exchanges": [e.to_json() for e in self.exchanges[:first]],
                "strays": [s.to_json() for s in self.strays[:first]],
                "findings": [f.to_json() for f in self.findings[:first]],
                "cut": {side: error.to_json() for side, error in self.cut.items()},
                **({"skipped": dict(self.skipped)} if self.skipped else {})}


def read_conversation(requests: bytes, responses: bytes = b"", *, limits: Limits = DEFAULT_LIMITS,
                      mid_connection: bool = False) -> Conversation:
    """The exchanges of a connection from the bytes each side sent (`responses` may be left out).

    Never raises DecodeError: a frame that cannot be read is a finding, and the frames after it
    are read on (a frame's size frames it whatever its content); a side whose sizes cannot be read
    any further (a negative size) ends there, with a finding. Each frame is decoded whole, every
    record of its batches and every CRC checked (`lazy=False`), within `limits`.

    `mid_connection`: the capture began after the connection did (a packet capture without its
    handshake), so each side may start inside a frame. The client's side is read from the first
    place where `FRAMES_TO_TRUST` frames in a row are requests (or fewer, to its end), the broker's
    from its first frame that answers one of those requests; the bytes before (`skipped`, the
    responses to requests sent before the capture among them) are no finding."""
    out = Conversation()
    reader = codec("kafka.request")  # (looked up once: a capture may hold many thousands of frames)
    start = _first_whole_frame(requests, _is_request(reader, limits)) if mid_connection else 0
    for at, frame in _frames(requests, "requests", out, limits, start):
        out.exchanges.append(_request(reader, at, frame, len(out.exchanges), out.findings, limits))
    answered = {e.correlation_id for e in out.exchanges if e.correlation_id is not None}
    start_responses = _first_whole_frame(responses, _answers(answered, limits)) if mid_connection else 0
    out.skipped = {side: n for side, n in (("requests", start), ("responses", start_responses)) if n}
    _answer(out, responses, limits, start_responses)
    return out


#: How many frames in a row must read as requests where a client's side captured after the
#: connection began is taken to start (`read_conversation`'s `mid_connection`): a size and a
#: header read by chance at one place seldom go on into a second and a third.
FRAMES_TO_TRUST = 3
#: The bytes of such a side searched for that place (a capture whose first whole frame is further
#: in reads nothing of that side).
MAX_SKIPPED = 1 << 20


def _first_whole_frame(data: bytes, accepts) -> int:
    """Where the first frame of a side captured after its connection began starts: the first place
    from which `FRAMES_TO_TRUST` frames (or as many as there are to the side's end, one at least)
    are each one `accepts` (given its bytes after the size); the side's end where there is none."""
    frames = codec("kafka.frame")
    view, content_at = memoryview(data), _content_at()
    for k in range(min(len(data), MAX_SKIPPED)):
        at, trusted = k, 0
        while trusted < FRAMES_TO_TRUST and at < len(data):
            try:
                size = frames.entry_size(view, at)
            except DecodeError:
                break
            if at + size > len(data) or not accepts(bytes(view[at + content_at:at + size])):
                break
            at, trusted = at + size, trusted + 1
        if trusted == FRAMES_TO_TRUST or (trusted and at == len(data)):
            return k
    return len(data)


def _is_request(requests, limits: Limits):
    """Whether a frame's bytes start with a request header (an API key and version the specs have)."""
    def accepts(frame: bytes) -> bool:
        try:
            requests.decode_part("request_header", frame, limits=limits)
        except DecodeError:
            return False
        return True
    return accepts


def _answers(correlation_ids: set[int], limits: Limits):
    """Whether a frame's bytes start with a response header carrying one of `correlation_ids`."""
    responses = codec("kafka.response")

    def accepts(frame: bytes) -> bool:
        try:
            header, _ = responses.decode_part("response_header", frame, header_version=0, limits=limits)
        except DecodeError:
            return False
        return header.correlation_id in correlation_ids
    return accepts


@dataclass
class Capture:
    """What `read_capture` read: each connection of a capture, by its number, and every finding of
    them, its path under `connections[k]` (k: its place in `connections`). For a packet capture,
    `endpoints` holds each connection's client and broker (`address:port`), and the findings also
    hold the packets that could not be read (`packets[i]`) and the bytes a side lost."""

    connections: list[tuple[int, Conversation]] = field(default_factory=list)
    endpoints: dict[int, tuple[str, str]] = field(default_factory=dict)
    unread: list[DecodeError] = field(default_factory=list)  # a packet capture's packets not read

    @property
    def findings(self) -> list[DecodeError]:
        return self.unread + [_placed(f, 0, f"connections[{k}]") for k, (_, conversation) in
                              enumerate(self.connections) for f in conversation.findings]

    def to_json(self) -> dict:
        return {"connections": [{"connection": n, **self._ends(n), **conversation.to_json()}
                                for n, conversation in self.connections]}

    def _ends(self, n: int) -> dict:
        return dict(zip(("client", "broker"), self.endpoints[n], strict=True)) if n in self.endpoints else {}


def read_capture(path: Path, *, limits: Limits = DEFAULT_LIMITS) -> Capture:
    """Every connection of a capture, each read as `read_conversation` reads a client's bytes and
    the broker's. A capture is a folder as `logcodec record` writes one (and as the TANK captures
    are laid out): `frames/connN.c2s.bin`, the client's bytes, and `connN.s2c.bin`, the broker's
    (none: nothing was answered), or the same files in the folder itself; or a packet capture, a
    pcap or pcapng file (`tcpdump -w`, Wireshark), whose TCP connections are each read as a Kafka
    connection (`logcodec.net.tcp_streams`: capture the Kafka traffic alone, `port 9092`). A
    folder without such files, or a file that is no packet capture, is an InputError."""
    path = Path(path)
    if path.is_file():
        return _read_packets(path.read_bytes(), str(path), limits)
    found = captured(path)
    if not found:
        raise InputError(f"{path}: no frames/connN.c2s.bin in it (the layout `logcodec record` writes), nor "
                         "connN.c2s.bin")
    capture = Capture()
    for n, client, broker in found:
        responses = broker.read_bytes() if broker.is_file() else b""
        capture.connections.append((n, read_conversation(client.read_bytes(), responses, limits=limits)))
    return capture


def _read_packets(data: bytes, name: str, limits: Limits) -> Capture:
    """The Kafka connections of a pcap or pcapng capture (`read_capture`)."""
    try:
        streams = tcp_streams(data, limits=limits)
    except DecodeError as exc:
        raise InputError(f"{name}: neither a folder of captured connections nor a pcap or pcapng file "
                         f"(little-endian) that reads ({exc})") from None
    capture = Capture(unread=list(streams.findings))
    for n, connection in enumerate(streams.connections):
        client, broker = connection.client, connection.server
        conversation = read_conversation(bytes(client.data), bytes(broker.data), limits=limits,
                                         mid_connection=not connection.handshake)
        for side, where in ((client, "requests"), (broker, "responses")):
            if side.lost is not None:
                at, missing = side.lost
                conversation.findings.append(DecodeError(
                    "truncated", f"the capture lost {missing} bytes of this side after its first {at} (packets "
                    "it did not keep, or cut at its snaplen): the frames after them are not read", at, where))
        capture.connections.append((n, conversation))
        capture.endpoints[n] = (f"{client.address}:{client.port}", f"{broker.address}:{broker.port}")
    return capture


def _frames(data: bytes, side: str, out: Conversation, limits: Limits, start: int = 0):
    """(offset, frame bytes) of each whole frame of one side from `start`, then what ends it, in `out`."""
    frames = codec("kafka.frame")
    view = memoryview(data)
    bounds, stop = frames.entry_bounds(view, start)
    for at, end in bounds:
        yield at, frames.decode(view[at:end], limits=limits).frame
    if stop < len(data):
        try:
            frames.decode(view[stop:], limits=limits)
        except DecodeError as exc:
            error = _placed(exc, stop, f"{side}[{len(bounds)}]")
            if error.kind == "truncated":
                out.cut[side] = error
            else:
                out.findings.append(error)


def _request(requests, at: int, frame: bytes, n: int, findings: list, limits: Limits) -> Exchange:
    """The exchange of one request frame (`requests`: the `kafka.request` module), its error a finding."""
    try:
        value = requests.decode(frame, limits=limits, lazy=False)
    except DecodeError as exc:
        findings.append(_placed(exc, at + _content_at(), f"requests[{n}]"))
        try:
            header, _ = requests.decode_part("request_header", frame, limits=limits)
        except DecodeError:
            return Exchange(at, None, None, None, None, expects_response=False)
        return Exchange(at, header.correlation_id, header.request_api_key, header.request_api_version, None,
                        expects_response=True)
    header = value.header
    unanswered = header.request_api_key == PRODUCE and value.body.acks == 0
    return Exchange(at, header.correlation_id, header.request_api_key, header.request_api_version, value,
                    expects_response=not unanswered)


def _answer(out: Conversation, data: bytes, limits: Limits, start: int = 0) -> None:
    """Pair each response from `start` on with the request whose correlation id it carries, and
    decode it so."""
    responses = codec("kafka.response")
    waiting = _Waiting(e for e in out.exchanges if e.expects_response and e.correlation_id is not None)
    unread = _unread(out.exchanges)
    for n, (at, frame) in enumerate(_frames(data, "responses", out, limits, start)):
        where = f"responses[{n}]"
        try:
            header, _ = responses.decode_part("response_header", frame, header_version=0, limits=limits)
        except DecodeError as exc:
            out.findings.append(_placed(exc, at + _content_at(), where))
            out.strays.append(Stray(at, None, bytes(frame)))
            continue
        exchange = waiting.first_of(header.correlation_id)
        if exchange is None:
            out.findings.append(DecodeError("invalid_value", f"correlation id {header.correlation_id} answers no "
                                            f"request of the capture that waits for a response{unread}",
                                            at + _content_at(), f"{where}.response.header.correlation_id"))
            out.strays.append(Stray(at, header.correlation_id, bytes(frame)))
            continue
        earliest = waiting.earliest()
        if exchange is not earliest:
            out.findings.append(DecodeError("invalid_value", f"answers correlation id {header.correlation_id} "
                                            f"before {earliest.correlation_id}, sent earlier: a broker answers "
                                            "in order", at + _content_at(), f"{where}.response.header.correlation_id"))
        waiting.answer(exchange, at)
        try:
            exchange.response = responses.decode(frame, api_key=exchange.api_key, api_version=exchange.api_version,
                                                 limits=limits, lazy=False)
        except DecodeError as exc:
            out.findings.append(_placed(exc, at + _content_at(), where))


def _unread(exchanges: list[Exchange]) -> str:
    """What a response that answers no request adds where requests' headers could not be read (an
    API version newer than the specs, say): it may answer one of them."""
    offsets = [e.request_at for e in exchanges if e.correlation_id is None]
    if not offsets:
        return ""
    shown = ", ".join(map(str, offsets[:3])) + (", ..." if len(offsets) > 3 else "")
    if len(offsets) > 1:
        return f": perhaps one of the {len(offsets)} whose headers could not be read (at offsets {shown} of the requests)"
    return f": perhaps the one whose header could not be read (at offset {shown} of the requests)"


class _Waiting:
    """The exchanges waiting for a response, in the order their requests were sent: the first of
    a correlation id and the earliest of all, each found in constant time (a capture of many
    requests answered out of order would otherwise take a time that grows as their square)."""

    def __init__(self, exchanges) -> None:
        self.order = deque(exchanges)
        self.by_id: dict[int, deque] = {}
        for e in self.order:
            self.by_id.setdefault(e.correlation_id, deque()).append(e)

    def first_of(self, correlation_id: int) -> Exchange | None:
        queue = self.by_id.get(correlation_id)
        return queue[0] if queue else None

    def earliest(self) -> Exchange:
        while self.order[0].response_at is not None:  # answered ones stay in `order` until they lead it
            self.order.popleft()
        return self.order[0]

    def answer(self, exchange: Exchange, response_at: int) -> None:
        """`exchange` (the first of its correlation id) is answered by the response at `response_at`."""
        self.by_id[exchange.correlation_id].popleft()
        exchange.response_at = response_at


@cache  # (asked for each frame: a capture may hold many thousands)
def _content_at() -> int:
    """Where a frame's bytes start after its size, as `kafka.frame`'s schema lays it out."""
    return codec("kafka.frame").OFFSETS["frame.frame"]


def _placed(exc: DecodeError, shift: int, where: str) -> DecodeError:
    """A copy of an error, its offset moved by `shift` and its path put under `where` (a frame's
    decode error placed in its side's bytes; a connection's finding placed in its capture)."""
    offset = None if exc.offset is None else exc.offset + shift
    return DecodeError(exc.kind, exc.detail, offset, f"{where}.{exc.path}" if exc.path else where)


def _json(value):
    return None if value is None else to_json(value)

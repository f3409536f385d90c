"""`kafka.conversation` on the docs server's decode page: a client's bytes (the page's input, shown
beside the value) and, as the second input, the broker's (`"responses"`, optional), read by
`read_conversation` and answered as the page's formats are (registered in `composites`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar

from logcodec._api import codec
from logcodec.checks import page_examples
from logcodec.inputs import InputError, spec_bytes
from logcodec.inspector import place_nested

from .conversation import Conversation, read_conversation

REQUEST, RESPONSE, FRAME = "kafka.request", "kafka.response", "kafka.frame"
_SIDE = re.compile(r"^(requests|responses)\[(\d+)\]")
_NODE = re.compile(r"^(?:exchanges|strays)\[(\d+)\]")
#: findings listed in an answer, the first ones (bytes that are no capture, zeros say, give one a
#: frame: tens of thousands); `conversation.findings` counts them all
MAX_FINDINGS = 1000
#: exchanges (and strays) listed in an answer, the first ones: each is a label, a range and its
#: request's fields, so bytes that are no capture (zeros: an empty frame every 4 bytes) would make
#: an answer of about 90 bytes for each byte given; `conversation.exchanges` counts them all
MAX_EXCHANGES = 2000


class ConversationPage:
    """The decode page's reader of a captured connection. The value is the conversation's JSON
    (`Conversation.to_json`, its findings given apart as the page's findings), with the ranges of
    each request in the client's bytes, down to its fields as the page's `kafka.request` reads them,
    and a label per exchange (its API, version and correlation id, and where its response lies).
    A response's bytes are the second input's, so its fields have no range; a finding in them says
    its offset in the broker's bytes in its detail."""

    needs: ClassVar[dict] = {  # the second input, as `GET /api/formats` describes it to the page
        "key": "responses", "label": "Broker's bytes", "optional": True,
        "help": "what the broker sent on the connection, each response after its 4-byte size (hex or base64, "
                "or drop the file; tshark's \"follow TCP stream\" saves one a direction); left out, the requests "
                "alone are read"}

    def __init__(self, name: str, title: str, inspector) -> None:
        self.name, self.title = name, title  # as the format is registered (`composites`)
        self.inspector = inspector  # the docs server's, which reads `kafka.request` with its ranges
        self._examples: list | None = None

    @classmethod
    def over(cls, inspectors: list, name: str, title: str) -> ConversationPage | None:
        """One over the docs server's inspector that reads Kafka's requests and responses, if one does."""
        return next((cls(name, title, i) for i in inspectors if {REQUEST, RESPONSE, FRAME} <= set(i.formats)), None)

    def examples(self, vectors: Path) -> list[dict]:
        """The check vectors of captured connections (`kafka/conversation.checks.json`: real traffic of
        kafkajs, aiokafka and sarama, and mutations of it), as inputs of the decode page."""
        if self._examples is None:
            self._examples = page_examples(vectors, "kafka/conversation.checks.json", "requests", "responses")
        return self._examples

    def decode(self, data: bytes, spec, max_bytes: int) -> dict:
        """The answer of the docs server's `POST /api/decode`, the broker's bytes given as
        `"responses": {"hex"|"base64": ...}` (`spec`, or None for none)."""
        if spec is not None and (not isinstance(spec, dict) or not spec or set(spec) - {"hex", "base64"}):
            raise InputError("\"responses\" is {\"hex\": HEX} or {\"base64\": TEXT}: the broker's bytes")
        responses = b"" if spec is None else spec_bytes(spec, max_bytes, "the broker's bytes")
        conversation = read_conversation(data, responses)
        value = conversation.to_json(first=MAX_EXCHANGES)
        del value["findings"]  # (given apart, each path a node of the value)
        findings = self.findings(conversation)
        shown = [f for f in findings if _listed(f["path"])][:MAX_FINDINGS]
        ranges: dict[str, list] = {}
        texts: dict[str, str] = {}
        labels: dict[str, str] = {}
        frames = codec(FRAME)
        bounds, _ = frames.entry_bounds(memoryview(data))
        content_at = frames.OFFSETS["frame.frame"]  # after the frame's size
        listed = zip(bounds[:MAX_EXCHANGES], conversation.exchanges[:MAX_EXCHANGES], strict=True)
        for k, ((start, end), exchange) in enumerate(listed):
            at = f"exchanges[{k}]"
            ranges[at] = [start, end]
            labels[at] = self.label(exchange, start, end)
            if exchange.request is not None:
                place_nested(self.inspector.decode(REQUEST, data[start + content_at:end]), f"{at}.request",
                             start + content_at, ranges, texts)
        return {"format": self.name, "size": len(data), "value": value, "ranges": ranges, "texts": texts,
                "error": None, "consumed": bounds[-1][1] if bounds else 0, "partial": None, "opaque": None,
                "checked": None, "partial_value": None, "partial_tails": [], "findings": shown, "labels": labels,
                "conversation": {"exchanges": len(conversation.exchanges),
                                 "answered": sum(e.response_at is not None for e in conversation.exchanges),
                                 "findings": len(findings), "listed": len(value["exchanges"])}}

    @staticmethod
    def label(exchange, start: int, end: int) -> str:
        """`Produce v9 · correlation id 7 · bytes 0–212 · answered at byte 0 of the broker's`."""
        if exchange.request is not None:
            what = f"{type(exchange.request.body).__name__.removesuffix('Request')} v{exchange.api_version}"
        elif exchange.api_key is not None:
            what = f"API key {exchange.api_key} v{exchange.api_version}, not read"
        else:
            what = "not read"
        parts = [what]
        if exchange.correlation_id is not None:
            parts.append(f"correlation id {exchange.correlation_id}")
        parts.append(f"bytes {start}–{end - 1}")
        if exchange.response_at is not None:
            parts.append(f"answered at byte {exchange.response_at:,} of the broker's")
        elif not exchange.expects_response and exchange.correlation_id is not None:
            parts.append("no response expected (acks 0)")
        else:
            parts.append("no response in the capture")
        return " · ".join(parts)

    @staticmethod
    def findings(conversation: Conversation) -> list[dict]:
        """The findings' JSON, each path a node of the value: a request's frame is its exchange's,
        a response's its exchange's or its stray's; a response's offset, in the broker's bytes,
        goes into its detail (the page marks offsets in the client's)."""
        exchanges = len(conversation.exchanges)
        # the node of each response frame, in the order they came (each is answer or stray)
        responses = [node for _, node in sorted(
            [(e.response_at, f"exchanges[{k}]") for k, e in enumerate(conversation.exchanges)
             if e.response_at is not None] +
            [(s.response_at, f"strays[{k}]") for k, s in enumerate(conversation.strays)])]
        out = []
        for error in conversation.findings:
            found = error.to_json()
            out.append(found)
            side = _SIDE.match(error.path or "")
            if side is None:
                continue
            n, rest = int(side.group(2)), error.path[side.end():]
            if side.group(1) == "requests":  # (past the last exchange: what ends the client's frames)
                found["path"] = f"exchanges[{n}]{rest}" if n < exchanges else ""
                continue
            if n >= len(responses):  # what ends the broker's frames (a negative size): no node holds it
                found["path"] = ""
            else:
                found["path"] = responses[n] + (rest if responses[n].startswith("exchanges") else "")
            if found["offset"] is not None:
                found["detail"] += f" (at byte {found['offset']:,} of the broker's)"
            found["offset"] = None
        return out


def _listed(path: str) -> bool:
    """Whether a finding's node is in the answer's value (an exchange or stray past the first
    `MAX_EXCHANGES` is not; a finding of no node, "", is listed)."""
    node = _NODE.match(path)
    return node is None or int(node.group(1)) < MAX_EXCHANGES

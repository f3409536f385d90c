"""Kafka's composite formats (see `logcodec.composites`): a captured connection, both sides, and
a folder of them."""

from __future__ import annotations

from pathlib import Path

from logcodec.composites import Composite

NAME, TITLE = "kafka.conversation", "Kafka connection (requests and their responses)"


def _read_conversation(path: Path, responses: bytes = b"") -> tuple[dict, list]:
    # (imported on use: `logcodec --help` loads no codec)
    from .conversation import read_conversation

    conversation = read_conversation(Path(path).read_bytes(), responses)
    return conversation.to_json(), conversation.findings


def _read_capture(path: Path) -> tuple[dict, list]:
    from .conversation import read_capture

    capture = read_capture(Path(path))
    return capture.to_json(), capture.findings


def _page(inspectors: list):
    from .conversation_page import ConversationPage

    return ConversationPage.over(inspectors, NAME, TITLE)


COMPOSITES = (
    Composite(NAME, TITLE, "a client's bytes, each request after its size; the broker's with --responses FILE",
              _read_conversation, others=("responses",), optional=("responses",), page=_page),
    Composite("kafka.capture", "Kafka capture (every connection of a folder or a pcap/pcapng file)",
              "a folder `logcodec record` wrote (each frames/connN.c2s.bin with its connN.s2c.bin), or a pcap or "
              "pcapng file of Kafka traffic: each connection read as kafka.conversation reads one",
              _read_capture, path="file or directory"),
)

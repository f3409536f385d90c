"""Kafka's checkers for check vectors (see `logcodec.checks`): rules that judge several inputs
together."""

from __future__ import annotations

from collections.abc import Callable

from logcodec.runtime.errors import LogcodecError

from .conversation import read_conversation


def conversation_findings(requests: bytes, responses: bytes) -> list[LogcodecError]:
    """What `read_conversation` finds in a connection's two sides (a side cut inside a frame, as a
    capture stops, is no finding)."""
    return list(read_conversation(requests, responses).findings)


#: checker name (after the family's `kafka.`) -> checker(**inputs) -> findings
CHECKERS: dict[str, Callable[..., list[LogcodecError]]] = {"conversation": conversation_findings}

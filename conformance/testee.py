"""The testee side of the protocol (conformance/PROTOCOL.md), for testees written in Python.

A testee module builds an `Implementation` and calls `serve()`. This module only
speaks the protocol: it holds no codec code, so what the harness judges is the
implementation's own encoder and decoder.
"""

from __future__ import annotations

import json
import sys
import traceback
from dataclasses import dataclass, field
from typing import Callable

PROTOCOL = 1


class Unsupported(Exception):
    """This request is outside what the implementation can do (the case is skipped)."""


class Refused(Exception):
    """The implementation refuses the input; `kind` is one of the protocol's error kinds, or None."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class Implementation:
    name: str
    version: str
    #: format name -> operation ("decode"/"encode") -> handler (bytes -> value, or value -> bytes)
    handlers: dict[str, dict[str, Callable]]
    #: format name -> value paths the implementation cannot report or set
    unsupported_fields: dict[str, list[str]] = field(default_factory=dict)
    #: exceptions that mean "the implementation refuses this input" (anything else is reported too,
    #: with its type name, since a library that raises a generic error still refused the input)
    kind_of: Callable[[BaseException], str | None] = staticmethod(lambda exc: getattr(exc, "kind", None))


def answer(impl: Implementation, request: dict) -> dict:
    seq = request.get("seq")
    handler = impl.handlers.get(request.get("format"), {}).get(request.get("op"))
    if handler is None:
        return {"seq": seq, "ok": False, "unsupported": f"{request.get('op')} of {request.get('format')}"}
    params = request.get("params") or {}  # only to handlers of formats whose root takes them
    try:
        if request["op"] == "decode":
            return {"seq": seq, "ok": True, "value": handler(bytes.fromhex(request["bytes"]), **params)}
        return {"seq": seq, "ok": True, "bytes": bytes(handler(request["value"], **params)).hex()}
    except Unsupported as exc:
        return {"seq": seq, "ok": False, "unsupported": str(exc)}
    except Exception as exc:  # noqa: BLE001 - every refusal is an answer, never a crash
        message = f"{type(exc).__name__}: {exc}"
        return {"seq": seq, "ok": False, "error": {"kind": impl.kind_of(exc), "message": message[:500]}}


def serve(impl: Implementation, stdin=None, stdout=None) -> None:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        kind = request.get("type")
        if kind == "start":
            reply = {"type": "started", "protocol": PROTOCOL,
                     "implementation": {"name": impl.name, "version": impl.version},
                     "formats": {f: sorted(ops) for f, ops in impl.handlers.items()},
                     "unsupported_fields": impl.unsupported_fields}
        elif kind == "stop":
            return
        elif kind == "run":
            reply = answer(impl, request)
        else:
            print(f"testee: unknown request {kind!r}", file=sys.stderr)
            continue
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()


def main_guard(build: Callable[[], Implementation]) -> None:
    """Run a testee from `python -m ...`; an import failure is reported on stderr, not as a hang."""
    try:
        impl = build()
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(3)
    serve(impl)

"""`logcodec testee`: logcodec's own codecs as a testee, the example client authors read first.

It serves every format logcodec knows, through the public API only: decode
answers with the canonical JSON of the value, encode with the bytes, and a
DecodeError or EncodeError with its kind.
"""

from __future__ import annotations

import logcodec
from logcodec.conformance.testee import Implementation, serve


def implementation() -> Implementation:
    handlers = {}
    for fmt in logcodec.formats():
        handlers[fmt] = {
            "decode": lambda data, fmt=fmt: logcodec.to_json(logcodec.decode(fmt, data)),
            "encode": lambda value, fmt=fmt: logcodec.encode(fmt, value),
        }
    module = logcodec.codec(logcodec.formats()[0])
    build = "compiled" if getattr(module, "NATIVE", None) else "pure Python"
    return Implementation("logcodec", f"{logcodec.__version__} ({build})", handlers)


def main() -> None:
    serve(implementation())


if __name__ == "__main__":
    main()

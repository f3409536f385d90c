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
            "decode": lambda data, fmt=fmt, **params: logcodec.to_json(logcodec.decode(fmt, data, lazy=False, **params)),
            "encode": lambda value, fmt=fmt, **params: logcodec.encode(fmt, value, **params),
        }
    # The compiled and the pure build are one implementation: the version does not tell them apart.
    return Implementation("logcodec", logcodec.__version__, handlers)


def main() -> None:
    serve(implementation())


if __name__ == "__main__":
    main()

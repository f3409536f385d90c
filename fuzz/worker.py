"""The worker process: runs inputs through one build of the codecs and classifies each outcome.

Started by fuzz/pool.py as ``python -m fuzz.worker --memory-mb N`` with ``LOGCODEC_PURE=1`` in its
environment for the pure build. It limits its own address space (RLIMIT_AS) once the codecs are
imported, then reads jobs from stdin and writes one result per job to stdout, each a
length-prefixed pickle. After a MemoryError it answers and exits, so that the next input starts
in a fresh heap. Time-outs and deaths are seen by the parent.
"""

from __future__ import annotations

import os
import pickle
import re
import resource
import struct
import sys
import time
import traceback

_LEN = struct.Struct(">I")

# Outcome classes. Findings are the classes a campaign reports as bugs (see fuzz/README.md).
ACCEPTED = "accepted"                    # decoded, and encode(decode(b)) == b
NONCANONICAL = "accepted_noncanonical"   # decoded; a compressed payload re-encodes differently, same value (law 3)
NONCANONICAL_PLAIN = "accepted_second_encoding"  # as above without any compressed payload: a second encoding
ERROR = "decode_error"                   # DecodeError (by kind)
NON_ROUNDTRIP = "non_roundtrip"          # decoded; re-encoding decodes to another value, or not at all
UNENCODABLE = "accepted_unencodable"     # decoded; encode raises EncodeError
BAD_CHECKSUM = "accepted_bad_checksum"   # decoded although a stored checksum is wrong (encode says so)
OFFSET_OUTSIDE = "offset_outside_input"  # DecodeError whose offset is not within the input
FOREIGN = "foreign_exception"            # any other exception: a bug
MEMORY = "memory_error"                  # MemoryError under the address-space limit
TIMEOUT = "timeout"                      # seen by the parent
KILLED = "worker_killed"                 # the worker died (signal, abort), seen by the parent
ITER_DISAGREES = "iter_disagrees"       # decode_iter, the lazy decode or decode_columns disagrees with decode
#: Each is a broken law, and fails the run (`--smoke` and the campaign alike): a wrong accept is
#: no less a bug than a crash.
FINDINGS = (NONCANONICAL_PLAIN, NON_ROUNDTRIP, UNENCODABLE, BAD_CHECKSUM, OFFSET_OUTSIDE, ITER_DISAGREES, FOREIGN,
            MEMORY, TIMEOUT, KILLED)


def classify(format_name: str, data: bytes, **params) -> dict:
    """Decode `data` (with the root's `params`, by name); on success check the round-trip laws.
    Returns class, kind and detail."""
    import logcodec

    try:
        value = logcodec.decode(format_name, data, lazy=False, **params)
    except logcodec.DecodeError as err:
        if err.offset is None or not 0 <= err.offset <= len(data):
            return {"cls": OFFSET_OUTSIDE, "kind": err.kind, "detail": f"offset {err.offset} of {len(data)}: {err}"}
        value = err
    except MemoryError:
        return {"cls": MEMORY, "kind": "decode", "detail": "MemoryError in decode"}
    except Exception as exc:  # noqa: BLE001 - the finding itself
        return _foreign("decode", exc)
    try:
        module = logcodec.codec(format_name)
        disagreement = (iter_disagreement(module, data, value, params)
                        or lazy_disagreement(module, data, value, params)
                        or columns_disagreement(module, data, value, params))
    except MemoryError:
        return {"cls": MEMORY, "kind": "decode_iter", "detail": "MemoryError in decode_iter, the lazy decode or decode_columns"}
    except Exception as exc:  # noqa: BLE001
        return _foreign("decode_iter, the lazy decode or decode_columns", exc)
    if disagreement:
        return {"cls": ITER_DISAGREES, "kind": getattr(value, "kind", "value"), "detail": disagreement}
    if isinstance(value, logcodec.DecodeError):
        return {"cls": ERROR, "kind": value.kind, "detail": str(value)}
    return check_laws(format_name, data, value, params)


def iter_disagreement(module, data: bytes, decoded, params: dict) -> str | None:
    """Where the module offers `decode_iter` (its `READS`): how reading the elements one at a time differs from
    `decoded` (what `decode` gave: a value, or its DecodeError), or None when it agrees: the
    same header and elements, or the same error (kind, offset, path; `_iterated_refusal`)."""
    import logcodec

    if "decode_iter" not in module.READS:
        return None
    try:
        header, elements = module.decode_iter(data, **params)
        items = list(elements)
    except logcodec.DecodeError as exc:
        return _iterated_refusal("decode_iter", module, data, params, exc, decoded)
    disagreement = _header_disagreement("decode_iter", module, data, header, decoded, params)
    if disagreement:
        return disagreement
    if not same_value(items, getattr(decoded, module.ITERATED)):
        return f"decode_iter's elements differ from decode's {module.ITERATED}"
    return None


def same_value(a, b) -> bool:
    """Whether two reads gave the same value: equal, or equal in canonical JSON, where a float NaN
    (read twice, two objects that are not equal to each other) is the name "NaN"."""
    import logcodec

    if a == b:
        return True
    try:
        return logcodec.to_json(a) == logcodec.to_json(b)
    except (TypeError, AttributeError, logcodec.LogcodecError):
        return False  # not a value of ours (a list of numbers): `==` said it


def lazy_disagreement(module, data: bytes, decoded, params: dict) -> str | None:
    """Where the module's `decode` reads its bulk lazily (a `LazyList`): how that read, every
    element reached, differs from `decoded` (what `decode(..., lazy=False)` gave), or None when
    it agrees: the same value, or the same error, allowed as `decode_iter`'s."""
    import logcodec

    if "decode_iter" not in module.READS:
        return nested_lazy_disagreement(module, data, decoded, params)
    try:
        value = module.decode(data, **params)
        elements = getattr(value, module.ITERATED)
        if not isinstance(elements, logcodec.LazyList):
            return None  # read whole: `decode` was the eager read
        elements.loaded()
    except logcodec.DecodeError as exc:
        return _iterated_refusal("the lazy decode", module, data, params, exc, decoded)
    if isinstance(decoded, logcodec.DecodeError):
        return f"the lazy decode accepted what decode refused: {decoded}"
    return None if same_value(value, decoded) else "the lazy decode's value differs from decode's"


def nested_lazy_disagreement(module, data: bytes, decoded, params: dict) -> str | None:
    """Where the module's `decode` reads the values nested in its own lazily (a Kafka batch in a
    record set), or lists of its own (`VIEWED_LISTS`: their `LazyList`s): how that read, every view
    read to its end, differs from
    `decoded` (what `decode(..., lazy=False)` gave), or None when it agrees: the same value, the
    same error, or an error the lazy call raises at or after the byte where decode's lies (decode
    stopped at an element the lazy call leaves to its loop, which checks what lies beyond first;
    an element that runs to its batch's end fails where the next field starts)."""
    import logcodec

    if not module.NESTED_VIEWS and not module.VIEWED_LISTS:
        return None  # no view below the root: the lazy read is this one
    try:
        value = module.decode(data, **params)
    except logcodec.DecodeError as exc:
        if isinstance(decoded, logcodec.DecodeError) and (_same_error(exc, decoded) or exc.offset >= decoded.offset):
            return None
        return f"the lazy decode: {exc}; decode: {decoded}"
    try:
        _load_views(value, logcodec.LazyList)
    except logcodec.DecodeError as exc:  # an element's, from its view's loop: decode's own error
        return _refusal_disagreement("a nested view's loop", exc, decoded)
    if isinstance(decoded, logcodec.DecodeError):
        return f"the lazy decode accepted what decode refused: {decoded}"
    return None if same_value(value, decoded) else "the lazy decode's value differs from decode's"


def _load_views(value, view_type) -> None:
    """Read every view in `value`, each kept (`loaded`, as `==` then finds it)."""
    import dataclasses

    if isinstance(value, view_type):
        value = value.loaded()
    if isinstance(value, (list, tuple)):
        for x in value:
            _load_views(x, view_type)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.compare:
                _load_views(getattr(value, f.name), view_type)


def _iterated_refusal(name: str, module, data: bytes, params: dict, exc, decoded) -> str | None:
    """How a read that hands the bulk out as it is reached refusing the input (`exc`) differs from
    what decode gave, or None. Such a read checks the bytes after the value before the elements,
    decode after them: its `trailing_bytes` agrees when the value without those bytes fails as
    decode failed."""
    import logcodec

    if isinstance(decoded, logcodec.DecodeError) and exc.kind == "trailing_bytes" and not _same_error(exc, decoded):
        try:
            module.decode(data[:exc.offset], lazy=False, **params)
            return f"{name}: {exc}, yet the value alone decodes; decode: {decoded}"
        except logcodec.DecodeError as alone:
            exc = alone
    return _refusal_disagreement(name, exc, decoded)


def columns_disagreement(module, data: bytes, decoded, params: dict) -> str | None:
    """Where the module offers `decode_columns`: how decoding the elements column by column differs
    from `decoded` (what `decode` gave: a value, or its DecodeError), or None when it agrees: the
    same header, the columns of the elements in their tuple form, or the same error (kind,
    offset, path; its checks come in decode's order, so no allowance is made)."""
    import logcodec

    if "decode_columns" not in module.READS:
        return None
    try:
        header, columns = module.decode_columns(data, tuples=True, **params)
    except logcodec.DecodeError as exc:
        return _refusal_disagreement("decode_columns", exc, decoded)
    disagreement = _header_disagreement("decode_columns", module, data, header, decoded, params)
    if disagreement:
        return disagreement
    elements = getattr(module.decode(data, tuples=True, lazy=False, **params), module.ITERATED)
    if any(len(column) != len(elements) for column in columns.values()) or list(zip(*columns.values())) != elements:
        return f"decode_columns' columns differ from decode's {module.ITERATED}"
    return None


def _same_error(exc, decoded) -> bool:
    return (exc.kind, exc.offset, exc.path) == (decoded.kind, decoded.offset, decoded.path)


def _refusal_disagreement(name: str, exc, decoded) -> str | None:
    """How `name` refusing the input (`exc`) differs from what decode gave, or None when decode
    refused it alike (kind, offset, path)."""
    import logcodec

    if not isinstance(decoded, logcodec.DecodeError):
        return f"decode accepted what {name} refused: {exc}"
    return None if _same_error(exc, decoded) else f"{name}: {exc}; decode: {decoded}"


def _header_disagreement(name: str, module, data: bytes, header, decoded, params: dict) -> str | None:
    """How `name` accepting the input, with `header`, differs from what decode gave, or None."""
    import logcodec

    if isinstance(decoded, logcodec.DecodeError):
        return f"{name} accepted what decode refused: {decoded}"
    if header != module.decode_part(module.HEADER, data, **params)[0]:
        return f"{name}'s header differs from decode_part(HEADER)'s"
    return None


def check_laws(format_name: str, data: bytes, value, params: dict) -> dict:
    """Law 2 (the same bytes again), else law 3 (the same value again); bytes that differ are
    acceptable only where a compressed payload may be written differently."""
    import logcodec

    compressed = False
    try:
        compressed = _compresses(format_name, logcodec.strip_derived(value), params)
    except Exception:  # noqa: BLE001 - the encode below meets the same problem and classifies it
        pass
    try:
        again = logcodec.encode(format_name, value, **params)
    except logcodec.EncodeError as err:
        if err.kind == "checksum_mismatch" and (not compressed or _checksum_unchecked(format_name, data, err, params)):
            return {"cls": BAD_CHECKSUM, "kind": err.kind, "detail": f"encode(decode(b)): {err}"}
        if not compressed:
            return {"cls": UNENCODABLE, "kind": err.kind, "detail": f"encode(decode(b)): {err}"}
        return _law3(format_name, value, params, compressed=True)
    except MemoryError:
        return {"cls": MEMORY, "kind": "encode", "detail": "MemoryError in encode"}
    except Exception as exc:  # noqa: BLE001
        return _foreign("encode", exc)
    if again == data:
        return {"cls": ACCEPTED, "kind": "", "detail": ""}
    return _law3(format_name, value, params, compressed)


def _law3(format_name: str, value, params: dict, compressed: bool) -> dict:
    import logcodec

    try:
        again = logcodec.encode(format_name, logcodec.strip_derived(value), **params)
        same = _comparable(logcodec.decode(format_name, again, lazy=False, **params)) == _comparable(value)
    except logcodec.LogcodecError as err:
        return {"cls": NON_ROUNDTRIP, "kind": err.kind, "detail": f"decode(encode(strip_derived(decode(b)))): {err}"}
    except Exception as exc:  # noqa: BLE001
        return _foreign("law 3 re-encoding", exc)
    if not same:
        return {"cls": NON_ROUNDTRIP, "kind": "value", "detail": f"re-encoded to {len(again)} bytes, another value"}
    if compressed:
        return {"cls": NONCANONICAL, "kind": "", "detail": f"re-encoded to {len(again)} bytes, same value"}
    return {"cls": NONCANONICAL_PLAIN, "kind": "", "detail": f"no compressed payload, yet re-encoded to {len(again)} "
            "bytes of the same value: the decoder accepts a second encoding (an over-long varint, a length)"}


def _compresses(format_name: str, value, params: dict) -> bool:
    from fuzz.compressed import capture

    return bool(capture(format_name, value, params)[1])


_STORED = re.compile(r"is (0x[0-9a-f]+) but")


def _checksum_unchecked(format_name: str, data: bytes, err, params: dict) -> bool:
    """Whether the decoder still accepts the input with the stored checksum changed: the stored
    value (from the encoder's complaint) is found in the input and one bit of it flipped."""
    import logcodec
    from fuzz.knowledge import facts

    match = _STORED.search(err.detail)
    site = facts(format_name).checksum_named(err.path.rsplit(".", 1)[-1])
    if not match or site is None:
        return False
    stored = int(match.group(1), 16).to_bytes(site.width, "little" if site.endian == "le" else "big")
    pos = data.find(stored)
    if pos < 0 or data.find(stored, pos + 1) >= 0:
        return False  # not found, or not unambiguously
    flipped = data[:pos] + bytes([data[pos] ^ 1]) + data[pos + 1:]
    try:
        logcodec.decode(format_name, flipped, lazy=False, **params)
    except Exception:  # noqa: BLE001 - refused: the checksum is checked
        return False
    return True


def _comparable(value):
    # Derived fields (lengths of a recompressed payload) may differ between equal values (law 3).
    import logcodec

    return logcodec.to_json(logcodec.strip_derived(value))


def _foreign(stage: str, exc: BaseException) -> dict:
    tail = "".join(traceback.format_exception(exc)[-6:])
    return {"cls": FOREIGN, "kind": type(exc).__name__, "detail": f"{stage}: {type(exc).__name__}: {exc}\n{tail}"}


def builds() -> dict[str, str]:
    """Which build each format runs here: 'compiled' or 'pure'."""
    import logcodec

    return {f: "compiled" if getattr(logcodec.codec(f), "NATIVE", None) else "pure" for f in logcodec.formats()}


def _send(out, message) -> None:
    blob = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_LEN.pack(len(blob)) + blob)
    out.flush()


def _receive(inp):
    head = inp.read(_LEN.size)
    if len(head) < _LEN.size:
        return None
    return pickle.loads(inp.read(_LEN.unpack(head)[0]))


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    memory_mb = int(args[args.index("--memory-mb") + 1]) if "--memory-mb" in args else 1024
    run = _target()
    inp, out = sys.stdin.buffer, os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr  # nothing else may write into the result channel
    hello = {"builds": builds(), "pid": os.getpid(), "rss_kb": _rss_kb()}
    limit = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _send(out, hello)
    while (jobs := _receive(inp)) is not None:
        for job_id, format_name, data, params in jobs:
            start = time.perf_counter()
            result = run(format_name, data, **params)
            result.update(id=job_id, ms=(time.perf_counter() - start) * 1000, rss_kb=_rss_kb())
            _send(out, result)
            if result["cls"] == MEMORY:
                return 3
    return 0


def _target():
    """`classify`, or for the pool's own tests a stand-in named by $FUZZ_WORKER_TARGET (module:function)."""
    name = os.environ.get("FUZZ_WORKER_TARGET")
    if not name:
        return classify
    import importlib

    module, function = name.split(":")
    return getattr(importlib.import_module(module), function)


def _rss_kb() -> int:
    return peak_rss_kb(os.getpid())


def peak_rss_kb(pid: int) -> int:
    """VmHWM, the peak resident size of the process's own memory: ru_maxrss would not do, Linux
    carries it over fork and exec from the parent (the campaign, holding the bombs it built)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss if pid == os.getpid() else 0


if __name__ == "__main__":
    sys.exit(main())

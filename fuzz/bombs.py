"""Amplification inputs and decompression bombs, built through the project's own encoders.

Each generator starts from a value that a golden vector decodes to, encodes it with logcodec's
encoder and adjusts only what the schema lets it locate:

* the compressed payload, swapped for a larger one in the codec table call (fuzz/compressed.py),
  so the encoder computes the lengths and CRCs around it;
* the element count (a root field the IR marks as counting a repeated field), found by encoding
  the value with two counts and comparing, then written in the field's declared type; the CRC is
  then fixed by fuzz/checksums.py.

The payload of "many tiny elements" repeats the bytes one more element adds to the plain payload
(the difference of two captured plain payloads), so no element layout is written here either.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterator

import logcodec
from logcodec.runtime import compression as C
from logcodec.runtime.values import value_fields

from fuzz import compressed as Z
from fuzz.checksums import fix_checksums
from fuzz.knowledge import CountField, facts, int_bytes
from fuzz.seeds import load_seeds

LIMITS = logcodec.DEFAULT_LIMITS


@dataclass
class Bomb:
    name: str
    format: str
    codec: str
    data: bytes
    note: str


# ------------------------------------------------------------------ base values from the vectors

def base_value(format_name: str, codec: str):
    """The first of `base_values`."""
    for found in base_values(format_name, codec):
        return found
    raise LookupError(f"no valid {format_name} vector compressed with {codec}")


def base_values(format_name: str, codec: str):
    """Decoded, derived-stripped valid vectors whose encoding compresses once, with `codec`, and the
    compressor the codec table used."""
    for seed in load_seeds(format_name):
        if not seed.valid:
            continue
        try:
            value = strip_counts(logcodec.decode(format_name, seed.data, lazy=False))
            _, calls = Z.capture(format_name, value)
        except Exception:  # noqa: BLE001 - not a usable base
            continue
        if codec == "none" and not calls:
            yield value, None
        elif len(calls) == 1 and Z.codec_name(calls[0].compress) == codec:
            yield value, calls[0].compress


def first_that_builds(format_name: str, codec: str, build):
    """`build(value, compress)` on the first base value it succeeds with (a vector may be a form,
    such as a sparse bundle, whose elements cannot all be the same)."""
    failures = []
    for value, compress in base_values(format_name, codec):
        try:
            return build(value, compress)
        except (LookupError, AssertionError, logcodec.EncodeError) as exc:
            failures.append(f"{type(exc).__name__}: {exc}")
    raise LookupError(f"{format_name} {codec}: no vector works as a base ({'; '.join(failures[-3:])})")


def strip_counts(value):
    """The value with its derived fields and its own defaulted ones (a count kept in flag bits, a
    flag saying the timestamp repeats) left to the encoder, so that its element list may change
    length and its elements may repeat."""
    value = logcodec.strip_derived(value)
    return dataclasses.replace(value, **{f.name: None for f in value_fields(value) if f.metadata.get("defaulted")})


def element_list(value) -> str:
    """The root field holding the repeated elements that go into the compressed payload."""
    for f in value_fields(value):
        items = getattr(value, f.name)
        if isinstance(items, list) and items and dataclasses.is_dataclass(items[0]):
            return f.name
    raise LookupError("no list of elements at the root")


def smallest(element):
    """The element's class built with defaults, or else the element with every optional field None,
    bytes and text empty, lists empty (derived fields cleared), whichever encodes."""
    candidates = [type(element)()]
    changes = {}
    for f in value_fields(element):
        v = getattr(element, f.name)
        if f.metadata.get("optional"):
            changes[f.name] = None
        elif isinstance(v, (bytes, str, list)):
            changes[f.name] = type(v)()
    candidates.append(strip_counts(dataclasses.replace(element, **changes)))
    return candidates


def _smallest_encodable(format_name: str, value, field_name: str):
    """The smallest element that encodes, and the plain payloads of one and of two of it."""
    for element in smallest(getattr(value, field_name)[0]):
        try:
            return (element, plain_of(format_name, with_elements(value, field_name, element, 1)),
                    plain_of(format_name, with_elements(value, field_name, element, 2)))
        except logcodec.EncodeError:
            continue
    raise LookupError(f"{format_name}: no element encodes")


def with_elements(value, field_name: str, element, count: int):
    return dataclasses.replace(value, **{field_name: [element] * count})


def plain_of(format_name: str, value) -> bytes:
    _, calls = Z.capture(format_name, value)
    return calls[0].plain


def constant_payload(compressed: bytes):
    return lambda call: compressed


# ------------------------------------------------------------------ the count field, located

def locate_count(format_name: str, value, field_name: str, element) -> tuple[CountField, int, int]:
    """(count field, position, K): where the encoding of `value` with K elements holds K, found by
    encoding K and K+1 elements around one constant payload and comparing."""
    k = 200  # more than any count kept in flag bits, same encoded width as k + 1
    calls = Z.capture(format_name, with_elements(value, field_name, element, 1))[1]
    frozen = calls[0].compress(b"") if calls else b""
    with Z.intercept(constant_payload(frozen)):
        a = logcodec.encode(format_name, with_elements(value, field_name, element, k))
        b = logcodec.encode(format_name, with_elements(value, field_name, element, k + 1))
    for count in facts(format_name).counts:
        ka, kb = int_bytes(count, k), int_bytes(count, k + 1)
        hits = [p for p in range(len(a) - len(ka) + 1) if a[p:p + len(ka)] == ka and b[p:p + len(kb)] == kb]
        if len(hits) == 1:
            return count, hits[0], k
    raise LookupError(f"{format_name}: no count field found")


def set_count(format_name: str, data: bytes, located: tuple[CountField, int, int], n: int) -> bytes:
    count, pos, k = located
    old, new = int_bytes(count, k), int_bytes(count, n)
    if data[pos:pos + len(old)] != old:
        raise LookupError("the count moved")
    patched = data[:pos] + new + data[pos + len(old):]
    return fix_checksums(format_name, patched)[0]


# ------------------------------------------------------------------ generators

def tiny_elements(format_name: str, codec: str, n: int, framing: Callable | None = None) -> Bomb:
    """A payload of `n` of the smallest elements, under a count of `n`, with correct CRCs."""
    return first_that_builds(format_name, codec, lambda value, compress: _tiny(format_name, value, compress, n, framing))


def _tiny(format_name: str, value, compress, n: int, framing) -> Bomb:
    field_name = element_list(value)
    element, one, two = _smallest_encodable(format_name, value, field_name)
    unit = two[len(one):]
    assert two.startswith(one) and unit, "an added element must append its bytes"
    located = locate_count(format_name, value, field_name, element)
    k = located[2]
    payload = (framing or compress)(one + unit * (n - 1))
    with Z.intercept(constant_payload(payload)):
        data = logcodec.encode(format_name, with_elements(value, field_name, element, k))
    data = set_count(format_name, data, located, n)
    name = Z.codec_name(compress) if framing is None else framing.__name__
    return Bomb(f"{n:,} elements of {len(unit)} B", format_name, name, data,
                f"{len(unit)}-byte elements repeated {n} times in one {name} payload "
                f"({len(one) + len(unit) * (n - 1):,} B plain), count field set to {n}")


def oversized_payload(format_name: str, codec: str, plain_size: int, framing: Callable | None = None) -> Bomb:
    """One payload that decompresses to `plain_size` bytes (the elements, then zeros)."""
    value, compress = base_value(format_name, codec)
    plain = plain_of(format_name, value)
    payload = (framing or compress)(plain + bytes(plain_size - len(plain)))
    with Z.intercept(constant_payload(payload)):
        data = logcodec.encode(format_name, value)
    name = Z.codec_name(compress) if framing is None else framing.__name__
    return Bomb(f"{plain_size >> 20} MiB plain", format_name, name, data,
                f"{name} payload of {plain_size:,} plain bytes ({len(payload):,} compressed)")


def huge_count(format_name: str, codec: str, n: int) -> Bomb:
    """A count of `n` over the few elements of a vector (no amplification by compression)."""
    return first_that_builds(format_name, codec, lambda value, _: _huge_count(format_name, value, codec, n))


def _huge_count(format_name: str, value, codec: str, n: int) -> Bomb:
    field_name = element_list(value)
    element = getattr(value, field_name)[0]
    located = locate_count(format_name, value, field_name, element)
    data = logcodec.encode(format_name, with_elements(value, field_name, element, located[2]))
    return Bomb(f"count {n:,}", format_name, codec, set_count(format_name, data, located, n),
                f"{located[2]} elements under a declared count of {n}")


def nested_wrappers(format_name: str, codec: str, depth: int, copies: int) -> Bomb:
    """Compressed wrappers inside compressed wrappers: each level's payload is `copies` copies of
    the level below (a message set's entries concatenate, as its schema repeats them to the end)."""
    value, compress = base_value(format_name, codec)
    level = logcodec.encode(format_name, value)
    for _ in range(depth):
        inner = level * copies
        with Z.intercept(lambda call, inner=inner: compress(inner)):
            level = logcodec.encode(format_name, value)
    return Bomb(f"{depth} levels x {copies}", format_name, Z.codec_name(compress), level,
                f"{codec} wrappers nested {depth} deep, each holding {copies} copies of the level below")


def concatenated(format_name: str, entry: Bomb, copies: int) -> Bomb:
    """Whole entries end to end, for a format whose root repeats entries to the end (the IR's)."""
    assert facts(format_name).stream_root
    return Bomb(f"{copies} x ({entry.name})", format_name, entry.codec, entry.data * copies,
                f"{copies} copies of: {entry.note}")


def plan(quick: bool = False) -> Iterator[Callable[[], Bomb]]:
    """Every bomb, as a thunk (built lazily, one at a time, so their memory does not add up)."""
    over = LIMITS.max_decompressed_size + (1 << 20)
    v2, tank, legacy = "kafka.record_batch_v2", "tank.bundle", "kafka.message_set"
    yield lambda: tiny_elements(v2, "zstd", 9_500_000)
    yield lambda: tiny_elements(v2, "zstd", 9_500_000, framing=Z.zstd_without_size)
    yield lambda: tiny_elements(v2, "gzip", 9_500_000)
    yield lambda: tiny_elements(v2, "lz4-frame", 9_500_000)
    yield lambda: tiny_elements(v2, "snappy-xerial", 9_500_000)
    yield lambda: tiny_elements(tank, "snappy-raw", 33_554_332)
    yield lambda: oversized_payload(v2, "zstd", over)
    yield lambda: oversized_payload(v2, "zstd", over, framing=Z.zstd_without_size)
    yield lambda: oversized_payload(v2, "gzip", over)
    yield lambda: oversized_payload(v2, "lz4-frame", over)
    yield lambda: oversized_payload(v2, "snappy-xerial", over)
    yield lambda: oversized_payload(v2, "snappy-xerial", over, framing=C.snappy_compress_raw)
    yield lambda: oversized_payload(tank, "snappy-raw", over)
    yield lambda: huge_count(v2, "none", (1 << 31) - 1)
    yield lambda: huge_count(tank, "snappy-raw", (1 << 32) - 1)
    yield lambda: nested_wrappers(legacy, "gzip", 12, 1)
    yield lambda: nested_wrappers(legacy, "gzip", 3, 1000)
    yield lambda: nested_wrappers(legacy, "snappy-xerial", 3, 200)
    yield lambda: nested_wrappers(legacy, "lz4-frame", 3, 1000)
    if not quick:
        yield lambda: concatenated("kafka.record_set", tiny_elements(v2, "zstd", 900_000), 5)
        yield lambda: concatenated("kafka.record_set", oversized_payload(v2, "zstd", 60 << 20), 6)

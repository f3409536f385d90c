"""Seeded random VALID values per format, as conformance cases (no Spark needed).

Value `index` of format `fmt` under `seed` depends on (seed, format, index) only, so
any number of executors produce the same values. How one value is made:

1. draw one of the format's valid golden vectors (generated/vectors) and decode it;
2. clear its derived fields (`logcodec.strip_derived`);
3. apply a few random mutations to its free content (bytes and text contents, ints,
   bools, list lengths by duplicating or dropping elements); each mutation is kept only
   when the value still round-trips through logcodec (encode, decode, equal apart from
   derived fields and instances), so the result is valid by construction;
4. a draw where no mutation held is drawn again with the next sub-seed (bounded); the
   last resort is the source vector itself, which is valid too.

The case is shaped like a golden vector test (`tcId`, `result`, `bytes`, `value`,
`canonical`), named `<source tcId>~<index>` so expected-failure entries written for
the source vector match it by prefix, and judged by the ordinary `judge`.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from enum import IntEnum
from functools import cache

import logcodec
from logcodec.runtime.values import to_json, value_fields

from .judge import Case, comparable, formats_with_vectors, vector_file

MAX_BYTES = 256  # a mutated bytes or text field stays small
MAX_LIST = 64  # and a list short
ATTEMPTS = 8  # draws per value before falling back to the source vector
_TEXT = "abcxyzABC0189 -_./:é漢🙂"


@cache
def valid_tests(fmt: str) -> tuple[dict, ...]:
    """The format's valid golden vectors that logcodec decodes and round-trips (the sources)."""
    out = []
    for group in vector_file(fmt)["testGroups"]:
        for test in group["tests"]:
            if test["result"] == "valid" and roundtrip(fmt, _source_value(fmt, test), _params(test)) is not None:
                out.append(test)
    return tuple(out)


def _params(test: dict) -> dict:
    """The root's params a vector is read with (a Kafka response's API)."""
    return test.get("params", {})


def _source_value(fmt: str, test: dict):
    try:
        return logcodec.strip_derived(logcodec.decode(fmt, bytes.fromhex(test["bytes"]), lazy=False, **_params(test)))
    except logcodec.LogcodecError:
        return None


def roundtrip(fmt: str, value, params: dict):
    """(bytes, decoded value) when `value` encodes and decodes back to itself (derived fields and
    instances aside; with the root's `params`); else None."""
    if value is None:
        return None
    try:
        data = logcodec.encode(fmt, value, **params)
        back = logcodec.decode(fmt, data, lazy=False, **params)
        if comparable(fmt, to_json(back), []) != comparable(fmt, to_json(value), []):
            return None
    except logcodec.LogcodecError:  # a random value the format cannot hold: not kept (anything else is a bug)
        return None
    return data, back


def rng_for(seed: int, fmt: str, index: int, attempt: int = 0) -> random.Random:
    """The generator of one draw: a function of (seed, format, index, attempt) only."""
    return random.Random(f"logcodec-random/{seed}/{fmt}/{index}/{attempt}")


# ---------------------------------------------------------------- mutation


def _slots(value, out: list) -> list:
    """Every mutable place in a value: (owner, key, kind, meta); owner is a dataclass (key a
    field name) or a list (key an index)."""
    if not dataclasses.is_dataclass(value):
        return out
    for f in value_fields(value):
        meta = f.metadata
        if meta.get("derived") or meta.get("instance"):
            continue
        v = getattr(value, f.name)
        if v is None:
            continue
        if meta.get("list") and isinstance(v, list):
            out.append((value, f.name, "list", meta))
            for i, x in enumerate(v):
                _slot_scalar(v, i, x, meta, out)
        else:
            _slot_scalar(value, f.name, v, meta, out)
    return out


def _slot_scalar(owner, key, v, meta, out: list) -> None:
    if dataclasses.is_dataclass(v):
        _slots(v, out)
    elif isinstance(v, (bytes, bytearray)):
        out.append((owner, key, "bytes", meta))
    elif isinstance(v, bool) or meta.get("kind") == "bool":
        out.append((owner, key, "bool", meta))
    elif isinstance(v, IntEnum) or meta.get("kind") == "enum":
        return  # enums pick behaviour (codecs, types): left as the vector has them
    elif isinstance(v, int):
        out.append((owner, key, "int", meta))
    elif isinstance(v, str):
        out.append((owner, key, "str", meta))


def _get(owner, key):
    return owner[key] if isinstance(owner, list) else getattr(owner, key)


def _set(owner, key, v) -> None:
    if isinstance(owner, list):
        owner[key] = v
    else:
        setattr(owner, key, v)


def _new_int(rng: random.Random, old: int, wide: bool) -> int:
    choice = rng.randrange(6)
    if choice == 0:
        return old + rng.randint(-3, 3)
    if choice == 1:
        return rng.randint(0, 255)
    if choice == 2:
        return rng.randint(0, (1 << 15) - 1)
    if choice == 3:
        return rng.randint(0, (1 << 31) - 1)
    if choice == 4:
        return rng.randint(-(1 << 31), (1 << 31) - 1)
    return rng.randint(-(1 << 63), (1 << 63) - 1) if wide else rng.randint(0, (1 << 32) - 1)


def _new_length(rng: random.Random, old: int) -> int:
    return rng.choice([old, old, 0, rng.randint(0, min(2 * old + 8, MAX_BYTES))])


def mutate(value, rng: random.Random) -> bool:
    """Change one random free part of `value` in place; False when it has none."""
    slots = _slots(value, [])
    if not slots:
        return False
    owner, key, kind, meta = rng.choice(slots)
    old = _get(owner, key)
    if kind == "bytes":
        _set(owner, key, rng.randbytes(_new_length(rng, len(old))))
    elif kind == "str":
        _set(owner, key, "".join(rng.choice(_TEXT) for _ in range(_new_length(rng, len(old)) % 48)))
    elif kind == "bool":
        _set(owner, key, not old)
    elif kind == "int":
        _set(owner, key, _new_int(rng, old, bool(meta.get("wide"))))
    elif kind == "list":
        if old and (len(old) >= MAX_LIST or rng.random() < 0.5):
            del old[rng.randrange(len(old))]
        elif old:
            old.insert(rng.randrange(len(old) + 1), copy.deepcopy(rng.choice(old)))
        else:
            return False
    return True


# ---------------------------------------------------------------- values and cases


def random_test(fmt: str, seed: int, index: int, max_mutations: int = 6) -> dict:
    """Value `index` of `fmt` under `seed`, as a golden-vector-shaped test dict (always valid)."""
    sources = valid_tests(fmt)
    if not sources:
        raise ValueError(f"{fmt} has no valid golden vector that round-trips; nothing to start from")
    for attempt in range(ATTEMPTS):
        rng = rng_for(seed, fmt, index, attempt)
        source = rng.choice(sources)
        value = _source_value(fmt, source)
        kept, result = 0, None
        for _ in range(rng.randint(1, max_mutations)):
            candidate = copy.deepcopy(value)
            if not mutate(candidate, rng):
                break
            done = roundtrip(fmt, candidate, _params(source))
            if done is not None:
                value, result, kept = candidate, done, kept + 1
        if kept:
            return _test(source, index, result, kept)
    source = rng_for(seed, fmt, index).choice(sources)
    return _test(source, index, roundtrip(fmt, _source_value(fmt, source), _params(source)), 0)


def _test(source: dict, index: int, result, mutations: int) -> dict:
    data, back = result
    test = {"tcId": f"{source['tcId']}~{index}", "result": "valid", "bytes": data.hex(), "value": to_json(back),
            "canonical": bool(source.get("canonical")), "source": source["tcId"], "mutations": mutations}
    if _params(source):
        test["params"] = _params(source)
    return test


def random_tests(fmt: str, seed: int, indexes) -> list[dict]:
    return [random_test(fmt, seed, i) for i in indexes]


def cases_for(fmt: str, test: dict, ops: tuple[str, ...] = ("decode", "encode")) -> list[Case]:
    return [Case(f"{fmt}:{op}:{test['tcId']}", fmt, op, test) for op in ops]


def random_cases(formats: list[str] | None, count: int, seed: int,
                 ops: tuple[str, ...] = ("decode", "encode")) -> list[Case]:
    """`count` random valid values per format as cases, in one process (what the Spark job spreads)."""
    cases = []
    for fmt in formats or formats_with_vectors():
        for index in range(count):
            cases += cases_for(fmt, random_test(fmt, seed, index), ops)
    return cases

"""One input through both parsers, in a worker process (`fuzz/pool.py` runs `run` there).

A job is a gallery format and either bytes (a real file, or a mutant) or a value to make
(`("value", seed, index)`: `values.ValueMaker` builds value *index* of the format under the
campaign's seed, logcodec encodes it, and the bytes go through the comparison like any input).
Both parsers read the same bytes in this process: logcodec's plain `decode` (Kaitai's semantics)
and the official compiler's Python parser, each under its own time limit (an interval timer:
both are pure Python), then `tests/gallery/leaves.py` compares every leaf.

The outcome (`cls`):

| cls | meaning |
|---|---|
| `same_value` | both decoded, every leaf the same |
| `both_refused` | our `DecodeError` against the official parser's exception (`official` names its class) |
| `disagree` | anything else; `cause` says how (see `cause_of`) |
| `unbuildable`, `unencodable` | a value job whose value could not be made, or that the encoder refused (`EncodeError`) |
| `maker_error` | the value maker or the encoder raised something else (`detail`) |
| `not_loaded` | logcodec's module or the official parser of the format did not load |
"""

from __future__ import annotations

import random
import re
import signal
import time
import traceback

SAME, BOTH_REFUSED, DISAGREE = "same_value", "both_refused", "disagree"
UNBUILDABLE, UNENCODABLE, MAKER_ERROR = "unbuildable", "unencodable", "maker_error"
NOT_LOADED = "not_loaded"  # a side of the format could not be loaded in the worker
#: Seconds each side may take on one input (the pool's own limit, per job, stays the backstop):
#: ours, and the value maker, have SIDE_LIMIT; the official parser, which has no limits and
#: loops forever on a `repeat: eos` of elements that take no bytes, has OFFICIAL_LIMIT.
SIDE_LIMIT = 4.0
OFFICIAL_LIMIT = 0.25  # seconds, and as many again per 256 KiB of input


def official_limit(data: bytes) -> float:
    return OFFICIAL_LIMIT * (1 + len(data) / (256 << 10))
#: The largest encoding of a value taken as an input (larger ones are counted, not compared).
MAX_INPUT = 1 << 20


class SideTimeout(BaseException):
    """One side overran its time limit on this input. Not an `Exception`: the code it interrupts
    (the leaf walk reading an instance, a parser) must not take it for a refusal and go on."""


def _alarm(signum, frame):
    raise SideTimeout("over its time limit")


def _timed(call, limit: float = SIDE_LIMIT):
    """`call()` under `limit` seconds; returns (value or the exception raised, raised?)."""
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return call(), False
    except BaseException as exc:  # noqa: BLE001 - every refusal is an outcome here
        return exc, True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


_installed = False


def run(format_name: str, job) -> dict:
    """The worker's target: make the input if the job is a value, then compare."""
    global _installed
    if not _installed:
        signal.signal(signal.SIGALRM, _alarm)
        _installed = True
    from fuzz.gallery import formats as F

    try:
        ours = F.ours(format_name)
        F.official(format_name)
    except Exception as exc:  # noqa: BLE001 - a format that does not load is reported, its inputs not run
        return {"cls": NOT_LOADED, "kind": type(exc).__name__, "detail": f"{type(exc).__name__}: {exc}"[:500]}
    data, made = job, None
    if isinstance(job, tuple):
        made = make_input(format_name, ours, *job[1:])
        if "data" not in made:
            return made
        data = made["data"]
    result = compare(format_name, ours, data)
    if made is not None:
        result["data"] = data
    return result


_MAKERS: dict = {}  # format -> its ValueMaker (it reads the schema's hints once)


def make_input(format_name: str, ours, seed: int, index: int) -> dict:
    """Value `index` of the format under `seed`, encoded: {"data": bytes}, or why not."""
    from fuzz.gallery import values as V
    from logcodec import EncodeError

    rng = random.Random(f"{seed}:{format_name}:value:{index}")
    try:
        if format_name not in _MAKERS:
            _MAKERS[format_name] = V.ValueMaker(ours.schema, ours.modules)
        maker = _MAKERS[format_name]
        value, raised = _timed(lambda: maker.make(rng, ours.params))
        if raised:
            raise value
        data, raised = _timed(lambda: ours.encode(value))
        if raised:
            raise data
    except V.Unbuildable as exc:
        return {"cls": UNBUILDABLE, "kind": "", "detail": str(exc)[:300]}
    except EncodeError as exc:
        return {"cls": UNENCODABLE, "kind": exc.kind, "detail": str(exc)[:300]}
    except MemoryError:
        return {"cls": MAKER_ERROR, "kind": "MemoryError", "detail": "MemoryError making or encoding a value"}
    except Exception as exc:  # noqa: BLE001 - reported with its traceback
        tail = "".join(traceback.format_exception(exc)[-4:])
        return {"cls": MAKER_ERROR, "kind": type(exc).__name__, "detail": f"{type(exc).__name__}: {exc}\n{tail}"[:1500]}
    if len(data) > MAX_INPUT:
        return {"cls": UNENCODABLE, "kind": "oversized",
                "detail": f"encoded to {len(data)} bytes, over {MAX_INPUT} (padding to a size it was given?)"}
    return {"data": data}


def compare(format_name: str, ours, data: bytes) -> dict:
    from fuzz.gallery import formats as F
    from logcodec import DecodeError
    from tests.gallery import leaves

    parser = F.official(format_name)
    official, official_raised = _timed(lambda: parser.parse(data, **ours.params), official_limit(data))
    our_value, our_raised = _timed(lambda: ours.decode(data))
    if our_raised and not isinstance(our_value, DecodeError):
        return _outcome(DISAGREE, cause_of_crash(our_value), official, official_raised, our_value, True)
    if official_raised and our_raised:
        return _outcome(BOTH_REFUSED, "", official, True, our_value, True)
    if official_raised or our_raised:
        side = "official" if official_raised else "ours"
        return _outcome(DISAGREE, f"only {side} refused: {_refusal(official if official_raised else our_value)}",
                        official, official_raised, our_value, our_raised)
    # The walk reads the official instances (lazy): the official parser's time again.
    walked, raised = _timed(lambda: leaves.compare(official, our_value, _types(format_name)), 4 * official_limit(data))
    if raised:
        cause = "comparison overran the time limit" if isinstance(walked, SideTimeout) else \
            f"comparison raised {type(walked).__name__}"
        return _outcome(DISAGREE, cause, official, False, our_value, False, detail=str(walked)[:300])
    if not walked.differences:
        return {"cls": SAME, "kind": "", "detail": f"{walked.leaves} leaves", "leaves": walked.leaves}
    first = walked.differences[0]
    cause = cause_of(first)
    kept = kept_in_part(first, walked.differences)
    if kept is not None:
        cause += f" in {kept}, which the official read in part"
    result = _outcome(DISAGREE, cause, official, False, our_value, False,
                      detail="; ".join(str(d) for d in walked.differences[:5])[:1500])
    result.update(leaves=walked.leaves, differing=len(walked.differences))
    return result


_TYPES: dict = {}


def _types(format_name: str):
    from tests.gallery import leaves

    if format_name not in _TYPES:
        _TYPES[format_name] = leaves.Types(format_name)
    return _TYPES[format_name]


def _refusal(exc: BaseException) -> str:
    """A refusal as a cause names: a DecodeError's kind, any other exception's class."""
    kind = getattr(exc, "kind", None)
    return f"DecodeError {kind}" if kind else exception_name(exc)


def exception_name(exc: BaseException) -> str:
    """An exception's class, with its module where the name alone says little (`zlib.error`)."""
    cls = type(exc)
    if cls.__module__ in ("builtins", "kaitaistruct", "fuzz.gallery.compare", __name__):
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def cause_of_crash(exc: BaseException) -> str:
    if isinstance(exc, SideTimeout):
        return "ours timed out"
    return f"ours raised {type(exc).__name__} (not DecodeError)"


_INDEX = re.compile(r"\[\d+\]")


def cause_of(difference) -> str:
    """A difference as a cause: the leaf's path with list indices dropped, and how it differs
    (one side raised reading it, or two values)."""
    path = _INDEX.sub("[]", difference.path)
    official, ours = difference.official, difference.ours
    if official.startswith("raised ") and not ours.startswith("raised "):
        how = "official raised " + official.split(":")[0].removeprefix("raised ")
    elif ours.startswith("raised ") and not official.startswith("raised "):
        how = "ours raised " + ours.split(":")[0].removeprefix("raised ")
        kind = re.match(r"raised DecodeError: (\w+)", ours)
        how += f" {kind.group(1)}" if kind else ""
    elif ours.startswith("raised "):
        how = "ours raised " + ours.split(":")[0].removeprefix("raised ") + " (not DecodeError)"
    else:
        how = f"{_kind(official)} vs {_kind(ours)}"
    return f"{path}: {how}"


_ERROR_PATH = re.compile(r"^raised DecodeError: \w+ at offset \d+ in ([\w.\[\]]+):")


def kept_in_part(difference, differences) -> str | None:
    """The instance another than the leaf in which our error arose, when the official parser
    read the leaf (a value) and compared equal on that instance (both raised reading it): Kaitai's
    parser assigns a lazy list before it reads its elements, so an instance that failed half-way
    answers later reads with the elements it got (dex's `string_ids` of 3e9 elements, read up to
    the end of the file, then `type_ids[7].type_name` read from it); logcodec's fails each time.
    None for any other difference."""
    got = _ERROR_PATH.match(difference.ours)
    if got is None or difference.official.startswith("raised "):
        return None
    where = got.group(1)
    leaf = _INDEX.sub("", difference.path).split(".")[-1]
    if leaf in _INDEX.sub("", where).split("."):
        return None  # ours failed in the leaf itself
    instance = _INDEX.sub("", where).split(".")[-1]
    if any(_INDEX.sub("", d.path).split(".")[-1] == instance for d in differences):
        return None  # the official read that instance otherwise: not a half-read one
    return where


def _kind(short: str) -> str:
    """The kind of a leaf from its short form (`bytes[3] ...`, `null (not read)`, `5`, `'a'`)."""
    if short.startswith("bytes["):
        return "bytes"
    if short.startswith("null") or short == "None":
        return "null"
    if short.startswith("list["):
        return "list"
    if short.startswith("<"):
        return "struct"
    if short.startswith(("'", '"')):
        return "str"
    if short in ("True", "False"):
        return "bool"
    if re.fullmatch(r"-?\d+", short) or re.fullmatch(r"\w+\.\w+=-?\d+", short):
        return "int"
    return "value"


def _outcome(cls: str, cause: str, official, official_raised: bool, ours, ours_raised: bool,
             detail: str = "") -> dict:
    said_official = f"raised {exception_name(official)}: {str(official)[:200]}" if official_raised else "a value"
    said_ours = f"raised {_refusal(ours)}: {str(ours)[:200]}" if ours_raised else "a value"
    return {"cls": cls, "kind": cause, "cause": cause,
            "official": exception_name(official) if official_raised else "",
            "ours": _refusal(ours) if ours_raised else "",
            "detail": detail or f"official: {said_official}; ours: {said_ours}",
            "time": time.time()}

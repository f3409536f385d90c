"""Cases from the golden vectors, and the verdict on a testee's answer to each.

A case is one vector under one operation, named `<format>:<op>:<tcId>` (the
names expected-failure lists use, by prefix). Values are compared in canonical
JSON after leaving out the paths the testee declared unsupported. What a decode
answer may leave out or give as null (derived fields, defaulted ones such as
`last_offset_delta`, and value instances computed on decode: the properties the
value JSON Schema does not require, apart from instances given on input) is
not required, but when given it must be right.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import logcodec
from logcodec.runtime.values import from_json, to_json, value_fields, without_derived

OUTCOMES = ("pass", "fail", "decode_error", "encode_error", "timeout", "crash", "skipped", "not_run")
VECTORS = Path(__file__).resolve().parent.parent / "generated" / "vectors"


@dataclass
class Case:
    id: str
    format: str
    op: str
    test: dict

    @property
    def result(self) -> str:
        return self.test["result"]


@dataclass
class Verdict:
    case: Case
    outcome: str
    detail: str = ""
    diff: list[str] = field(default_factory=list)
    kind_differs: str = ""  # for refused invalid vectors: "expected X, testee said Y"
    seconds: float = 0.0
    expected_failure: str | None = None  # the reason, when the case is on the expected-failure list

    def to_json(self) -> dict:
        return {"id": self.case.id, "format": self.case.format, "op": self.case.op,
                "tcId": self.case.test["tcId"], "result": self.case.result, "outcome": self.outcome,
                "detail": self.detail, "diff": self.diff, "kind_differs": self.kind_differs,
                "expected_failure": self.expected_failure, "ms": round(self.seconds * 1000, 3)}


def vector_path(fmt: str) -> Path:
    family, name = fmt.split(".", 1)
    return VECTORS / family / f"{name}.json"


@cache
def vector_file(fmt: str) -> dict:
    """A format's golden vector file (read once; treat it as read-only)."""
    return json.loads(vector_path(fmt).read_text())


def formats_with_vectors() -> list[str]:
    """The formats that have golden vectors (a format may be generated before its vectors exist)."""
    return [fmt for fmt in logcodec.formats() if vector_path(fmt).exists()]


def build_cases(formats: list[str] | None = None, ops: tuple[str, ...] = ("decode", "encode")) -> list[Case]:
    cases = []
    for fmt in formats or formats_with_vectors():
        for group in vector_file(fmt)["testGroups"]:
            for test in group["tests"]:
                for op in ops:
                    if op == "encode" and test["result"] != "valid":
                        continue  # only a value can be encoded
                    cases.append(Case(f"{fmt}:{op}:{test['tcId']}", fmt, op, test))
    return cases


# Per vector, so repeated cases cost nothing: keyed by (format, tcId), which name a vector uniquely.
_encode_inputs: dict[tuple[str, str], dict] = {}
_expected: dict[tuple, object] = {}


def request(case: Case, seq: int) -> dict:
    msg = {"type": "run", "seq": seq, "op": case.op, "format": case.format}
    if "params" in case.test:  # the root's params (a Kafka response's API)
        msg["params"] = case.test["params"]
    if case.op == "decode":
        msg["bytes"] = case.test["bytes"]
    else:
        key = (case.format, case.test["tcId"])
        if key not in _encode_inputs:
            _encode_inputs[key] = encode_input(case.format, case.test)
        msg["value"] = _encode_inputs[key]
    return msg


def encode_input(fmt: str, test: dict) -> dict:
    """The vector's value with its derived fields left to the encoder; or, where they carry
    information of their own (a Kafka length of -2, which says null as -1 does), as the vector
    has them, so that the vector's bytes can be asked for."""
    module, params = logcodec.codec(fmt), test.get("params", {})
    value = from_json(module.ROOT, test["value"], params=params)
    bare = without_derived(value)
    if test.get("canonical") and "bytes" in test:  # synthetic values have no bytes to ask for
        data = bytes.fromhex(test["bytes"])
        if module.encode(bare, **params) != data and module.encode(value, **params) == data:
            return to_json(value)
    return to_json(bare)


def expected_value(case: Case, unsupported: list[str]):
    key = (case.format, case.test["tcId"], tuple(unsupported))
    if key not in _expected:
        _expected[key] = comparable(case.format, case.test["value"], unsupported)
    return _expected[key]


# ---------------------------------------------------------------- comparison


def computed(meta) -> bool:
    """A field an encoder computes when given None: derived, or a value instance computed on decode.
    (A defaulted field such as last_offset_delta is written as given, so an encode is judged on it.)"""
    return bool(meta.get("derived") or (meta.get("instance") and not meta.get("input")))


def comparable(fmt: str, value, unsupported: list[str], leave_out=computed):
    """The canonical JSON value without unsupported paths and the fields `leave_out(metadata)` names
    (by default the computed ones; `omittable` for all a decode answer may leave out)."""
    root = logcodec.codec(fmt).ROOT
    return _strip(root, value, set(unsupported), "", leave_out)


def omittable(meta) -> bool:
    """A field a decode answer may leave out or give as null: derived from the rest of the value
    (`derived`, or `defaulted` like last_offset_delta, which is only computed when left out), or a
    value instance computed on decode. Instances given on input carry the information (a TANK
    message's seq_num) and are required."""
    return bool(computed(meta) or meta.get("defaulted"))


def _strip(cls, value, unsupported: set[str], path: str, leave_out):
    if not isinstance(value, dict):
        return value
    out = {}
    for f in value_fields(cls):
        here = f"{path}.{f.name}" if path else f.name
        meta = f.metadata
        if leave_out(meta) or here in unsupported:
            continue
        v = value.get(f.name)
        user = _user_meta(meta)
        # Each element by the class it is: of a switch (a record set's legacy messages and v2
        # batches), the case whose fields it has.
        if user and isinstance(v, list):
            v = [_strip(_case_class(cls, meta, x), x, unsupported, here + "[]", leave_out) for x in v]
        elif user and isinstance(v, dict):
            v = _strip(_case_class(cls, meta, v), v, unsupported, here, leave_out)
        out[f.name] = v
    return out


def _user_meta(meta) -> dict | None:
    return next((m for m in [meta] + list(meta.get("cases", [])) if m.get("kind") == "user"), None)


def decode_differences(fmt: str, want, got, unsupported: list[str], limit: int = 8) -> list[str]:
    """How a decode answer's value differs from the vector's, as `path: expected X, got Y` lines.

    Unsupported paths are not compared; an omittable field (see `omittable`) is compared
    only when the answer gives it, so one left out or null passes and one given wrong fails.
    """
    out: list[str] = []
    _compare(logcodec.codec(fmt).ROOT, want, got, set(unsupported), "", "", out)
    return out[:limit]


def _compare(cls, want, got, unsupported: set[str], path: str, shown: str, out: list[str]) -> None:
    """`path` names list elements `[]`, as unsupported paths do; `shown`, for the report, by index."""
    if not (isinstance(want, dict) and isinstance(got, dict)):
        if want != got:
            out.append(f"{shown or '(value)'}: expected {_short(want)}, got {_short(got)}")
        return
    for f in value_fields(cls):
        here = f"{path}.{f.name}" if path else f.name
        here_shown = f"{shown}.{f.name}" if shown else f.name
        given = got.get(f.name)
        if here in unsupported or (given is None and omittable(f.metadata)):
            continue
        w = want.get(f.name)
        if _user_meta(f.metadata) and isinstance(w, list) and isinstance(given, list) and len(w) == len(given):
            for i, (w_item, g_item) in enumerate(zip(w, given)):
                _compare(_case_class(cls, f.metadata, w_item), w_item, g_item, unsupported, f"{here}[]",
                         f"{here_shown}[{i}]", out)
        elif _user_meta(f.metadata) and isinstance(w, dict):
            _compare(_case_class(cls, f.metadata, w), w, given, unsupported, here, here_shown, out)
        elif w != given:
            out.append(f"{here_shown}: expected {_short(w)}, got {_short(given)}")


def _case_class(cls, meta, want):
    """The class of an object field's expected value: of a switch, the case whose fields it has."""
    users = [m for m in [meta] + list(meta.get("cases", [])) if m.get("kind") == "user"]
    if isinstance(want, dict):
        # the case with exactly its fields, else the first with all of them (a Kafka frame's body is
        # one of some 90 cases, and one case's fields can be a part of another's)
        fitting = [sub for sub in (_module_class(cls, m["type"]) for m in users)
                   if set(want) <= {f.name for f in value_fields(sub)}]
        exact = [sub for sub in fitting if len(value_fields(sub)) == len(want)]
        if exact or fitting:
            return (exact or fitting)[0]
    return _module_class(cls, users[0]["type"])


def _module_class(cls, name: str):
    import sys

    return getattr(sys.modules[cls.__module__], name)


def diff(expected, actual, path: str = "", limit: int = 8) -> list[str]:
    """The first differences between two JSON values, as `path: expected != actual` lines."""
    out: list[str] = []

    def walk(a, b, p):
        if len(out) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in list(a) + [k for k in b if k not in a]:
                walk(a.get(k, "<missing>"), b.get(k, "<missing>"), f"{p}.{k}" if p else k)
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{p}[{i}]")
        else:
            out.append(f"{p or '(value)'}: expected {_short(a)}, got {_short(b)}")

    walk(expected, actual, path)
    return out


def _short(v) -> str:
    text = json.dumps(v)
    return text if len(text) <= 80 else text[:77] + "..."


# ---------------------------------------------------------------- verdicts


def judge(case: Case, answer: dict, unsupported: list[str]) -> Verdict:
    if answer.get("unsupported") is not None and not answer.get("ok"):
        return Verdict(case, "skipped", f"unsupported: {answer['unsupported']}")
    if case.op == "decode":
        return _judge_decode(case, answer, unsupported)
    return _judge_encode(case, answer, unsupported)


def _judge_decode(case: Case, answer: dict, unsupported: list[str]) -> Verdict:
    test = case.test
    if not answer.get("ok"):
        error = answer.get("error") or {}
        if test["result"] == "valid":
            return Verdict(case, "decode_error", f"refused a valid vector: {error.get('kind')}: {error.get('message', '')}")
        verdict = Verdict(case, "pass", f"refused: {error.get('kind')}")
        if error.get("kind") and test.get("error") and error["kind"] != test["error"]:
            verdict.kind_differs = f"expected {test['error']}, testee said {error['kind']}"
        return verdict
    if test["result"] == "invalid":
        return Verdict(case, "fail", f"accepted an invalid vector (expected {test.get('error')})")
    if test["result"] == "acceptable":
        return Verdict(case, "pass", "accepted (acceptable either way)")
    if answer.get("value") == test["value"]:
        return Verdict(case, "pass")  # everything reported, and equal: nothing to leave out
    differences = decode_differences(case.format, test["value"], answer.get("value"), unsupported)
    if not differences:
        return Verdict(case, "pass")
    return Verdict(case, "fail", "decoded to a different value", differences)


def _judge_encode(case: Case, answer: dict, unsupported: list[str]) -> Verdict:
    test = case.test
    if not answer.get("ok"):
        error = answer.get("error") or {}
        return Verdict(case, "encode_error", f"{error.get('kind')}: {error.get('message', '')}")
    try:
        data = bytes.fromhex(answer.get("bytes", ""))
    except (TypeError, ValueError):
        return Verdict(case, "fail", "the answer's bytes are not hex")
    if test.get("canonical") and data.hex() == test["bytes"]:
        return Verdict(case, "pass")
    try:
        decoded = logcodec.to_json(logcodec.strip_derived(logcodec.decode(case.format, data, lazy=False,
                                                                          **test.get("params", {}))))
    except logcodec.DecodeError as exc:
        return Verdict(case, "fail", f"logcodec cannot decode the bytes: {exc}")
    expected = expected_value(case, unsupported)
    actual = comparable(case.format, decoded, unsupported)
    if expected != actual:
        return Verdict(case, "fail", "the bytes decode to a different value", diff(expected, actual))
    if test.get("canonical"):
        return Verdict(case, "fail", "same value, but not the canonical bytes",
                       [f"bytes: expected {test['bytes'][:60]}..., got {data.hex()[:60]}..."])
    return Verdict(case, "pass", "non-canonical encoding decodes to the value")

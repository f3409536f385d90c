"""Derived fields in decode answers: the protocol, the value JSON Schemas and the judge agree.

A decode answer may leave out, or give as null, what the value JSON Schema does not require
(derived fields, defaulted ones such as last_offset_delta, instances computed on decode);
given, it must be right. Instances given on input (a TANK message's seq_num) are required.
"""

import copy
import dataclasses
import sys
from pathlib import Path

import logcodec
from logcodec.conformance import judge, runner
from logcodec.conformance.judge import build_cases, formats_with_vectors

from tests.conformance import derived_free_testee as dft

TESTEE = str(Path(__file__).parent / "derived_free_testee.py")
DECODES = build_cases(ops=("decode",))  # every vector of every format, once


def test_the_schemas_mark_omittable_exactly_what_the_judge_lets_out():
    for fmt in logcodec.formats():
        assert schema_omittable(fmt) == judge_omittable(fmt), fmt


def schema_omittable(fmt: str) -> set[tuple[str, str]]:
    """(class, property) of each property a decode answer may leave out, by the value JSON Schema."""
    defs = dft.value_schema(fmt)["$defs"]
    return {(name.rsplit(".", 1)[-1], prop) for name, obj in defs.items() if obj.get("type") == "object"
            for prop in obj["properties"] if dft.is_omittable(obj, prop)}


def judge_omittable(fmt: str) -> set[tuple[str, str]]:
    """(class, field) of each field judge.omittable lets out, over every class a value can hold."""
    found, todo, seen = set(), [logcodec.codec(fmt).ROOT], set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for f in dataclasses.fields(cls):
            if judge.omittable(f.metadata):
                found.add((cls.__name__, f.name))
            for meta in [f.metadata, *f.metadata.get("cases", [])]:
                if meta.get("kind") == "user":
                    todo.append(getattr(sys.modules[cls.__module__], meta["type"]))
    return found


def test_stripping_leaves_out_the_derived_fields():
    case = next(c for c in DECODES if c.id == "kafka.record_batch_v2:decode:basic/one_record")
    stripped = dft.transform(dft.value_schema(case.format), case.test["value"], dft.drop)
    left_out = set(case.test["value"]) - set(stripped)
    assert left_out == {"len_batch", "crc", "last_offset_delta", "num_records"}
    assert "len_record" not in stripped["records"][0] and "offset_delta" in stripped["records"][0]
    bundle = next(c for c in DECODES if c.format == "tank.bundle" and c.result == "valid")
    message = dft.transform(dft.value_schema("tank.bundle"), bundle.test["value"], dft.drop)["messages"][0]
    assert {"seq_num", "timestamp", "content"} <= set(message) and "len_content" not in message


VALID = [c for c in DECODES if c.result == "valid"]


def test_a_testee_that_leaves_out_every_derived_field_passes_every_vector():
    stripped = [c for c in VALID if dft.transform(dft.value_schema(c.format), c.test["value"], dft.drop) != c.test["value"]]
    assert len(stripped) > 0.9 * len(VALID)  # nearly every value has derived fields to leave out
    verdicts, info = runner.run([sys.executable, TESTEE, "strip"], DECODES)
    assert {v.case.format for v in verdicts} == set(formats_with_vectors()) and not info.gave_up
    assert [(v.case.id, v.detail, v.diff) for v in verdicts if v.outcome != "pass"] == []


def test_a_testee_that_gives_derived_fields_wrong_fails_where_it_gives_one():
    verdicts, info = runner.run([sys.executable, TESTEE, "corrupt"], DECODES)
    has_derived = {c.id for c in VALID if corrupted(c) != c.test["value"]}
    assert len(has_derived) > 0.9 * len(VALID) and not info.gave_up
    assert {v.case.id for v in verdicts if v.outcome == "fail"} == has_derived
    assert all(v.outcome == "pass" for v in verdicts if v.case.id not in has_derived)


def corrupted(case):
    return dft.transform(dft.value_schema(case.format), case.test["value"], dft.wrong)


# ---------------------------------------------------------------- the judge, field by field

BATCH = next(c for c in DECODES if c.id == "kafka.record_batch_v2:decode:basic/one_record")


def judged(case, change, unsupported=()):
    value = copy.deepcopy(case.test["value"])
    change(value)
    return judge.judge(case, {"seq": 1, "ok": True, "value": value}, list(unsupported))


def test_a_derived_field_left_out_or_null_passes():
    assert judged(BATCH, lambda v: v.pop("last_offset_delta")).outcome == "pass"
    assert judged(BATCH, lambda v: v.update(last_offset_delta=None, crc=None)).outcome == "pass"
    assert judged(BATCH, lambda v: v["records"][0].update(len_record=None)).outcome == "pass"


def test_a_derived_field_given_wrong_fails_with_its_path():
    wrong_delta = judged(BATCH, lambda v: v.update(last_offset_delta=v["last_offset_delta"] + 1))
    assert wrong_delta.outcome == "fail" and wrong_delta.diff == [
        f"last_offset_delta: expected {BATCH.test['value']['last_offset_delta']}, "
        f"got {BATCH.test['value']['last_offset_delta'] + 1}"]
    wrong_len = judged(BATCH, lambda v: v["records"][0].update(len_record=999))
    assert wrong_len.outcome == "fail" and wrong_len.diff[0].startswith("records[0].len_record: expected ")
    assert judged(BATCH, lambda v: v.update(crc=0)).outcome == "fail"


def test_a_wrong_derived_field_declared_unsupported_is_not_compared():
    assert judged(BATCH, lambda v: v["records"][0].update(len_record=999), ["records[].len_record"]).outcome == "pass"


def test_fields_that_are_not_derived_are_still_required():
    assert judged(BATCH, lambda v: v.update(base_offset=None)).outcome == "fail"
    bundle = next(c for c in DECODES if c.format == "tank.bundle" and c.result == "valid"
                  and c.test["value"]["messages"])
    missing_seq = judged(bundle, lambda v: v["messages"][0].pop("seq_num"))
    assert missing_seq.outcome == "fail" and missing_seq.diff[0].startswith("messages[0].seq_num: expected ")

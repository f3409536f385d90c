"""The judge compares each element of a switch by the class it is: a record set's v2 batches are
compared field by field, not reduced to the legacy entry's fields (which they do not have)."""

import copy

import logcodec
from logcodec.conformance import judge
from tests.vectorfiles import vector_file

FORMAT = "kafka.record_set"


def mixed_case() -> judge.Case:
    test = next(t for g in vector_file(FORMAT)["testGroups"] for t in g["tests"] if t["tcId"] == "mixed/v0_v2_v1")
    return judge.Case(f"{FORMAT}:encode:{test['tcId']}", FORMAT, "encode", copy.deepcopy(test))


def test_a_v2_batch_in_a_record_set_keeps_its_fields_for_comparison():
    case = mixed_case()
    batch = judge.comparable(FORMAT, case.test["value"], [])["entries"][1]
    assert batch["base_offset"] == "1" and [r["value"] for r in batch["records"]] == ["7631", "7632"]


def test_an_encoding_whose_v2_batch_differs_fails():
    case = mixed_case()
    changed = logcodec.value_from_json(FORMAT, case.test["value"])
    changed.entries[1].records[0].value = b"other"
    data = logcodec.encode(FORMAT, logcodec.strip_derived(changed))
    case.test["canonical"] = False  # judged by value, as a compressed vector's encoding is
    verdict = judge.judge(case, {"ok": True, "bytes": data.hex()}, [])
    assert verdict.outcome == "fail" and any("records[0].value" in line for line in verdict.diff), verdict


def test_a_kafka_body_is_compared_as_the_case_it_is():
    """A frame's body is one of some 90 cases, and one case's fields can be a part of another's: each
    valid vector's body is compared as a class with exactly its fields, never a larger one."""
    import dataclasses

    for fmt in ("kafka.request", "kafka.response"):
        root = logcodec.codec(fmt).ROOT
        meta = next(f.metadata for f in dataclasses.fields(root) if f.name == "body")
        larger = 0
        for test in (t for g in vector_file(fmt)["testGroups"] for t in g["tests"] if t["result"] == "valid"):
            body = test["value"]["body"]
            chosen = judge._case_class(root, meta, body)
            assert {f.name for f in dataclasses.fields(chosen)} == set(body), (fmt, test["tcId"], chosen)
            larger += any(set(body) < {f.name for f in dataclasses.fields(judge._module_class(root, m["type"]))}
                          for m in meta.get("cases", []) if m.get("kind") == "user")
        assert larger, "no body whose fields are a part of another case's: the test shows nothing"

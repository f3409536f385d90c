"""The generated JSON Schemas accept every vector file and every expected value, and have teeth."""

import json

import jsonschema
import pytest

import logcodec
from tests.vectorfiles import ROOT, all_tests, vector_file

SCHEMA_DIR = ROOT / "generated" / "schema"


def value_validator(fmt: str):
    family, name = fmt.split(".", 1)
    schema = json.loads((SCHEMA_DIR / family / f"{name}.value.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("fmt", sorted({fmt for fmt, _ in all_tests()}))
def test_vector_files_follow_the_vector_schema(fmt):
    schema = json.loads((SCHEMA_DIR / "vectors.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(vector_file(fmt), schema)


def test_every_expected_value_follows_its_value_schema():
    validators = {}
    checked = 0
    for fmt, test in all_tests("valid"):
        if fmt not in validators:  # checked once a format (setdefault would check it every time)
            validators[fmt] = value_validator(fmt)
        validators[fmt].validate(test["value"])
        checked += 1
    assert checked > 40


def test_the_value_schema_rejects_wrong_shapes():
    fmt, test = next((f, t) for f, t in all_tests("valid") if t["tcId"] == "headers/one_header")
    validator = value_validator(fmt)
    broken = json.loads(json.dumps(test["value"]))
    broken["base_offset"] = 5  # 64-bit integers are decimal strings
    assert not validator.is_valid(broken)
    broken = json.loads(json.dumps(test["value"]))
    broken["records"][0]["key"] = "not hex"
    assert not validator.is_valid(broken)
    broken = json.loads(json.dumps(test["value"]))
    broken["records"][0]["surprise"] = 1
    assert not validator.is_valid(broken)
    stripped = logcodec.to_json(logcodec.strip_derived(logcodec.value_from_json(fmt, test["value"])))
    assert validator.is_valid(stripped), "derived fields may be null"

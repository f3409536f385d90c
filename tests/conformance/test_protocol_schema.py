"""The protocol's JSON Schema accepts what the harness and logcodec's testee really send."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

from logcodec.conformance.judge import build_cases, request
from logcodec.runtime.errors import KINDS

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "conformance" / "protocol.schema.json").read_text())


def validator():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


def test_real_traffic_follows_the_schema():
    check = validator()
    cases = build_cases()
    requests = [{"type": "start", "protocol": 1}] + [request(c, i) for i, c in enumerate(cases)] + [{"type": "stop"}]
    for message in requests:
        check.validate(message)
    text = "".join(json.dumps(m) + "\n" for m in requests)
    out = subprocess.run([sys.executable, "-m", "logcodec", "testee"], input=text, capture_output=True, text=True)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(cases) + 1
    for message in answers:
        check.validate(message)
    assert any(a.get("ok") is False for a in answers) and any("bytes" in a for a in answers)


def test_the_schema_rejects_malformed_messages():
    check = validator()
    for bad in [{"type": "run", "seq": 1, "op": "decode", "format": "kafka.record_batch_v2"},  # no bytes
                {"seq": 1, "ok": True},  # neither value nor bytes
                {"seq": 1, "ok": False, "error": {"kind": "bad_kind"}},
                {"type": "started", "protocol": 1, "implementation": {"name": "x", "version": "1"},
                 "formats": {"kafka.record_batch_v2": ["parse"]}}]:
        assert not check.is_valid(bad), bad


def test_the_schema_names_every_error_kind():
    kinds = SCHEMA["$defs"]["answer"]["properties"]["error"]["properties"]["kind"]["enum"]
    assert set(kinds) - {None} == set(KINDS)

"""Check vectors (generated/vectors/**/*.checks.json): every test's inputs, given to its named
checker, give exactly the findings the file lists (kind, offset, path), and each file holds
both clean cases and cases with findings, so the files cannot pass by being empty."""

import json
from pathlib import Path

import pytest

from logcodec import checks

GENERATED = Path(checks.__file__).resolve().parents[1] / "generated" / "vectors"
FILES = sorted(GENERATED.rglob("*.checks.json"))
CASES = [(path, test) for path in FILES for test in json.loads(path.read_text())["tests"]]


def test_there_are_check_vectors():
    assert FILES
    for path in FILES:
        tests = json.loads(path.read_text())["tests"]
        assert any(not t["findings"] for t in tests) and sum(1 for t in tests if t["findings"]) >= 5


@pytest.mark.parametrize("path,test", CASES, ids=[f"{p.stem}:{t['tcId']}" for p, t in CASES])
def test_the_checker_finds_exactly_what_the_vector_lists(path, test):
    checker = json.loads(path.read_text())["checker"]
    inputs = {key: bytes.fromhex(value) for key, value in test["inputs"].items()}
    found = [{"kind": f.kind, "offset": f.offset, "path": f.path} for f in checks.run(checker, inputs)]
    assert found == test["findings"]

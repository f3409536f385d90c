"""conformance/results/ must be current: every shipped testee's results were produced from the golden
vectors as they are now, and cover every format that has vectors. No testee runs here: each results
file names the SHA-256 of the vector files it was run on (conformance/matrix.py), compared with
the files in generated/vectors/. Regenerate with `.venv/bin/logcodec conformance matrix`."""

from __future__ import annotations

import json

import pytest

from logcodec.conformance import matrix
from logcodec.conformance.impls import SHIPPED

STALE = f"conformance/results/{{name}}.json is stale; regenerate with `{matrix.REGENERATE}`"


def _results(name: str) -> dict:
    path = matrix.RESULTS / f"{name}.json"
    assert path.exists(), STALE.format(name=name)
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_results_were_produced_from_the_current_vectors(name):
    recorded = _results(name).get("vectors", {})
    current = matrix.vector_hashes()
    changed = sorted(fmt for fmt in current.keys() | recorded.keys() if recorded.get(fmt) != current.get(fmt))
    assert not changed, STALE.format(name=name) + f" (vector files changed since: {', '.join(changed)})"


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_results_count_every_format_with_vectors(name):
    counted = {key.split(":", 1)[0] for key in _results(name)["counts"]}
    assert counted == set(matrix.vector_hashes()), STALE.format(name=name)


def test_a_changed_vector_file_is_seen(tmp_path, monkeypatch):
    """The hash follows the file's bytes: one byte more and the recorded hash no longer matches."""
    fmt = "kafka.message_set"
    copy = tmp_path / "message_set.json"
    copy.write_bytes(matrix.vector_path(fmt).read_bytes())
    original = matrix.vector_path
    monkeypatch.setattr(matrix, "vector_path", lambda f: copy if f == fmt else original(f))
    before = matrix.vector_hashes()[fmt]
    copy.write_bytes(copy.read_bytes() + b"\n")
    assert matrix.vector_hashes()[fmt] != before


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_results_say_whether_the_testee_is_the_reference(name):
    """The results page sets the reference apart from the judged implementations by its results file."""
    assert _results(name).get("reference", False) is SHIPPED[name].reference, STALE.format(name=name)


def test_logcodec_is_the_only_reference():
    """The vectors' expected values are logcodec's own output: its column is the reference, not a result."""
    assert [name for name, shipped in SHIPPED.items() if shipped.reference] == ["logcodec"]

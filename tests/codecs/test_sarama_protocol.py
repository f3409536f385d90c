"""The `kafka.request` and `kafka.response` vectors against sarama's readers (issue 39: each
valid vector checked by an implementation we did not write; `sarama_protocol`): every valid vector
of a version sarama knows (flag `Sarama`) is read by sarama without error to its last byte."""

import pytest
from logcodec.conformance.judge import vector_file

import logcodec

from . import sarama_protocol

pytestmark = pytest.mark.skipif(not sarama_protocol.available(),
                                reason="needs go and sarama (golang-go golang-github-shopify-sarama-dev)")

FORMATS = {"kafka.request": "request", "kafka.response": "response"}


@pytest.fixture(scope="module")
def sarama(tmp_path_factory):
    return sarama_protocol.build(tmp_path_factory.mktemp("sarama"))


def _frame(test: dict, kind: str) -> dict:
    data = bytes.fromhex(test["bytes"])
    if kind == "request":
        key, version = int.from_bytes(data[0:2], "big"), int.from_bytes(data[2:4], "big")
    else:
        key, version = test["params"]["api_key"], test["params"]["api_version"]
        data = data[sarama_protocol.HEADER:]
    return {"id": test["tcId"], "kind": kind, "key": key, "version": version, "hex": data.hex()}


def _flagged(fmt: str) -> list[dict]:
    return [t for g in vector_file(fmt)["testGroups"] for t in g["tests"] if "Sarama" in t["flags"]]


@pytest.mark.parametrize("fmt", FORMATS)
def test_sarama_reads_every_valid_vector_of_the_versions_it_knows(fmt, sarama):
    kind = FORMATS[fmt]
    frames = [_frame(t, kind) for t in _flagged(fmt)]
    assert all(t["result"] == "valid" for t in _flagged(fmt))
    read = sarama_protocol.read_all(sarama, frames)
    assert {i: r for i, r in read.items() if not r.get("read")} == {}
    versions = {(f["key"], f["version"]) for f in frames}
    assert len(versions) >= 50 and {0, 1, 3, 18} <= {k for k, _ in versions}  # Produce, Fetch, Metadata, ApiVersions


def test_the_flags_follow_the_versions_sarama_knows():
    """Every frame kafka-python wrote of a version sarama reads is flagged, and no other."""
    known = sarama_protocol.known()
    assert known["request"][3] == 5 and known["response"][1] == 4  # sarama 1.22: Metadata v5, Fetch v4
    for fmt, kind in FORMATS.items():
        written = [t for g in vector_file(fmt)["testGroups"] if g["type"].startswith("kafka_python_")
                   for t in g["tests"]]
        for t in written:
            f = _frame(t, kind)
            flexible = logcodec.decode(fmt, bytes.fromhex(t["bytes"]), lazy=False, **t.get("params", {})).body
            flexible = getattr(flexible, "tagged_fields", None) is not None  # (a flexible body ends with them)
            assert ("Sarama" in t["flags"]) == sarama_protocol.reads(kind, f["key"], f["version"], flexible), t["tcId"]


def test_the_check_has_teeth(sarama):
    """A frame one byte short, or with one byte more, is refused: sarama reads to the last byte."""
    [test] = [t for t in _flagged("kafka.response") if t["tcId"].endswith("metadata_response_v5_filled")]
    frame = _frame(test, "response")
    short, long = dict(frame, id="short", hex=frame["hex"][:-2]), dict(frame, id="long", hex=frame["hex"] + "00")
    read = sarama_protocol.read_all(sarama, [frame, short, long])
    assert read[test["tcId"]] == {"read": True}
    assert "error" in read["short"] and "error" in read["long"]

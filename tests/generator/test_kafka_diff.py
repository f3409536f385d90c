"""`logcodec diff OLD NEW` on Kafka's message specs (`generator/message_specs/evolution.py`): real
pairs, an older spec set made from Kafka's own by taking out each message's latest version, and
single changes of the kinds Kafka's evolution rules name, each judged wire-breaking or not."""

import json
import re
from pathlib import Path

import pytest
from logcodec.generator.message_specs import Versions
from logcodec.generator.message_specs.reading import blank_comments

from logcodec.cli import main

SPECS = Path(__file__).resolve().parents[2] / "schemas" / "kafka" / "messages"


def docs() -> dict[str, dict]:
    return {p.name: json.loads(blank_comments(p.read_text())) for p in sorted(SPECS.glob("*.json"))}


def write(folder: Path, specs: dict[str, dict]) -> Path:
    folder.mkdir()
    for name, doc in specs.items():
        (folder / name).write_text(json.dumps(doc, indent=2))
    return folder


def _without(versions: str, top: int) -> str | None:
    """The range `versions` without version `top` (the message's latest): None when nothing is left.
    An open range stays open, as Kafka's files keep it when a version comes after."""
    v = Versions.parse(versions)
    if v.empty or v.low >= top:
        return None
    if v.high is not None and v.high >= top:
        return str(Versions(v.low, top - 1))
    return versions


def _older_fields(fields: list[dict], top: int) -> list[dict]:
    kept = []
    for f in fields:
        versions = _without(f["versions"], top)
        if versions is None:
            continue
        f = dict(f, versions=versions)
        for key in ("nullableVersions", "taggedVersions"):
            if key in f and _without(f[key], top) is None:
                del f[key]
                if key == "taggedVersions":
                    del f["tag"]
        if "fields" in f:
            f["fields"] = _older_fields(f["fields"], top)
        kept.append(f)
    return kept


def older(doc: dict) -> dict | None:
    """The spec as it was before its latest version (None for a message of one version): what
    Kafka's spec was one release before, near enough to be a real pair."""
    valid = Versions.parse(doc["validVersions"])
    if doc["type"] not in ("request", "response") or valid.high == valid.low:
        return None
    top = valid.high
    flexible = _without(doc["flexibleVersions"], top) or "none"
    return dict(doc, validVersions=str(Versions(valid.low, top - 1)), flexibleVersions=flexible,
                fields=_older_fields(doc["fields"], top),
                commonStructs=[dict(s, fields=_older_fields(s["fields"], top)) for s in doc.get("commonStructs", [])])


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(OLD, NEW): Kafka's specs with each message's latest version taken out, and as they are."""
    tmp = tmp_path_factory.mktemp("diff")
    new = docs()
    old = {name: older(doc) or doc for name, doc in new.items()}
    return write(tmp / "old", old), write(tmp / "new", new), new


def run(capsys, *argv) -> tuple[int, list[str]]:
    """`logcodec diff`, its changes only (the vectors' check compiles both folders)."""
    code = main(["diff", "--changes-only", *map(str, argv)])
    return code, capsys.readouterr().out.splitlines()


def test_an_older_spec_set_gains_exactly_its_new_versions(capsys, pair):
    old, new, specs = pair
    code, lines = run(capsys, old, new)
    grown = {doc["name"]: Versions.parse(doc["validVersions"]).high for doc in specs.values() if older(doc)}
    assert code == 0
    assert lines == [f"{name} v{top}: version added" for name, top in sorted(grown.items())]


#: A spec set of a few APIs, the vectors' check compiles in seconds: what the frames need (the
#: headers) and two APIs, one of them with records.
FEW = ("RequestHeader.json", "ResponseHeader.json", "ApiVersionsRequest.json", "ApiVersionsResponse.json",
       "MetadataRequest.json", "MetadataResponse.json", "ProduceRequest.json", "ProduceResponse.json")


def few(edit=lambda specs: None) -> dict[str, dict]:
    specs = {name: doc for name, doc in docs().items() if name in FEW}
    edit(specs)
    return specs


def vector_lines(capsys, old: Path, new: Path, code: int) -> list[str]:
    assert main(["diff", str(old), str(new)]) == code
    return [line for line in capsys.readouterr().out.splitlines() if line.startswith("vectors: ")]


def test_the_vectors_an_older_spec_set_reads_read_the_same_under_the_new(tmp_path, capsys):
    """Of the shipped vectors, those the older spec set reads (all but its APIs' latest versions
    and the APIs it does not have) decode to the same value under the new one."""
    old = write(tmp_path / "old", {name: older(doc) or doc for name, doc in few().items()})
    lines = vector_lines(capsys, old, write(tmp_path / "new", few()), 0)
    counts = [re.fullmatch(r"vectors: kafka\.(request|response): (\d+) of (\d+) valid vectors OLD reads decode to "
                           r"the same value under NEW", line) for line in lines]
    assert len(lines) == 2 and all(m and m[2] == m[3] and int(m[2]) > 40 for m in counts), lines


def test_vectors_that_read_otherwise_under_new_are_named(tmp_path, capsys):
    """A change of the wire (Metadata's throttle time made an int64) leaves no Metadata response
    vector decoding; a rename (ApiVersions' error code) leaves its vectors decoding to another
    value (names are the value's); every other vector reads as it did."""
    def edit(specs):
        field_named(specs["MetadataResponse.json"]["fields"], "ThrottleTimeMs").update(type="int64")
        field_named(specs["ApiVersionsResponse.json"]["fields"], "ErrorCode").update(name="ErrorKind")

    lines = vector_lines(capsys, write(tmp_path / "old", few()), write(tmp_path / "new", few(edit)), 1)
    changed = [line for line in lines if line.startswith("vectors: kafka.response: ") and "(" in line]
    # the Metadata frames (kafka-python's of each version, and the valid one with an unknown tag)
    # no longer decode; the ApiVersions ones read another value, but the v0 answer to a v3 request,
    # which no longer decodes: the version fallback is the error code's, and NEW has none
    assert changed and all(re.search(r"(metadata_response_v\d+_\w+|mutated/unknown_tag|api_versions_v0_answers_v3) "
                                     r"\(no longer decodes: ", line)
                           or re.search(r"api_versions_response_v\d+_\w+ \(another value\)", line) for line in changed)
    assert any("another value" in line for line in changed) and any("no longer decodes" in line for line in changed)
    summary = next(line for line in lines if re.match(r"vectors: kafka\.response: \d+ of", line))
    same, read = map(int, re.findall(r"\d+", summary)[:2])
    assert read - same == len(changed) and same > 0  # the Produce responses read as they did


def test_dropping_the_latest_versions_breaks_the_wire(capsys, pair):
    old, new, specs = pair
    code, lines = run(capsys, new, old)
    assert code == 1
    assert all(re.fullmatch(r"\w+ v\d+: version dropped \(wire-breaking\)", line) for line in lines)
    assert len(lines) == sum(1 for doc in specs.values() if older(doc))


def test_a_spec_set_against_itself_has_no_change(capsys, pair):
    _, new, _ = pair
    assert run(capsys, new, new) == (0, [])


def fetch() -> dict:
    return docs()["FetchRequest.json"]


def field_named(fields: list[dict], name: str) -> dict:
    return next(f for f in fields if f["name"] == name)


def edited(edit) -> dict:
    doc = fetch()
    edit(doc)
    return doc


@pytest.mark.parametrize(("edit", "expected", "code"), [
    # a field retyped in the versions it has: breaking
    (lambda d: field_named(d["fields"], "MaxWaitMs").update(type="int64"),
     ["FetchRequest v0-17: MaxWaitMs: retyped int32 -> int64 (wire-breaking)"], 1),
    # renamed where it stands: names do not travel
    (lambda d: field_named(d["fields"], "MaxWaitMs").update(name="MaxWaitMillis"),
     ["FetchRequest v0-17: MaxWaitMillis: renamed from MaxWaitMs"], 0),
    # a default changed: reported, no wire change
    (lambda d: field_named(d["fields"], "MinBytes").update(default="1"),
     ['FetchRequest v0-17: MinBytes: default none -> "1"'], 0),
    # a tagged field added to the flexible versions: compatible
    (lambda d: d["fields"].append({"name": "Hint", "type": "string", "versions": "12+", "taggedVersions": "12+",
                                   "tag": 9, "about": "x"}),
     ["FetchRequest v12-17: Hint: tagged field 9 added (compact string)"], 0),
    # a field added to versions that exist: breaking
    (lambda d: d["fields"].append({"name": "Extra", "type": "int8", "versions": "15+", "about": "x"}),
     ["FetchRequest v15-17: Extra: added (int8) (wire-breaking)"], 1),
    # flexible from an earlier version: every string and array of those versions changes
    (lambda d: d.update(flexibleVersions="11+"), ["FetchRequest v11: made flexible (wire-breaking)"], 1),
    # a field of a struct inside an array made nullable
    (lambda d: field_named(field_named(d["fields"], "Topics")["fields"], "Topic").update(nullableVersions="0-12"),
     ["FetchRequest v0-12: Topics[].Topic: made nullable (wire-breaking)"], 1),
])
def test_each_kind_of_change_is_judged(tmp_path, capsys, edit, expected, code):
    old = write(tmp_path / "old", {"FetchRequest.json": fetch()})
    new = write(tmp_path / "new", {"FetchRequest.json": edited(edit)})
    assert run(capsys, old, new) == (code, expected)


def test_json_output_and_usage_errors(tmp_path, capsys):
    old = write(tmp_path / "old", {"FetchRequest.json": fetch()})
    new = write(tmp_path / "new", {"FetchRequest.json": edited(lambda d: d.update(validVersions="0-16"))})
    assert main(["diff", str(old), str(new), "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == {"changes": [
        {"subject": "FetchRequest", "versions": [17], "path": "", "change": "version dropped", "breaking": True}],
        "vectors": ["vectors not compared: the OLD specs could not be compiled (" + str(old) + ": no request or "
                    "response frame to make: the folder has no RequestHeader or ResponseHeader spec, or no request "
                    "or response of an API)"]}
    (tmp_path / "empty").mkdir()
    assert main(["diff", str(tmp_path / "empty"), str(new)]) == 2
    assert "holds neither .ksy schemas nor Kafka message specs" in capsys.readouterr().err
    assert main(["diff", str(tmp_path / "missing"), str(new)]) == 2

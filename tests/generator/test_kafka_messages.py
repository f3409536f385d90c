"""The second front end, Kafka's JSON message language (`generator/message_specs/`): Kafka's own
specs (the copy in `schemas/kafka/messages/`) read with no error, as Kafka's generator reads them,
and every broken spec answered with each of its problems, placed by file, line, column and JSON
path."""

from pathlib import Path

import pytest
from logcodec.generator.message_specs import SpecReader, Versions, read_specs
from logcodec.generator.message_specs.reading import blank_comments
from logcodec.generator.problems import SchemaError

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "schemas" / "kafka" / "messages"
SHARED = REPO.parent / "shared" / "corpus" / "kafka_message_specs"


@pytest.fixture(scope="module")
def specs():
    return read_specs(SPECS)


def test_kafkas_specs_read_without_error(specs):
    reader = SpecReader()
    assert len(reader.read_folder(SPECS)) == len(list(SPECS.glob("*.json")))
    # What Kafka's own reader takes and a stricter one would not: a key given twice, a tag written
    # as text, a field nullable in versions it does not have. Warnings, each placed.
    assert {p.severity for p in reader.problems} <= {"warning"}
    assert "BrokerHeartbeatRequest.json:34:94: fields[5].tag: warning: is the text '0'; read as the number 0" in {
        str(p) for p in reader.problems}


def test_each_api_has_one_request_and_one_response_of_the_same_versions(specs):
    """Kafka's rule (its README): a response's version is its request's."""
    by_key = {}
    for spec in specs:
        if spec.kind in ("request", "response"):
            by_key.setdefault(spec.api_key, {})[spec.kind] = spec
    assert all(set(pair) == {"request", "response"} for pair in by_key.values())
    for pair in by_key.values():
        assert pair["request"].valid_versions == pair["response"].valid_versions, pair["request"].name
    headers = {s.name: s for s in specs if s.kind == "header"}
    assert set(headers) == {"RequestHeader", "ResponseHeader"}
    assert headers["RequestHeader"].versions == [0, 1, 2]
    # as the issue counts them: about 88 APIs and 650 request and response versions
    assert len(by_key) >= 80 and sum(len(s.versions) for p in by_key.values() for s in p.values()) >= 600


def test_a_spec_reads_as_its_file_says(specs):
    fetch = next(s for s in specs if s.name == "FetchRequest")
    assert (fetch.api_key, fetch.kind, str(fetch.valid_versions), str(fetch.flexible_versions)) == (1, "request", "0-17", "12+")
    cluster_id = next(f for f in fetch.fields if f.name == "ClusterId")
    assert (cluster_id.tag, str(cluster_id.tagged_versions), str(cluster_id.nullable_versions), cluster_id.default) == (
        0, "12+", "12+", "null")
    topics = next(f for f in fetch.fields if f.name == "Topics")
    assert topics.type.is_array and topics.type.element == "FetchTopic" and topics.type.is_struct
    assert [f.name for f in topics.fields][:2] == ["Topic", "TopicId"]
    header = next(s for s in specs if s.name == "RequestHeader")
    client_id = next(f for f in header.fields if f.name == "ClientId")
    assert client_id.flexible_versions == Versions(None) and client_id.ignorable


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared corpus is not here")
def test_the_copy_is_kafkas_files_unchanged():
    for path in SHARED.glob("*.json"):
        assert (SPECS / path.name).read_bytes() == path.read_bytes(), path.name
    assert {p.name for p in SPECS.glob("*.json")} == {p.name for p in SHARED.glob("*.json")}
    for name in ("LICENSE", "NOTICE", "README.md"):
        assert (SPECS / name).read_bytes() == (SHARED / name).read_bytes()


@pytest.mark.parametrize(("text", "low", "high", "shown"), [
    ("0+", 0, None, "0+"), ("3-7", 3, 7, "3-7"), ("2", 2, 2, "2"), ("none", None, None, "none"), ("4-4", 4, 4, "4")])
def test_versions_read_as_the_language_writes_them(text, low, high, shown):
    v = Versions.parse(text)
    assert (v.low, v.high, str(v)) == (low, high, shown)


@pytest.mark.parametrize("text", ["", "+", "1-", "-1", "3-1", "01", "1.5", "1+2", "all", " 1+", "999999"])
def test_other_versions_are_none(text):
    assert Versions.parse(text) is None


def test_ranges_hold_and_contain():
    assert 5 in Versions.parse("3+") and 2 not in Versions.parse("3+") and 0 not in Versions.parse("none")
    assert Versions.parse("4-6").within(Versions.parse("0+")) and not Versions.parse("4+").within(Versions.parse("0-9"))
    assert Versions.parse("none").within(Versions.parse("3")) and not Versions.parse("2-3").within(Versions.parse("3+"))


def test_comments_are_blanked_where_they_are_and_text_is_kept():
    text = '{ // a comment\n  "about": "see http://x // not a comment", "a": "\\"//\\"" // end\n}'
    blanked = blank_comments(text)
    assert len(blanked) == len(text) and blanked.splitlines()[0] == "{" + " " * 13
    assert '"see http://x // not a comment"' in blanked and '"\\"//\\""' in blanked and "end" not in blanked


def problems_of(text: str) -> list[str]:
    reader = SpecReader()
    reader.read_file(text.encode(), "Broken.json")
    return [str(p) for p in reader.problems]


GOOD = """{
  // a comment, as Kafka's files have
  "apiKey": 99, "type": "request", "name": "ExampleRequest",
  "validVersions": "0-3", "flexibleVersions": "2+",
  "fields": [
    { "name": "Topics", "type": "[]Topic", "versions": "0+", "about": "The topics.",
      "fields": [ { "name": "Name", "type": "string", "versions": "0+", "mapKey": true } ] },
    { "name": "Cluster", "type": "string", "versions": "2+", "taggedVersions": "2+", "tag": 0,
      "nullableVersions": "2+", "default": "null" }
  ]
}"""


def test_a_good_spec_has_no_problem():
    assert problems_of(GOOD) == []


def place(text: str, needle: str) -> str:
    """`line:column` (from 1) of the first `needle` in `text`: where a problem of
    what starts there is placed."""
    at = text.index(needle)
    line = text.count("\n", 0, at) + 1
    return f"{line}:{at - (text.rfind(chr(10), 0, at) + 1) + 1}"


@pytest.mark.parametrize(("change", "expected"), [
    (('"validVersions": "0-3"', '"validVersions": "3-1"'),
     [('"validVersions"', "validVersions: is '3-1'; versions are written 3+, 1-3, 2 or none")]),
    (('"apiKey": 99, ', ''), [("{", "(top): a message needs apiKey")]),
    (('"validVersions": "0-3"', '"validVersions": "none"'),
     [('"validVersions"', "validVersions: is 'none'; a message has at least one version")]),
    (('"validVersions": "0-3"', '"validVersions": "0+"'),
     [('"validVersions"', "validVersions: is '0+'; a request or response has a closed range (0-3)")]),
    (('"flexibleVersions": "2+"', '"flexibleVersions": "2-3"'),
     [('"flexibleVersions"', "flexibleVersions: is '2-3'; flexible versions are none or open-ended (3+)"),
      ('"taggedVersions"', "fields[1].taggedVersions: 2+ is not within the flexible versions 2-3: only flexible "
                           "versions have tagged fields")]),
    (('"type": "request"', '"type": "query"'),
     [('"type"', "type: is 'query'; a message is one of request, response, header, data")]),
    (('"mapKey": true', '"mapKey": true, "size": 3'),
     [('"size"', "fields[0].fields[0].size: a field has no key 'size' (it has about, default, entityType, fields, "
                 "flexibleVersions, ignorable, mapKey, name, nullableVersions, tag, taggedVersions, type, versions, "
                 "zeroCopy)")]),
    (('"tag": 0,', '"tag": -1,'), [('"tag"', "fields[1].tag: is -1; a tag is a whole number from 0")]),
    (('"tag": 0,', ''), [('{ "name": "Cluster"', "fields[1]: a tagged field has both tag and taggedVersions")]),
    (('"taggedVersions": "2+"', '"taggedVersions": "1+"'),
     [('"taggedVersions"', "fields[1].taggedVersions: 1+ is not within the flexible versions 2+: only flexible "
                           "versions have tagged fields"),
      ('"taggedVersions"', "fields[1].taggedVersions: 1+ is not within the field's versions 2+")]),
    (('"taggedVersions": "2+"', '"taggedVersions": "2-3"'),
     [('"taggedVersions"', "fields[1].taggedVersions: is '2-3'; tagged versions are open-ended (3+): a tag is "
                           "never taken back")]),
    (('"type": "[]Topic"', '"type": "[]Topic", "nullableVersions": "0+"'), []),  # an array may be null
    (('"type": "string", "versions": "0+"', '"type": "int32", "versions": "0+", "nullableVersions": "1+"'),
     [('"nullableVersions"', "fields[0].fields[0].nullableVersions: a field of type int32 is never null")]),
    (('"type": "[]Topic"', '"type": "[]topic"'),
     [('"type": "[]topic"', "fields[0].type: '[]topic' is no type: a primitive (bool, bytes, float64, int16, int32, "
                            "int64, int8, records, string, uint16, uint32, uuid), a struct's name, or an array of "
                            "either ([]int32, []Topic)")]),
    (('"name": "Cluster"', '"name": "Topics"'),
     [('"name": "Topics", "type": "string"', "fields[1].name: 'Topics' is also the name of fields[0]")]),
])
def test_each_problem_is_placed(change, expected):
    old, new = change
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    assert problems_of(text) == [f"Broken.json:{place(text, needle)}: {what}" for needle, what in expected]


def test_every_problem_of_a_folder_is_reported_at_once(tmp_path):
    (tmp_path / "A.json").write_text(GOOD.replace('"0-3"', '"x"'))
    (tmp_path / "B.json").write_text("{ not json")
    (tmp_path / "C.json").write_text(GOOD.replace('"tag": 0,', '"tag": 0, "ignorable": "yes",'))
    with pytest.raises(SchemaError) as info:
        read_specs(tmp_path)
    lines = info.value.lines
    assert [line.split(":")[0] for line in lines] == ["A.json", "B.json", "C.json"]
    assert "is not JSON" in lines[1] and "ignorable: is 'yes'; true or false" in lines[2]


def test_a_struct_without_fields_must_be_a_common_one():
    text = GOOD.replace('"type": "[]Topic", "versions": "0+", "about": "The topics.",\n      "fields": '
                                     '[ { "name": "Name", "type": "string", "versions": "0+", "mapKey": true } ] }',
                        '"type": "[]Topic", "versions": "0+" }')
    at = place(text, '"type": "[]Topic')
    assert problems_of(text) == [f"Broken.json:{at}: fields[0].type: Topic has no fields and is no common struct"]

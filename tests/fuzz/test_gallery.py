"""The gallery campaign (fuzz/gallery/): the value maker on a schema of the test's own, the causes
it counts by, the smoke's list of known findings; with Kaitai's gallery (../shared, skipped
without it), a short campaign against the official parser and a smoke run of one format."""

from __future__ import annotations

import json
import random
import shutil

import pytest

from fuzz.gallery import compare as C
from fuzz.gallery import formats as F
from fuzz.gallery import smoke as GS
from fuzz.gallery import values as V
from tests.gallery import leaves

PROBE = """
meta:
  id: maker_probe
  endian: le
  encoding: UTF-8
seq:
  - id: magic
    contents: "MP"
  - id: len_name
    type: u1
  - id: name
    type: str
    size: len_name
  - id: num_items
    type: u2
  - id: items
    type: item
    repeat: expr
    repeat-expr: num_items
  - id: kind
    type: u1
    enum: kinds
  - id: body
    type:
      switch-on: kind
      cases:
        'kinds::small': small
        'kinds::big': big
  - id: extra
    type: u4
    if: kind == kinds::big
  - id: words
    type: u2
    repeat: until
    repeat-until: _ == 0
types:
  item:
    seq:
      - id: len_data
        type: u4
      - id: data
        size: len_data - 1
  small:
    seq:
      - id: x
        type: u1
  big:
    seq:
      - id: y
        type: u8
enums:
  kinds:
    1: small
    2: big
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """The probe schema compiled, with its IR: (schema, module)."""
    from logcodec.generator.compile import compiled_module, load

    folder = tmp_path_factory.mktemp("probe")
    path = folder / "maker_probe.ksy"
    path.write_text(PROBE)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LOGCODEC_SCHEMA_CACHE", str(folder / "cache"))
        module = compiled_module(path)
    (schema,), _ = load([path], "probe", targets=())
    return schema, module


def test_values_meet_the_sizes_counts_cases_and_conditions_they_read(probe):
    schema, module = probe
    maker = V.ValueMaker(schema, {schema.id: module})
    encoded, kinds = [], set()
    for i in range(60):
        value = maker.make(random.Random(i))
        data = module.encode(value)  # an inconsistent value is an EncodeError: the test fails
        assert module.encode(module.decode(data)) == data
        assert len(value.name.encode()) == value.len_name and len(value.items) == value.num_items
        assert all(len(item.data) == item.len_data - 1 for item in value.items)  # solved: len_data = size + 1
        assert (value.extra is not None) == (value.kind == 2) and value.words[-1] == 0
        encoded.append(data)
        kinds.add(type(value.body).__name__ if value.body is not None else None)
    assert len(set(encoded)) > 50, "the values hardly vary"
    assert {"Small", "Big"} <= kinds, f"a switch case is never made: {kinds}"


def test_a_size_that_cannot_be_met_is_unbuildable_not_a_wrong_value(probe):
    schema, module = probe
    maker = V.ValueMaker(schema, {schema.id: module})
    scope = V.Scope(schema.root, module.ROOT(), None)
    scope.done.add("len_name")
    object.__setattr__(scope.obj, "len_name", 3)
    from logcodec.generator import expr as E

    assert maker.solve(E.parse("len_name - 1"), 9, scope) and scope.obj.len_name == 10
    assert not maker.solve(E.parse("len_name * 4"), 9, scope), "9 is no multiple of 4"
    assert not maker.solve(E.parse("len_name"), 300, scope), "a u1 cannot hold 300"
    assert scope.obj.len_name == 10


def test_a_difference_is_counted_by_its_path_without_indices_and_how_it_differs():
    value = leaves.Difference("chunks[3].body.len", "5", "6")
    assert C.cause_of(value) == "chunks[].body.len: int vs int"
    official_raised = leaves.Difference("ifd0.fields[12]", "raised EOFError: requested 4 bytes", "<Field>")
    assert C.cause_of(official_raised) == "ifd0.fields[]: official raised EOFError"
    ours_raised = leaves.Difference("body", "bytes[0] ", "raised DecodeError: truncated at 3")
    assert C.cause_of(ours_raised) == "body: ours raised DecodeError truncated"
    kinds = leaves.Difference("name", "'abc'", "bytes[3] 616263")
    assert C.cause_of(kinds) == "name: str vs bytes"


def test_an_error_in_an_instance_the_official_parser_read_in_part_is_told_apart():
    # dex: `string_ids` (3e9 elements) failed on both sides; the official parser kept what it had read
    # before, and `type_ids[7].type_name` read from it, where logcodec's instance fails again.
    from_other = leaves.Difference("type_ids[7].type_name", "''",
                                   "raised DecodeError: truncated at offset 4 in string_ids: needs 31 bytes")
    assert C.kept_in_part(from_other, [from_other]) == "string_ids"
    # an error in the leaf itself, or an instance the official parser read whole, is a disagreement
    in_itself = leaves.Difference("body", "bytes[2] 0102", "raised DecodeError: truncated at offset 9 in body: x")
    assert C.kept_in_part(in_itself, [in_itself]) is None
    read_whole = leaves.Difference("string_ids", "list[3]", "raised DecodeError: truncated at offset 4 in string_ids: x")
    assert C.kept_in_part(from_other, [from_other, read_whole]) is None


def test_a_listed_smoke_finding_matches_by_format_class_and_detail():
    listed = {"media/x.ksy": [{"class": "offset_outside_input", "detail": "reads 'tag'", "reason": "r"}]}
    finding = {"cls": "offset_outside_input", "detail": "offset None of 9: an expression reads 'tag', which..."}
    assert GS.expected_entry(listed, "media/x.ksy", finding) == "media/x.ksy#0"
    assert GS.expected_entry(listed, "media/y.ksy", finding) is None
    assert GS.expected_entry(listed, "media/x.ksy", {**finding, "cls": "foreign_exception"}) is None
    for name, entries in GS.expected().items():
        assert name.endswith(".ksy") and all(e["class"] and e["detail"] and e["reason"] for e in entries)


needs_gallery = pytest.mark.skipif(F.available() is not None, reason=str(F.available()))


@needs_gallery
@pytest.mark.skipif(not shutil.which("node"), reason="the official compiler runs on node")
def test_a_short_campaign_compares_both_parsers_and_writes_its_summary(tmp_path, capsys):
    from fuzz.gallery.__main__ import main

    assert main(["--inputs", "60", "--format", "udp_datagram", "--out", str(tmp_path)]) == 0
    [summary] = tmp_path.glob("gallery-*/summary.json")
    stats = json.loads(summary.read_text())["formats"]["network/udp_datagram.ksy"]
    made = stats["values"].get("made", 0)
    assert made > 0 and sum(stats["inputs"].values()) == 60 - (sum(stats["values"].values()) - made)
    assert sum(stats["outcomes"].values()) == sum(stats["inputs"].values())
    assert stats["outcomes"].get("same_value", 0) > 0 and stats["outcomes"].get("both_refused", 0) > 0


@needs_gallery
def test_the_smoke_decodes_every_input_of_a_format_or_refuses_it(tmp_path):
    findings = []
    total, _, classes = GS.smoke(1, 1, 10.0, 1024, lambda *a: findings.append(a), names=["network/udp_datagram.ksy"])
    assert total > GS.MUTANTS and not findings
    assert classes[GS.DECODED] > 0 and classes["decode_error"] > 0

"""The plans (`layout.py`, `Model.plan`): the layout facts both back ends read, each defined once."""

import textwrap

from logcodec.generator.passes import model_of
from logcodec.generator.reading import Loader

SCHEMA = """
    meta:
      id: planned
      endian: be
    seq:
      - id: len_body
        type: u2
        -lc-size-of: {from: tag, to: body}
      - id: tag
        type: u1
      - id: len_name
        type: u1
        -lc-size-of: name
      - id: name
        size: len_name
      - id: body
        size: 2
      - id: crc
        type: u4
        -lc-checksum: {algorithm: crc32c, from: tag, to: body}
      - id: high
        type: b4
      - id: mid
        type: b4
      - id: low
        type: b8
      - id: flag
        type: b1le
      - id: tail
        size-eos: true
"""


def plan(tmp_path, text=SCHEMA):
    (tmp_path / "planned.ksy").write_text(textwrap.dedent(text).lstrip())
    schema = Loader(tmp_path, strict=False).load("planned.ksy")
    return model_of(schema).plan(schema.root)


def test_a_bit_run_goes_on_across_whole_bytes_and_ends_where_the_bit_order_changes(tmp_path):
    p = plan(tmp_path)
    assert [[f.id for f in run.fields] for run in p.bit_runs] == [["high", "mid", "low"], ["flag"]]
    first, second = p.bit_runs
    assert (first.endian, first.width, first.padding, first.size) == ("be", 16, 0, 2)
    assert (second.endian, second.width, second.padding, second.size) == ("le", 1, 7, 1)
    assert p.sole_bit_run is None


def test_the_python_codecs_cut_the_same_bits_into_groups_of_whole_bytes(tmp_path):
    groups = plan(tmp_path).bit_groups
    assert [[f.id for f in g.fields] for g in groups] == [["high", "mid"], ["low"], ["flag"]]


def test_a_type_of_bits_alone_is_one_run(tmp_path):
    p = plan(tmp_path, "meta: {id: planned}\nseq:\n  - {id: a, type: b3}\n  - {id: b, type: b13}\n")
    assert [f.id for f in p.sole_bit_run.fields] == ["a", "b"]


def test_each_size_names_the_range_it_measures_and_a_range_ends_at_the_next_field(tmp_path):
    p = plan(tmp_path)
    assert {fid: (r.first, r.last) for fid, r in p.measures.items()} == {
        "len_body": ("tag", "body"), "len_name": ("name", "name")}
    assert [(r.owner.id, r.kind) for r in p.ranges] == [("len_body", "size"), ("crc", "checksum")]
    assert [p.range_end(r) for r in p.ranges] == ["crc", "crc"]
    assert p.range_end(p.measures["len_name"]) == "body"


def test_each_bit_field_of_a_group_has_its_place_in_the_groups_integer(tmp_path):
    """The decoder's shifts and the encoder's read one definition: big-endian bit order fills a
    byte from its top bit, little-endian from its lowest."""
    high_mid, low, flag = plan(tmp_path).bit_groups
    assert [(f.id, at) for f, at in high_mid.bit_positions()] == [("high", 4), ("mid", 0)]
    assert [(f.id, at) for f, at in low.bit_positions()] == [("low", 0)]
    little = plan(tmp_path, "meta: {id: planned, bit-endian: le}\nseq:\n  - {id: a, type: b3}\n  - {id: b, type: b5}\n")
    assert [(f.id, at) for f, at in little.bit_groups[0].bit_positions()] == [("a", 0), ("b", 3)]
    assert [(f.id, at) for f, at in flag.bit_positions()] == [("flag", 0)]

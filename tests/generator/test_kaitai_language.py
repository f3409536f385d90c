"""Parts of Kaitai Struct 0.11's language that the schemas of its format gallery use: each compiled
from a small schema of its own and decoded from bytes made by hand. The values expected are worked
out from the bytes and Kaitai's documentation, and were checked against the official compiler's
Python parsers for the same schemas and bytes (`kaitai-struct-compiler` 0.11)."""

from __future__ import annotations

import textwrap

import pytest

from logcodec.generator import expr as E
from logcodec.generator.compile import load
from logcodec.generator.in_memory import load_modules
from logcodec.generator.problems import SchemaError

from .tiny_schemas import compiled, package_name


def problems(tmp_path, text: str) -> list[str]:
    """The one-line problems of a schema that does not compile (each names the file as given, its
    absolute path: shown here from its folder)."""
    (tmp_path / "user.ksy").write_text(textwrap.dedent(text))
    with pytest.raises(SchemaError) as info:
        load([tmp_path / "user.ksy"], package_name())
    assert all(p.file == str(tmp_path / "user.ksy") for p in info.value.problems)
    return [str(p).removeprefix(f"{tmp_path}/") for p in info.value.problems]


# ---------------------------------------------------------------- float literals


@pytest.mark.parametrize("text,value", [
    ("24000.", 24000.0), (".5", 0.5), ("1.5e3", 1500.0), ("2.", 2.0),
])
def test_a_float_literal_may_end_or_start_with_its_point(text, value):
    got = E.parse(text)
    assert got == E.Num(value) and isinstance(got.value, float)


def test_a_point_after_a_number_or_a_name_is_still_a_member():
    assert E.parse("1.to_s") == E.Attr(E.Num(1), "to_s")
    assert E.parse("a.b * .5") == E.Binary("*", E.Attr(E.Name("a"), "b"), E.Num(0.5))
    assert E.parse("x[0].y") == E.Attr(E.Index(E.Name("x"), E.Num(0)), "y")


def test_float_literals_compute_as_kaitais_python_parsers_write_them(tmp_path):
    # The official compiler prints a float literal as Java's BigDecimal does: `24000.` and
    # `3.25E2` (no digits after the point once the exponent is applied) without a point, so its
    # Python parsers compute `a * 24000.` as an int; its type is still a float's, and `a / 2.`
    # divides (the official parser gives 72000, 325, 1.5, 4500.0 for a = 3).
    _, codec = compiled(tmp_path, """
        meta: {id: user}
        seq: [{id: a, type: u1}]
        instances:
          seconds: {value: 'a * 24000.'}
          whole: {value: '3.25E2'}
          half: {value: 'a * .5'}
          divided: {value: 'a / 2.'}
          scaled: {value: 'a * 1.5e3'}
          one: {value: '1.to_s'}
    """)
    v = codec.decode(bytes([3]))
    got = (v.seconds, v.whole, v.half, v.divided, v.scaled, v.one)
    assert got == (72000, 325, 1.5, 1.5, 4500.0, "1")
    assert [type(x) for x in got] == [int, int, float, float, float, str]


# ---------------------------------------------------------------- enum members YAML reads as booleans


def test_enum_members_that_yaml_reads_as_booleans_are_named_true_and_false(tmp_path):
    # `true`, `false`, `on` and `off` are YAML 1.1 booleans; Kaitai names such a member by its text.
    _, codec = compiled(tmp_path, """
        meta: {id: user}
        seq:
          - {id: deleted, type: u1, enum: state}
          - {id: kept, type: u1, enum: state}
          - {id: mode, type: u1, enum: mode}
        instances:
          is_on: {value: 'mode == mode::true'}
        enums:
          state: {0x2a: true, 0x20: false}
          mode: {0: on, 1: {id: off}}
    """)
    v = codec.decode(bytes([0x2A, 0x20, 0]))
    assert (v.deleted.name, v.kept.name, v.mode.name, v.is_on) == ("true", "false", "true", True)
    assert codec.Mode(1).name == "false"


# ---------------------------------------------------------------- meta of a type


def test_the_encoding_of_a_types_meta_holds_for_its_text_and_the_types_written_in_it(tmp_path):
    _, codec = compiled(tmp_path, """
        meta: {id: user, encoding: ASCII}
        seq:
          - {id: plain, type: str, size: 2}
          - {id: wide, type: wide}
        types:
          wide:
            meta: {encoding: UTF-16LE}
            seq:
              - {id: text, type: str, size: 4}
              - {id: inner, type: inner}
              - {id: own, type: str, size: 2, encoding: Latin-1}
              - {id: ends, type: strz}
            types:
              inner:
                seq: [{id: text, type: str, size: 2}]
    """)
    data = b"hi" + "é€".encode("utf-16-le") + "x".encode("utf-16-le") + "\xe9!".encode("latin-1") + "ok\0".encode(
        "utf-16-le")
    v = codec.decode(data)
    # strz in UTF-16 ends at a zero code unit (two bytes)
    assert (v.plain, v.wide.text, v.wide.inner.text, v.wide.own, v.wide.ends) == ("hi", "é€", "x", "é!", "ok")


def test_text_without_an_encoding_anywhere_names_where_one_may_be_given(tmp_path):
    found = problems(tmp_path, """
        meta: {id: user}
        seq: [{id: a, type: str, size: 2}]
    """)
    assert found == ["user.ksy:3:7: seq[0]: a str field needs an encoding (on the field, or in the meta of its type "
                     "or of a type it is written in)"]


# ---------------------------------------------------------------- fixed sizes


def test_sizeof_a_built_in_type_and_the_fixed_size_of_a_field_after_the_one_that_asks(tmp_path):
    # dbf.ksy's header: its size counts the terminator that follows it.
    _, codec = compiled(tmp_path, """
        meta: {id: user, endian: le}
        seq:
          - {id: head, type: head}
          - {id: body, size: head.len - head._sizeof - terminator._sizeof}
          - {id: terminator, contents: [0x0d]}
        instances:
          four: {value: sizeof<s4>}
          bits: {value: bitsizeof<b3>}
          bytes_of_bits: {value: sizeof<b3>}
          float_size: {value: sizeof<f8>}
        types:
          head:
            seq: [{id: len, type: u1}, {id: reserved, type: u2}]
    """)
    v = codec.decode(bytes([6, 0, 0, 0xAA, 0xBB, 0x0D]))
    assert (v.body, v.four, v.bits, v.bytes_of_bits, v.float_size) == (b"\xaa\xbb", 4, 3, 1, 8)


def test_the_value_of_a_field_after_the_one_that_reads_it_is_refused(tmp_path):
    found = problems(tmp_path, """
        meta: {id: user}
        seq:
          - {id: body, size: len}
          - {id: len, type: u1}
    """)
    assert len(found) == 1 and "seq[0].size: expression reads 'len', which is not a field before it" in found[0]


# ---------------------------------------------------------------- class names


def test_types_and_enums_whose_classes_would_share_a_name_get_their_holders_names(tmp_path):
    # lvm2.ksy's `label_header` and, inside it, `label_header_`; openpgp_message.ksy's enum and
    # type `key_flags`: Kaitai nests their classes, one module holds them side by side.
    _, codec = compiled(tmp_path, """
        meta: {id: user}
        seq:
          - {id: header, type: label_header}
          - {id: flags, type: key_flags}
        types:
          label_header:
            seq:
              - {id: a, type: u1}
              - {id: label_header_, type: label_header_}
            types:
              label_header_:
                seq: [{id: b, type: u1}]
          key_flags:
            seq: [{id: flag, type: u1, enum: key_flags}]
        enums:
          key_flags: {1: certify, 2: sign}
    """)
    v = codec.decode(bytes([1, 2, 2]))
    # (the official parser names the enum and the type KeyFlags in one class: the type's class takes
    # the enum's place, and reading `flag` fails there)
    assert (v.header.a, v.header.label_header_.b, v.flags.flag) == (1, 2, codec.UserKeyFlags.sign)
    assert (type(v.header).__name__, type(v.header.label_header_).__name__) == ("UserLabelHeader",
                                                                                "LabelHeaderLabelHeader")
    assert type(v.flags) is codec.KeyFlags


# ---------------------------------------------------------------- parse instances without pos


UNPLACED = """
    meta: {id: user, endian: le}
    seq:
      - {id: a, type: u1}
      - {id: rest, size: 3, type: holder}
    types:
      holder:
        seq: [{id: x, type: u1}]
        instances:
          after: {type: u2}
          nothing: {size: 0}
          flags: {type: bits_of(x)}
      bits_of:
        params: [{id: v, type: u1}]
        instances:
          low: {value: v & 1}
          here: {value: _io.pos}
"""


def test_an_instance_without_pos_reads_where_its_stream_is_once_the_seq_is_read(tmp_path):
    # holder's stream is its 3 bytes: x, then the first such instance read where x ended, each
    # next one where the last ended, as Kaitai's parser neither seeks nor comes back: `flags`
    # reads nothing, from where its stream is then (`_io.pos` of bits_of).
    _, codec = compiled(tmp_path, UNPLACED)
    v = codec.decode(bytes([9, 1, 0x34, 0x12]))
    assert (v.rest.x, v.rest.after, v.rest.nothing, v.rest.flags.low, v.rest.flags.here) == (1, 0x1234, b"", 1, 3)
    v = codec.decode(bytes([9, 1, 0x34, 0x12]))
    assert (v.rest.flags.here, v.rest.after) == (1, 0x1234)


def test_an_instance_without_pos_that_the_seq_reads_is_refused(tmp_path):
    # Kaitai's parser would read the fields after it from where it ended.
    found = problems(tmp_path, """
        meta: {id: user}
        seq:
          - {id: a, type: u1}
          - {id: b, type: u1, if: two > 0}
        instances:
          two: {type: u1}
    """)
    assert found == ["user.ksy:7:3: instances.two: an instance without `pos` that the seq reads would move the stream "
                     "under the fields after it, as Kaitai's parsers do: not supported (give it a `pos`, `_io.pos` "
                     "for where the seq is)"]


def test_an_instance_without_pos_that_reads_from_a_shared_stream_is_refused(tmp_path):
    # `child` is read inline, in the root's stream: Kaitai's parser reads `y` where the root's
    # seq left that stream (after `b`: 12 of [10, 11, 12]), not where child's seq ended (11).
    found = problems(tmp_path, """
        meta: {id: user}
        seq:
          - {id: child, type: child}
          - {id: b, type: u1}
        types:
          child:
            seq: [{id: x, type: u1}]
            instances:
              y: {type: u1}
              reads_nothing: {type: params_only(x)}
          params_only:
            params: [{id: v, type: u1}]
    """)
    assert found == ["user.ksy:10:7: types.child.instances.y: an instance without `pos` that reads bytes from a stream "
                     "its type shares with others starts wherever other reads left that stream in Kaitai's parsers: "
                     "not supported (give it a `pos`)"]


# ---------------------------------------------------------------- to-string


def test_to_string_is_the_text_of_a_value(tmp_path):
    # tcp_segment.ksy's flags: `str(flags)` is "|ACK|SYN"-like text.
    _, codec = compiled(tmp_path, """
        meta: {id: user}
        seq:
          - {id: a, type: u1}
          - {id: flags, type: flags}
          - {id: items, type: u1, repeat: expr, repeat-expr: 2}
        to-string: '"a=" + a.to_s + " n=" + items.size.to_s'
        types:
          flags:
            seq:
              - {id: x, type: b1}
              - {id: y, type: b7}
            to-string: '(x ? "|X" : "") + "|" + y.to_s + "|" + _parent.a.to_s + "|" + twice.to_s'
            instances:
              twice: {value: y * 2}
    """)
    v = codec.decode(bytes([7, 0x85, 1, 2]))
    assert (str(v), str(v.flags)) == ("a=7 n=2", "|X|5|7|10")


def test_to_string_is_text(tmp_path):
    found = problems(tmp_path, """
        meta: {id: user}
        seq: [{id: a, type: u1}]
        to-string: a + 1
    """)
    assert found == ["user.ksy:4:1: to-string: is a int; text is needed"]


# ---------------------------------------------------------------- types of other schemas, byte orders


def test_a_type_of_another_schema_is_the_root_of_its_own_tree(tmp_path):
    # mach_o_fat.ksy reads mach_o.ksy, whose types read `_root.magic`: mach_o's, as Kaitai's
    # parsers call another schema's type with its stream only.
    _, codec = compiled(tmp_path, """
        meta: {id: user, imports: [other]}
        seq:
          - {id: a, type: u1}
          - {id: inner, type: other}
    """, others={"other.ksy": """
        meta: {id: other}
        seq:
          - {id: a, type: u1}
          - {id: sub, type: sub}
        types:
          sub:
            seq: [{id: b, type: u1, if: _root.a > 0}]
    """})
    v = codec.decode(bytes([0, 5, 7]))
    assert (v.a, v.inner.a, v.inner.sub.b) == (0, 5, 7)
    assert (v.inner._parent, v.inner._root) == (None, None)  # no expression reads a link off a value: none kept


def test_the_members_of_a_type_whose_byte_order_is_chosen_at_run_time(tmp_path):
    # pcap.ksy and elf.ksy read `_root.hdr.snaplen` of such a type.
    _, codec = compiled(tmp_path, """
        meta: {id: user}
        seq:
          - {id: magic, size: 2}
          - {id: header, type: header}
          - {id: body, size: _root.header.len}
        types:
          header:
            meta:
              endian:
                switch-on: _root.magic
                cases: {'[0x49, 0x49]': le, '[0x4d, 0x4d]': be}
            seq: [{id: len, type: u2}]
    """)
    assert codec.decode(b"II\x02\x00ab").body == b"ab"
    assert codec.decode(b"MM\x00\x03abc").body == b"abc"


def test_one_file_reached_by_two_paths_is_one_schema(tmp_path):
    # ipv4_packet.ksy imports /network/protocol_body, which imports /network/ipv4_packet back.
    net = tmp_path / "net"
    net.mkdir()
    (net / "a.ksy").write_text("meta: {id: a, imports: [/net/b]}\nseq: [{id: x, type: u1}, {id: b, type: b}]\n")
    (net / "b.ksy").write_text("meta: {id: b, imports: [/net/a]}\nseq: [{id: y, type: u1}]\n")
    package = package_name()
    _, schemas = load([net / "a.ksy"], package, (str(tmp_path),))
    assert sorted(s.id for s in schemas) == ["a", "b"]
    v = load_modules(schemas)[f"{package}.a"].decode(bytes([1, 2]))
    assert (v.x, v.b.y) == (1, 2)


# ---------------------------------------------------------------- lazy instances read as far as needed


def test_an_instance_reads_the_instances_of_its_expression_only_as_far_as_python_evaluates_it(tmp_path):
    # wav.ksy: `is_form_type_wave: is_riff_chunk and form_type == ...`, where `form_type` fails
    # when the chunk is no RIFF chunk; Kaitai's Python parser never computes it then (`and` stops).
    _, codec = compiled(tmp_path, """
        meta: {id: user}
        seq: [{id: kind, type: u1}, {id: items, type: u1, repeat: expr, repeat-expr: kind}]
        instances:
          has_items: {value: 'kind != 0'}
          first_item: {value: 'items[0]'}
          first_is_seven: {value: 'has_items and first_item == 7'}
          first_or_zero: {value: 'has_items ? first_item : 0'}
          none_or_first: {value: 'not has_items or first_item == 7'}
    """)
    empty = codec.decode(bytes([0]))
    assert (empty.first_is_seven, empty.first_or_zero, empty.none_or_first) == (False, 0, True)
    one = codec.decode(bytes([1, 7]))
    assert (one.first_is_seven, one.first_or_zero, one.none_or_first) == (True, 7, True)

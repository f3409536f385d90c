"""`logcodec compile`: any Kaitai Struct schema in, an importable package out, without the house
rules of schemas/; `logcodec decode --schema` compiles on the fly; malformed schemas are one line."""

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.generator.demo import SCHEMAS

# No docs anywhere, an import from a subfolder, and one through an import folder (-I).
MAIN = """
meta: {id: main, endian: le, imports: [parts/pair, /shared/tag]}
seq:
  - {id: num_pairs, type: u1}
  - {id: pairs, type: pair, repeat: expr, repeat-expr: num_pairs}
  - {id: tag, type: tag}
"""
PAIR = "meta: {id: pair, endian: le}\nseq: [{id: a, type: u2}, {id: b, type: u1}]\n"
TAG = "meta: {id: tag}\nseq: [{id: len_text, type: u1}, {id: text, type: str, size: len_text, encoding: ASCII}]\n"
DATA = bytes.fromhex("02" "0100" "02" "0300" "04" "02" "6f6b")


def run(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "logcodec", *args], capture_output=True, text=True, cwd=cwd,
                          env=env)


def user_schemas(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "src" / "parts").mkdir(parents=True)
    (tmp_path / "lib" / "shared").mkdir(parents=True)
    (tmp_path / "src" / "main.ksy").write_text(MAIN)
    (tmp_path / "src" / "parts" / "pair.ksy").write_text(PAIR)
    (tmp_path / "lib" / "shared" / "tag.ksy").write_text(TAG)
    return tmp_path / "src" / "main.ksy", tmp_path / "lib"


def python_in(folder: Path, code: str) -> str:
    """Run `code` in a fresh interpreter from `folder` (the package is found there, as a user's)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=folder,
                          check=True)
    return done.stdout


def test_a_users_schemas_compile_into_an_importable_package(tmp_path):
    main, lib = user_schemas(tmp_path)
    out = tmp_path / "out"
    done = run("compile", str(main), "-o", str(out), "--package", "acme.codecs", "-I", str(lib))
    assert done.returncode == 0, done.stderr
    package = out / "acme" / "codecs"
    assert sorted(p.name for p in package.glob("*.py")) == [
        "__init__.py", "main.py", "main_compiled.py", "pair.py", "pair_compiled.py", "tag.py", "tag_compiled.py"]
    assert "3 module(s), 7 file(s)" in done.stdout  # the compiled builds' sources are no modules of their own
    got = python_in(out, f"""
        from acme.codecs import main, FORMATS
        value = main.decode(bytes.fromhex({DATA.hex()!r}))
        print([(p.a, p.b) for p in value.pairs], value.tag.text, sorted(FORMATS))
        print(main.encode(value).hex())
    """).splitlines()
    assert got[0] == "[(1, 2), (3, 4)] ok ['acme.codecs.main', 'acme.codecs.pair', 'acme.codecs.tag']"
    assert got[1] == DATA.hex()


def test_compiled_modules_import_nothing_of_logcodec_but_its_runtime(tmp_path):
    main, lib = user_schemas(tmp_path)
    assert run("compile", str(main), "-o", str(tmp_path / "out"), "--package", "acme", "-I", str(lib)).returncode == 0
    for module in (tmp_path / "out" / "acme").glob("*.py"):
        imported = re.findall(r"^(?:from|import) (logcodec[\w.]*)", module.read_text(), re.M)
        assert all(name.startswith("logcodec.runtime") for name in imported), (module.name, imported)


def test_house_rules_only_with_strict(tmp_path):
    main, lib = user_schemas(tmp_path)
    done = run("compile", str(main), "-o", str(tmp_path / "out"), "-I", str(lib), "--strict")
    # Every missing doc of the three schemas (a type and its fields each), a line each, in one run.
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 10, done.stderr
    # Each file named as given: the schema as typed (an absolute path), those it imports by their absolute paths.
    assert all(re.fullmatch(r"logcodec compile: (\S+)\.ksy:\d+:\d+: (seq\[\d\]\.)?doc: "
                            r"every (type|field) needs a `doc` \(house rule of schemas/\)", line) for line in lines), lines
    assert {line.split(".ksy")[0] for line in lines} == {f"logcodec compile: {main.with_suffix('')}",
                                                        f"logcodec compile: {main.parent / 'parts' / 'pair'}",
                                                        f"logcodec compile: {lib / 'shared' / 'tag'}"}


def test_decode_with_a_schema_compiles_once_and_prints_canonical_json(tmp_path):
    main, lib = user_schemas(tmp_path)
    (tmp_path / "data.bin").write_bytes(DATA)
    env = {"LOGCODEC_SCHEMA_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    for _ in range(2):
        done = run("decode", "--schema", str(main), "-I", str(lib), str(tmp_path / "data.bin"), "--compact", env=env)
        assert done.returncode == 0, done.stderr
        doc = json.loads(done.stdout)
        assert doc["pairs"] == [{"a": 1, "b": 2}, {"a": 3, "b": 4}] and doc["tag"]["text"] == "ok"
    assert len([p for p in (tmp_path / "cache").iterdir() if p.is_dir()]) == 1  # compiled once, by content
    cut = run("decode", "--schema", str(main), "-I", str(lib), "--hex", "-", env=env, cwd=tmp_path)
    assert cut.returncode == 1


def test_data_that_does_not_fit_is_a_decode_error_with_kind_offset_and_path(tmp_path):
    main, lib = user_schemas(tmp_path)
    (tmp_path / "cut.bin").write_bytes(DATA[:4])
    env = {"LOGCODEC_SCHEMA_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    done = run("decode", "--schema", str(main), "-I", str(lib), str(tmp_path / "cut.bin"), env=env)
    assert done.returncode == 1
    # Two pairs of 3 bytes are counted before any is read: 6 bytes from offset 1, where 3 are left.
    assert done.stderr.strip() == "logcodec decode: truncated at offset 1 in main.pairs: needs 6 bytes, 3 left"


def test_each_problem_of_a_malformed_schema_is_a_line_naming_its_place_and_the_closest_name(tmp_path):
    bad = tmp_path / "bad.ksy"
    bad.write_text("meta: {id: bad}\nseq: [{id: a, type: u4, siz: 3}]\n")
    done = run("compile", str(bad), "-o", str(tmp_path / "out"))
    assert done.returncode == 1
    assert done.stderr == (f"logcodec compile: {bad}:2:15: seq[0].type: u4 needs a byte order: `u4le`/`u4be`, or "
                           "meta/endian\n"
                           f"logcodec compile: {bad}:2:25: seq[0].siz: unknown key (not in the Kaitai subset logcodec "
                           "implements) (did you mean 'size'?)\n")
    bad.write_text("meta: {id: bad}\nseq: [{id: a, size: 3, process: 'my fx(1)'}]\n")
    done = run("compile", str(bad), "-o", str(tmp_path / "out"))
    assert done.returncode == 1 and "seq[0].process: expected name(args)" in done.stderr


def test_a_processor_of_the_users_own_is_imported_as_kaitais_python_parsers_do(tmp_path):
    (tmp_path / "add_fx.py").write_text(
        "class AddFx:\n"
        "    def __init__(self, key):\n        self.key = key\n"
        "    def decode(self, data):\n        return bytes((b + self.key) & 255 for b in data)\n"
        "    def encode(self, data):\n        return bytes((b - self.key) & 255 for b in data)\n")
    schema = tmp_path / "shifted.ksy"
    schema.write_text("meta: {id: shifted, endian: be}\nseq: [{id: n, size: 2, process: add_fx(1), type: u2be}]\n")
    done = run("compile", str(schema), "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    probe = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
             "from shifted import shifted as m\n"
             "v = m.decode(bytes([0x00, 0xff]))\n"
             "print(v.n, m.encode(v).hex())\n")
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "out"), str(tmp_path)], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(0x0100), "00ff"]  # 00 ff, each byte plus one: 01 00
    # Without the processor's module on the path, importing the codec names it.
    missing = subprocess.run([sys.executable, "-c", probe.replace("sys.argv[2]]", "]"), str(tmp_path / "out")],
                             capture_output=True, text=True)
    assert missing.returncode == 1 and "No module named 'add_fx'" in missing.stderr


def test_the_repositorys_demo_schemas_compile_as_a_users_would(tmp_path):
    schemas = sorted(str(p) for p in (SCHEMAS / "demo").glob("*.ksy"))
    done = run("compile", *schemas, "-o", str(tmp_path), "--package", "demo", "--json-schema", "--strict")
    assert done.returncode == 0, done.stderr
    assert {p.stem for p in (tmp_path / "demo" / "schema").glob("*.value.json")} == {
        Path(s).stem + ".value" for s in schemas}


DEEP = """
meta: {id: deep, endian: le}
seq:
  - {id: pet_1, type: u1, enum: container1::animal}
  - {id: pet_2, type: u1, enum: container1::container2::animal}
  - {id: inner, type: container1::container2}
types:
  container1:
    enums: {animal: {4: dog, 7: cat}}
    types:
      container2:
        seq: [{id: pet, type: u1, enum: animal}]
        enums: {animal: {4: canary, 7: turtle}}
"""


def test_qualified_names_reach_nested_types_and_their_enums(tmp_path):
    (tmp_path / "deep.ksy").write_text(DEEP)
    assert run("compile", str(tmp_path / "deep.ksy"), "-o", str(tmp_path / "out")).returncode == 0
    got = python_in(tmp_path / "out", """
        from deep import deep
        v = deep.decode(bytes([4, 7, 4]))
        print(v.pet_1.name, v.pet_2.name, v.inner.pet.name, type(v.pet_1).__name__, type(v.pet_2).__name__)
    """)
    # Two enums named `animal`: each class is named by its owner too.
    assert got.split() == ["dog", "turtle", "canary", "Container1Animal", "Container2Animal"]


def test_a_byte_order_chosen_at_run_time_holds_for_the_type_and_the_types_inside(tmp_path):
    text = textwrap.dedent("""
        meta: {id: user}
        seq:
          - {id: order, type: u1}
          - {id: body, type: body}
        types:
          body:
            meta: {endian: {switch-on: _parent.order, cases: {1: le, 2: be}}}
            seq: [{id: n, type: u2}, {id: inner, type: inner}]
            types:
              inner: {seq: [{id: m, type: u2}]}
    """)
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        from logcodec.runtime.errors import DecodeError
        from user import user
        for data in (bytes([1, 1, 0, 2, 0]), bytes([2, 1, 0, 2, 0])):
            v = user.decode(data)
            print(v.body.n, v.body.inner.m, user.encode(v) == data)
        try:
            user.decode(bytes([3, 1, 0, 2, 0]))
        except DecodeError as exc:
            print(exc.kind, exc.path)
    """).splitlines()
    assert got == ["1 2 True", "256 512 True", "invalid_value user.body.endian"]  # the switch of meta.endian


def compile_one(tmp_path, text: str, name: str = "user"):
    (tmp_path / f"{name}.ksy").write_text(text)
    return run("compile", str(tmp_path / f"{name}.ksy"), "-o", str(tmp_path / "out"))


def test_names_that_are_python_keywords_get_a_trailing_underscore(tmp_path):
    # Kaitai's compiler writes `global = 1` and `self.class = ...`, which Python refuses (wmf's
    # `not`, sudoers_ts's `global`, openpgp_message's `class`).
    schema = """
meta: {id: kw, endian: le}
seq:
  - {id: class, type: u1, enum: scope}
  - {id: from, type: u1, if: class == scope::global}
instances:
  lambda: {value: 'from + 1', if: class == scope::global}
enums: {scope: {1: global, 2: not}}
"""
    assert compile_one(tmp_path, schema, "kw").returncode == 0
    got = python_in(tmp_path / "out", """
        from kw import kw
        v = kw.decode(bytes([1, 5]))
        print(v.class_.name, v.from_, v.lambda_, kw.encode(v).hex(), kw.Scope.not_.value)
    """)
    assert got.split() == ["global_", "5", "6", "0105", "2"]


TREE = """
meta: {id: tree, endian: le}
seq: [{id: top, type: node}]
types:
  node:
    seq:
      - {id: tag, type: u1}
      - {id: body, type: {switch-on: tag, cases: {1: u2, 2: node_list}}}
  node_list:
    seq:
      - {id: num_items, type: u1}
      - {id: items, type: node, repeat: expr, repeat-expr: num_items}
"""


def test_a_type_that_holds_itself_compiles_and_a_switch_no_case_matches_takes_no_bytes(tmp_path):
    # A node holds a list of nodes (as Python's marshal and Ruby's do); a node whose tag no case
    # matches is its tag alone, as Kaitai reads it, so three of them fit in three bytes.
    assert compile_one(tmp_path, TREE, "tree").returncode == 0
    got = python_in(tmp_path / "out", """
        from tree import tree
        v = tree.decode(bytes([2, 3, 0, 1, 5, 0, 0]))
        print([(n.tag, n.body) for n in v.top.body.items])
        print(len(tree.decode(bytes([2, 3, 0, 0, 0])).top.body.items))
    """).splitlines()
    assert got == ["[(0, None), (1, 5), (0, None)]", "3"]


def test_a_schema_that_imports_from_a_folder_beside_its_own_compiles_alone_from_anywhere(tmp_path):
    # As Kaitai resolves `../common/x`: from the importing file's folder, whatever the working
    # directory; the file is loaded once however it is named (here also `/common/byte` through -I).
    (tmp_path / "formats").mkdir()
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "byte.ksy").write_text("meta: {id: byte}\nseq: [{id: b, type: u1}]\n")
    (tmp_path / "elsewhere").mkdir()
    for imports, args in (("../common/byte", []), ("../common/byte, /common/byte", ["-I", str(tmp_path)])):
        (tmp_path / "formats" / "rel.ksy").write_text(f"meta: {{id: rel, imports: [{imports}]}}\n"
                                                      "seq: [{id: x, type: byte}]\n")
        done = run("compile", str(tmp_path / "formats" / "rel.ksy"), "-o", str(tmp_path / "out"), *args,
                   cwd=tmp_path / "elsewhere")
        assert done.returncode == 0, done.stderr
        assert python_in(tmp_path / "out", "from rel import rel; print(rel.decode(b'\\x07').x.b)") == "7\n"
    repo = Path(__file__).resolve().parents[2]
    done = run("compile", str(repo / "schemas" / "kafka" / "record_batch_v2.ksy"), "-o", str(tmp_path / "kafka"),
               cwd=tmp_path / "elsewhere")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("text,where,what", [
    ("meta: {id: user}\nseq: [{id: a, type: u4}]\n", "seq[0].type", "u4 needs a byte order"),
    ("meta: {id: user, endian: {switch-on: x, cases: {1: little}}}\nseq: [{id: a, type: u1}]\n", "meta.endian.cases.1",
     "a byte order is `le` or `be`, not 'little'"),
    ("meta: {id: user}\nseq: [{id: a, type: str, size: 2, encoding: NOPE}]\n", "seq[0].encoding",
     "unknown encoding 'NOPE'"),
])
def test_what_would_give_wrong_values_is_refused_at_compile_time(tmp_path, text, where, what):
    done = compile_one(tmp_path, text)
    assert done.returncode == 1 and re.search(rf"user\.ksy:\d+:\d+: {re.escape(where)}: ", done.stderr), done.stderr
    assert what in done.stderr, done.stderr


def test_kaitai_semantics_in_a_users_schema(tmp_path):
    # No case for the value: the field is null; a structure may leave bytes of its size unread;
    # bytes after the root value are not read, by decode as by decode_prefix (which says how many
    # it took): the schema does not say that its root fills its input.
    text = """
meta: {id: user, endian: le}
seq:
  - {id: code, type: u1}
  - {id: body, type: {switch-on: code, cases: {1: one}}}
  - {id: boxed, type: one, size: 3}
types:
  one:
    seq: [{id: x, type: u1}]
"""
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        from user import user
        v, used = user.decode_prefix(bytes([2, 9, 8, 7, 0xEE]))
        print(v.body, v.boxed.x, used)
        print(user.decode(bytes([2, 9, 8, 7, 0xEE])) == v, user.FILLS_INPUT)
    """).split()
    assert got == ["None", "9", "4", "True", "False"]


def test_an_imported_schemas_enum_is_imported_from_its_module(tmp_path):
    (tmp_path / "pets.ksy").write_text("meta: {id: pets}\nenums: {animal: {4: dog, 7: cat}}\n")
    done = compile_one(tmp_path, "meta: {id: user, imports: [pets]}\nseq: [{id: pet, type: u1, enum: pets::animal}]\n")
    assert done.returncode == 0, done.stderr
    got = python_in(tmp_path / "out", """
        from user import user, pets
        v = user.decode(bytes([7]))
        print(v.pet.name, v.pet is pets.Animal.cat, user.encode(v).hex())
    """).split()
    assert got == ["cat", "True", "07"]


NAVIGATION = """
meta: {id: user, endian: be}
seq:
  - {id: num_items, type: u1}
  - {id: body, size: 4, type: body}
  - {id: items, type: item, repeat: expr, repeat-expr: num_items}
  - {id: rest, size-eos: true}
instances:
  at_two: {pos: 2, type: u1, repeat: expr, repeat-expr: 2}
  never: {pos: 200, type: u1, if: false}
  from_body: {io: body._io, pos: 1, type: u1}
types:
  body:
    seq: [{id: first, type: u1}]
    instances:
      left: {value: _io.size - _io.pos}
  item:
    seq:
      - {id: x, type: u1, valid: {max: _root.num_items}}
      - {id: extra, type: u1, if: _parent.items.size == 0}  # the list as far as it goes
"""


def test_positional_instances_read_from_any_stream_and_types_see_parent_and_root(tmp_path):
    done = compile_one(tmp_path, NAVIGATION)
    assert done.returncode == 0, done.stderr
    got = python_in(tmp_path / "out", """
        from logcodec.runtime.errors import DecodeError
        from user import user
        v = user.decode(bytes([2, 9, 8, 7, 6, 1, 5, 2]))
        print(v.at_two, v.never, v.from_body, v.body.left, [i.extra for i in v.items])
        try:
            user.decode(bytes([2, 9, 8, 7, 6, 1, 5, 3]))
        except DecodeError as exc:
            print(type(exc).__name__, exc.path)
    """).splitlines()
    # at_two: bytes 2 and 3 of the input; from_body: byte 1 of body's own stream (8);
    # body.left: its 4-byte stream read to 1; extra: only in the first item.
    assert got[0] == "[8, 7] None 8 3 [5, None]"
    assert got[1] == "DecodeError user.items[1].x"  # 3 is above _root.num_items


def test_an_array_of_byte_literals_is_a_byte_array(tmp_path):
    text = "meta: {id: user}\nseq: [{id: a, size: 2}]\ninstances: {lower: {value: 'a < [0x41, 0x43]'}}\n"
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", "from user import user\nprint(user.decode(b'AB').lower, user.decode(b'AD').lower)")
    assert got.split() == ["True", "False"]


BITS = """
meta: {id: user, endian: be}
seq:
  - {id: a, type: b3}
  - {id: b, type: u1}
  - {id: c, type: b12le}
  - {id: d, type: b12le}
  - {id: e, type: b20le}
  - {id: f, type: u2le}
  - {id: inner, type: tail}
  - {id: g, type: u1}
types:
  tail:
    seq: [{id: h, type: b5}]
"""


def test_bit_fields_anywhere_read_as_the_reference_parser_reads_them(tmp_path):
    from logcodec.generator import kaitai
    from logcodec.generator.reading import Loader

    assert compile_one(tmp_path, BITS).returncode == 0
    data = bytes.fromhex("e5" "07" "3412" "a6" "ff0f0a" "0201" "f8" "09")
    got = python_in(tmp_path / "out", f"""
        from user import user
        v = user.decode(bytes.fromhex({data.hex()!r}))
        print(v.a, v.b, v.c, v.d, v.e, v.f, v.inner.h, v.g, user.encode(v).hex())
    """).split()
    schema = Loader(tmp_path, strict=False, package="user").load("user.ksy")
    with kaitai.loaded(kaitai.sources(tmp_path, [schema])) as load:
        from kaitaistruct import BytesIO, KaitaiStream

        t = load("user").User(KaitaiStream(BytesIO(data)))
        assert got[:8] == [str(x) for x in (t.a, t.b, t.c, t.d, t.e, t.f, t.inner.h, t.g)]
    # The bits skipped after a, e and h are written as zeros: not the bytes read, the same value.
    assert got[8] == "e0" "07" "3412" "a6" "ff0f0a" "0201" "f8" "09"


@pytest.mark.parametrize("text,what", [
    ("meta: {id: user}\nseq: [{id: a, type: b3be}, {id: b, type: b5le}]\n", "both bit orders in one byte"),
    ("meta: {id: user}\nseq: [{id: x, type: t}, {id: y, type: b3}]\ntypes: {t: {seq: [{id: a, type: b5}]}}\n",
     "may read the rest of that byte"),
])
def test_bit_layouts_that_would_read_other_values_are_refused(tmp_path, text, what):
    done = compile_one(tmp_path, text)
    assert done.returncode == 1 and what in done.stderr, done.stderr


def test_bits_ending_a_type_read_from_bytes_of_its_own_leave_the_rest_of_the_byte_there(tmp_path):
    """A type ending in part of a byte, read from a sized field: its stream ends with the field,
    so the holder reads on at the next byte, as Kaitai's parsers do (bits_byte_aligned)."""
    text = "meta: {id: user}\nseq: [{id: x, size: 1, type: t}, {id: y, type: b3}]\ntypes: {t: {seq: [{id: a, type: b5}]}}\n"
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        from user import user
        v = user.decode(bytes([0b10101111, 0b11000000]))
        print(v.x.a, v.y)
    """).split()
    assert got == [str(0b10101), str(0b110)]


def test_methods_of_text_bytes_and_lists(tmp_path):
    text = """
meta: {id: user}
seq:
  - {id: digits, size: 4}
  - {id: items, type: u1, repeat: expr, repeat-expr: 3}
instances:
  as_text: {value: 'digits.to_s("ASCII")'}
  as_number: {value: as_text.to_i}
  part: {value: 'as_text.substring(1, 3)'}
  hex_value: {value: 'as_text.to_i(16)'}
  back: {value: as_number.to_s}
  smallest: {value: items.min}
  first_byte: {value: digits.first}
"""
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        from user import user
        import logcodec
        v = user.decode(b"1234" + bytes([5, 2, 9]))
        print(v.as_text, v.as_number, v.part, v.hex_value, v.back, v.smallest, v.first_byte)
        v = user.decode(b"12ab" + bytes(3))  # instances are lazy, as Kaitai's: read when first used
        print(v.hex_value)
        try:
            v.as_number
        except logcodec.DecodeError as exc:
            print(exc.kind, exc.path)
    """).split()
    # Text that is no decimal number is a DecodeError, as any expression failing on the input.
    assert got == ["1234", "1234", "23", "4660", "1234", "2", "49", str(0x12ab), "invalid_value", "as_number"]


def test_value_instances_with_if_and_enum_and_valid_on_bytes(tmp_path):
    text = """
meta: {id: user}
seq:
  - {id: magic, size: 2, valid: '[0x4b, 0x53]'}
  - {id: code, type: u1}
instances:
  big: {value: 'code > 100 ? 1 : 0', if: code != 0}
  kind: {value: code, enum: kinds}
enums:
  kinds: {1: one, 2: two}
"""
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        from user import user
        import logcodec
        print(user.decode(b"KS" + bytes([2])).kind.name, user.decode(b"KS" + bytes([0])).big)
        try:
            user.decode(b"XX" + bytes([1]))
        except logcodec.DecodeError as exc:
            print(exc.kind, exc.path)
    """).split()
    assert got == ["two", "None", "invalid_value", "user.magic"]


def test_a_position_in_a_type_read_inline_counts_from_its_streams_start(tmp_path):
    """Kaitai's `pos` and `_io.pos` are positions in the stream a type is read from: the
    holder's, for a type without a size of its own."""
    holder = "meta: {{id: user}}\nseq: [{{id: a, type: u1}}, {{id: t, type: inner}}]\ntypes:\n  inner:\n    {body}\n"
    body = "instances: {x: {pos: 0, type: u1}, here: {value: _io.pos}}\n    seq: [{id: b, type: u1}]"
    assert compile_one(tmp_path, holder.format(body=body)).returncode == 0
    got = python_in(tmp_path / "out", "from user import user\nv = user.decode(bytes([7, 8]))\nprint(v.t.x, v.t.here)")
    assert got.split() == ["7", "2"]


def test_a_users_params_are_attributes_but_not_part_of_the_value(tmp_path):
    text = """
meta: {id: user}
seq:
  - {id: n, type: u1}
  - {id: inner, type: 'sized(n)'}
types:
  sized:
    params: [{id: len_body, type: u1}]
    seq: [{id: body, size: len_body}]
"""
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        import logcodec
        from user import user
        v = user.decode(bytes([2, 7, 8]))
        print(v.inner.len_body, sorted(logcodec.to_json(v)["inner"]), user.encode(v).hex())
    """).split()
    assert got == ["2", "['body']", "020708"]


def test_decoded_values_know_their_parent_and_root_as_kaitais_objects_do(tmp_path):
    """`_parent` and `_root` of finished values (lists, lazy instances too), where an expression
    reads a link off a value (`_parent._root`, here); another schema's type has neither, unless it
    is that schema's root (its own); none of it is part of the value."""
    (tmp_path / "other.ksy").write_text("meta: {id: other}\nseq: [{id: w, type: leaf}]\ntypes:\n"
                                        "  leaf: {seq: [{id: x, type: u1}]}\n")
    (tmp_path / "fam.ksy").write_text(textwrap.dedent("""
        meta: {id: fam, imports: [other]}
        seq:
          - {id: kid, type: child}
          - {id: kids, type: child, repeat: expr, repeat-expr: 2}
          - {id: theirs, type: other}
          - {id: their_leaf, type: other::leaf}
        instances:
          late: {pos: 0, type: child}
        types:
          child:
            seq: [{id: v, type: u1}]
            instances:
              first_v: {value: _parent._root.kid.v}
    """))
    assert run("compile", str(tmp_path / "fam.ksy"), "-o", str(tmp_path / "out")).returncode == 0
    got = python_in(tmp_path / "out", """
        import logcodec
        from fam import fam
        f = fam.decode(bytes([1, 2, 3, 4, 5]))
        print(f._parent is None, f._root is f, f.kid._parent is f, f.kid._root is f, f.kids[1]._parent is f,
              f.kids[1]._root is f, f.late._parent is f, f.late._root is f, f.late.v,
              f.theirs._parent is None, f.theirs._root is f.theirs, f.theirs.w._parent is f.theirs,
              f.theirs.w._root is f.theirs, f.their_leaf._parent is None, f.their_leaf._root is None,
              "_parent" in str(logcodec.to_json(f)), f == fam.decode(bytes([1, 2, 3, 4, 5])), fam.encode(f).hex())
    """)
    assert got.split() == ["True"] * 8 + ["1"] + ["True"] * 6 + ["False", "True", "0102030405"]


def test_schemas_that_import_each_other_compile_to_modules_that_import_each_other(tmp_path):
    (tmp_path / "ping.ksy").write_text("meta: {id: ping, imports: [pong]}\nseq:\n  - {id: n, type: u1}\n"
                                       "  - {id: next, type: pong, if: n != 0}\n")
    (tmp_path / "pong.ksy").write_text("meta: {id: pong, imports: [ping]}\nseq: [{id: back, type: ping}]\n")
    assert run("compile", str(tmp_path / "ping.ksy"), "-o", str(tmp_path / "out")).returncode == 0
    got = python_in(tmp_path / "out", """
        from ping import ping
        v = ping.decode(bytes([2, 1, 0]))
        print(v.n, v.next.back.n, v.next.back.next.back.n, v.next.back.next.back.next, ping.encode(v).hex())
    """)
    assert got.split() == ["2", "1", "0", "None", "020100"]


@pytest.mark.parametrize("text,where,what", [
    ("meta: {id: user}\nseq: [{id: a, type: u1, if: 5}]\n", "seq[0].if", "a truth value is needed"),
    ("meta: {id: user}\nseq: [{id: a, type: u1, valid: {eq: '\"x\"'}}]\n", "seq[0].valid.eq", "a str where a int"),
    ("meta: {id: user}\nseq: [{id: a, size: 1 == 1}]\n", "seq[0].size", "an integer is needed"),
    ("meta: {id: user}\nseq: [{id: a, type: u1, enum: e}, {id: b, type: u1, if: 'a > e::x'}]\nenums: {e: {1: x}}\n",
     "seq[1].if", "`>` on enums"),
    ("meta: {id: user}\nseq: [{id: a, size: 4, enum: e}]\nenums: {e: {1: x}}\n", "seq[0].enum", "an enum names integers"),
    ("meta: {id: user, ks-version: '99.1'}\n", "meta.ks-version", "logcodec implements 0.11"),
    ("meta: {id: user}\nseq: [{id: a, type: t}, {id: b, type: u}]\ntypes:\n  t: {seq: [{id: c, type: v}]}\n"
     "  u: {seq: [{id: c, type: v}]}\n  v: {seq: [{id: d, size: _parent.c}]}\n", "types.v.seq[0].size",
     "name it with .as<type>"),
])
def test_kaitais_type_rules_refuse_a_schema_naming_the_yaml_path(tmp_path, text, where, what):
    done = compile_one(tmp_path, text)
    assert done.returncode == 1 and re.search(rf"user\.ksy:\d+:\d+: {re.escape(where)}: ", done.stderr), done.stderr
    assert what in done.stderr, done.stderr


def test_a_key_given_twice_is_refused_naming_its_line_and_column(tmp_path):
    done = compile_one(tmp_path, "meta: {id: user}\nseq: [{id: a, type: u1}]\nseq: [{id: b, type: u1}]\n")
    assert done.returncode == 1 and done.stderr.splitlines() == [
        f"logcodec compile: {tmp_path / 'user.ksy'}:3:1: not valid YAML: duplicate key 'seq'"], done.stderr


def test_golden_vectors_beside_a_users_schema_are_made_with_its_codec(tmp_path):
    (tmp_path / "pair.ksy").write_text("meta: {id: pair, endian: be}\nseq:\n  - {id: a, type: u1, valid: {max: 9}}\n"
                                       "  - {id: b, type: u2}\n")
    (tmp_path / "pair.vectors.yaml").write_text(textwrap.dedent("""
        source: Written by hand for this test.
        notes:
          TooBig: {description: a is above its maximum}
        groups:
          - type: basic
            tests:
              - {name: small, value: {a: 1, b: 2}}
              - {name: too_big, from: small, patch: [{offset: 0, hex: "0a"}], error: invalid_value, flags: [TooBig]}
              - {name: cut, bytes: "0100", error: truncated}
    """))
    done = run("compile", str(tmp_path / "pair.ksy"), "-o", str(tmp_path / "out"), "--vectors")
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "out" / "pair" / "vectors" / "pair.json").read_text())
    tests = {t["tcId"]: t for g in doc["testGroups"] for t in g["tests"]}
    assert doc["generator"] == "logcodec compile" and doc["numberOfTests"] == 3
    assert tests["basic/small"]["bytes"] == "010002" and tests["basic/small"]["value"] == {"a": 1, "b": 2}
    assert tests["basic/too_big"]["bytes"] == "0a0002" and tests["basic/too_big"]["error"] == "invalid_value"
    assert tests["basic/cut"]["errorDetail"] == {"offset": 1, "path": "pair.b"}
    # A definition that says what the codec does not do is refused, naming the test.
    (tmp_path / "pair.vectors.yaml").write_text("groups: [{type: basic, tests: [{name: x, bytes: '0100', "
                                                "error: invalid_value}]}]\n")
    done = run("compile", str(tmp_path / "pair.ksy"), "-o", str(tmp_path / "out"), "--vectors")
    assert done.returncode == 1 and "basic/x: expected error 'invalid_value'" in done.stderr


def test_truncation_vectors_are_cut_where_the_fields_start(tmp_path):
    """compile (no Node.js) cuts a base vector where its codec says each field starts, inside
    nested types and repeated elements too, and keeps only the cuts that do not decode; each cut
    is named by the outermost field that starts there (an element is no field: its first one is)."""
    (tmp_path / "msg.ksy").write_text(textwrap.dedent("""
        meta: {id: msg, endian: be}
        seq:
          - {id: kind, type: u1}
          - {id: len_body, type: u2}
          - {id: body, size: len_body, type: body}
        types:
          body:
            seq:
              - {id: num_items, type: u1}
              - {id: items, type: item, repeat: expr, repeat-expr: num_items}
          item:
            seq:
              - {id: v, type: u2}
    """))
    (tmp_path / "msg.vectors.yaml").write_text(textwrap.dedent("""
        groups:
          - type: basic
            tests:
              - {name: two, value: {kind: 7, len_body: 5, body: {num_items: 2, items: [{v: 1}, {v: 2}]}}}
        truncations: {type: truncated, from: [two]}
    """))
    done = run("compile", str(tmp_path / "msg.ksy"), "-o", str(tmp_path / "out"), "--vectors")
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "out" / "msg" / "vectors" / "msg.json").read_text())
    cut = {t["tcId"]: t for g in doc["testGroups"] if g["type"] == "truncated" for t in g["tests"]}
    # 07 0005 02 0001 0002: kind (and the whole input), len_body, body, items (= items[0]), items[1]
    assert sorted(cut) == [f"truncated/two/at-{n}" for n in (0, 1, 3, 4, 6)]
    assert cut["truncated/two/at-3"]["comment"] == "two cut before byte 3, where body starts"
    assert cut["truncated/two/at-6"]["comment"] == "two cut before byte 6, where body.items[1].v starts"
    assert all(t["error"] == "truncated" and t["bytes"] == "07000502000100"[:2 * int(k.rsplit("-", 1)[1])]
               for k, t in cut.items())


def test_compile_writes_docs_whose_links_all_resolve(tmp_path):
    (tmp_path / "pair.ksy").write_text("meta: {id: pair, endian: be}\ndoc: Two numbers.\nseq:\n"
                                       "  - {id: a, type: u1, enum: kind, doc: The kind.}\n  - {id: b, type: inner}\n"
                                       "types:\n  inner: {seq: [{id: c, type: u2}]}\nenums: {kind: {1: one}}\n")
    (tmp_path / "pair.vectors.yaml").write_text("groups: [{type: basic, tests: [{name: x, value: {a: one, b: {c: 2}}}]}]\n")
    done = run("compile", str(tmp_path / "pair.ksy"), "-o", str(tmp_path / "out"), "--docs", "--vectors", "--json-schema")
    assert done.returncode == 0, done.stderr
    docs = tmp_path / "out" / "pair" / "docs"
    page = (docs / "pair" / "pair.html").read_text()
    assert "The kind." in page and "<svg" in page and "logcodec compile" in page and "decode.html" not in page
    broken = []
    for html in docs.rglob("*.html"):
        for href in re.findall(r'href="([^"]*)"', html.read_text()):
            href = href.split("#")[0]
            if href and ":" not in href and not (html.parent / href).resolve().exists():
                broken.append((html.name, href))
    assert not broken
    assert {"pair.html", "pair.ksy"} <= {p.name for p in (docs / "pair").iterdir()} and (docs / "index.html").exists()


def test_a_lazy_instance_that_fails_fails_each_time_it_is_read(tmp_path):
    text = "meta: {id: user}\nseq: [{id: a, size: 2}]\ninstances:\n  n: {value: a.to_s('ASCII').to_i}\n" \
           "  loop: {value: loop + 1}\n"
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        import copy
        from logcodec.runtime.errors import DecodeError
        from user import user
        v = user.decode(b"x1")
        for name in ("n", "n", "loop"):
            try:
                print(getattr(v, name))
            except DecodeError as exc:
                print(exc.kind)
        print(user.decode(b"42").n, copy.deepcopy(user.decode(b"42")).n)
    """).split()
    assert got == ["invalid_value", "invalid_value", "invalid_value", "42", "42"]  # loop reads itself


def test_a_narrow_zigzag_varint_checks_its_width_before_its_table(tmp_path):
    # the encoder takes values in [-8192, 8192) from a table; a width below 14 bits takes only
    # its own range from it, and refuses the rest
    (tmp_path / "zigzag_varint.ksy").write_bytes((Path(__file__).resolve().parents[2] / "schemas" / "common" / "zigzag_varint.ksy").read_bytes())
    text = "meta: {id: user, imports: [zigzag_varint]}\nseq:\n  - {id: narrow, type: zigzag_varint(8)}\n" \
           "  - {id: wide, type: zigzag_varint(32)}\n"
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """
        from user import user
        import logcodec
        for narrow in (-128, 127, 128, -129, 200):
            try:
                print(user.encode(user.User(narrow=narrow, wide=100000)).hex())
            except logcodec.EncodeError as exc:
                print(exc.kind, exc.path)
    """).splitlines()
    # zigzag: -128 -> 255, 127 -> 254 (two bytes each); 100000 -> 200000 (three bytes)
    assert got == ["ff01c09a0c", "fe01c09a0c"] + ["invalid_value user.narrow"] * 3


def test_a_partial_tail_list_in_a_substream_keeps_its_elements_stream_positions(tmp_path):
    """A `repeat: eos` whose last element may be cut short reads its elements from a copy of its
    bytes when more follow them: in a user's schema, an element's `_io.pos` and a positional
    instance still count from the start of the substream (they counted from the copy's start
    minus the substream's offset in the input)."""
    text = textwrap.dedent("""\
        meta: {id: user, endian: le}
        seq:
          - {id: pad, type: u1}
          - {id: len_chunk, type: u1}
          - {id: chunk, size: len_chunk, type: chunk}
          - {id: trailer, type: u1}
        types:
          chunk:
            seq:
              - {id: entries, type: entry, repeat: eos, -lc-partial-tail: true}
              - {id: partial, size-eos: true}
          entry:
            seq:
              - {id: len_data, type: u1}
              - {id: data, size: len_data}
            instances:
              first: {pos: 0, type: u1}
              here: {value: _io.pos}
        """)
    assert compile_one(tmp_path, text).returncode == 0
    got = python_in(tmp_path / "out", """\
        from user import user
        v = user.decode(bytes([9, 5, 1, 0xaa, 2, 0xbb, 0xcc, 0xee]))
        print([(e.first, e.here, e.data.hex()) for e in v.chunk.entries], v.trailer)""")
    assert got.strip() == "[(1, 2, 'aa'), (1, 5, 'bbcc')] 238"

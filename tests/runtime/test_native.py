"""Compiled builds (`logcodec.runtime.native`): which build a module takes, and which it leaves."""

import copy
import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

from logcodec.runtime import native

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypyc") is None, reason="mypyc is not installed")

#: A generated module, as small as one gets: what it says, and the call that swaps its build in.
MODULE = b'SAYS = "pure"\nNATIVE = None\nfrom logcodec.runtime import native as _native\n_native.accelerate(globals())\n'


def write_compiled_source(module_file: Path, says: str) -> None:
    """The source of the module's compiled build, beside it, with the header the generator writes
    (it names the module's source by hash) and a value of its own."""
    sha = hashlib.sha256(module_file.read_bytes()).hexdigest()
    native.compiled_source_file(module_file).write_text(
        f"# The source of the compiled build of {module_file.name} (sha256 {sha}):\nSAYS = {says!r}\n")


def imported(module_file: Path) -> dict:
    """The module's names once imported (its build swapped in, if one fits)."""
    spec = importlib.util.spec_from_file_location(f"tiny.{module_file.stem}", module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return vars(module)


def test_a_build_made_from_one_compiled_source_is_not_used_for_another(tmp_path, monkeypatch):
    # A generator change may alter the compiled source alone, the module's staying as it was.
    module_file = tmp_path / "tiny_codec.py"
    module_file.write_bytes(MODULE)
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "builds"))
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    write_compiled_source(module_file, "compiled before")
    first = native.compile_file("tiny.tiny_codec", module_file, tmp_path / "builds", log=lambda _msg: None)
    assert imported(module_file)["SAYS"] == "compiled before"

    write_compiled_source(module_file, "compiled after")
    assert imported(module_file)["SAYS"] == "pure"  # the build of the other compiled source stays unused
    second = native.compile_file("tiny.tiny_codec", module_file, tmp_path / "builds", log=lambda _msg: None)
    assert second != first
    loaded = imported(module_file)
    assert (loaded["SAYS"], loaded["NATIVE"]) == ("compiled after", str(second))


def test_a_build_the_cache_holds_is_copied_not_compiled_again(tmp_path, monkeypatch):
    # A wheel build (setup.py) takes `logcodec accelerate`'s builds from the cache (`reuse`).
    module_file = tmp_path / "tiny_codec.py"
    module_file.write_bytes(MODULE)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    write_compiled_source(module_file, "compiled once")
    cache, wheel = tmp_path / "cache", tmp_path / "wheel"
    cached = native.compile_file("tiny.tiny_codec", module_file, cache, log=lambda _msg: None)
    said: list[str] = []
    [copied] = native.compile_files([("tiny.tiny_codec", module_file)], wheel, log=said.append, reuse=cache)
    assert copied.parent == wheel and copied.name == cached.name
    assert copied.read_bytes() == cached.read_bytes()
    assert not [m for m in said if m.startswith("compiling")], said  # neither the module nor its C helper
    monkeypatch.setenv(native.DIR_ENV, str(wheel))
    assert imported(module_file)["SAYS"] == "compiled once"

    write_compiled_source(module_file, "compiled twice")  # a build of another source is not taken
    said.clear()
    [made] = native.compile_files([("tiny.tiny_codec", module_file)], wheel, log=said.append, reuse=cache)
    assert made.name != cached.name and [m for m in said if m.startswith("compiling")], said
    assert imported(module_file)["SAYS"] == "compiled twice"


def write_pair_module(package: Path, me: str, other: str) -> None:
    """One of two modules that import each other's names at their end, as the generated modules of
    schemas that import each other do, with its compiled source beside it."""
    body = (f'def who_{me}() -> str:\n    return "{{}} {me}"\n\n\n'
            f'def ask_{other}() -> str:\n    return who_{other}()\n\n\n'
            f"from tinypair.{other} import who_{other}  # noqa: E402\n")
    module_file = package / f"{me}.py"
    module_file.write_text(body.format("pure") + "NATIVE = None\nfrom logcodec.runtime import native as _native\n"
                           "_native.accelerate(globals())\n")
    sha = hashlib.sha256(module_file.read_bytes()).hexdigest()
    native.compiled_source_file(module_file).write_text(
        f"# The source of the compiled build of {module_file.name} (sha256 {sha}):\n" + body.format("compiled"))


def test_modules_that_import_each_other_call_each_others_builds(tmp_path, monkeypatch):
    # The first module's build is loaded while the second is still being imported (its pure names
    # in place): those names are bound again once the second's build is swapped in.
    package = tmp_path / "tinypair"
    package.mkdir()
    (package / "__init__.py").write_text("")
    write_pair_module(package, "a", "b")
    write_pair_module(package, "b", "a")
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "builds"))
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    for me in ("a", "b"):
        native.compile_file(f"tinypair.{me}", package / f"{me}.py", tmp_path / "builds", log=lambda _msg: None)
    for name in [n for n in sys.modules if n.startswith("tinypair")]:
        monkeypatch.delitem(sys.modules, name)
    a = importlib.import_module("tinypair.a")
    b = importlib.import_module("tinypair.b")
    assert (a.NATIVE is not None, b.NATIVE is not None) == (True, True)
    assert (a.ask_b(), b.ask_a()) == ("compiled b", "compiled a")


def test_a_build_lends_a_sibling_only_what_its_module_defines(tmp_path, monkeypatch):
    # Both modules import one runtime function, as every generated module imports `decode_one`;
    # only `a` has a build, whose copy of that function takes a keyword the runtime's lacks.
    # `b`, imported first and without a build, keeps the runtime's.
    package = tmp_path / "tinyshare"
    package.mkdir()
    (package / "__init__.py").write_text("")
    shared = "from logcodec.runtime.stream import ends_at as _ends_at\n"
    a_body = "def who_a() -> str:\n    return '{} a'\n"
    a_file = package / "a.py"
    a_file.write_text(shared + a_body.format("pure") + "NATIVE = None\nfrom logcodec.runtime import native as _native\n"
                      "_native.accelerate(globals())\n")
    sha = hashlib.sha256(a_file.read_bytes()).hexdigest()
    native.compiled_source_file(a_file).write_text(
        f"# The source of the compiled build of a.py (sha256 {sha}):\n" + a_body.format("compiled")
        + "def _ends_at(buf: bytes, pos: int, name: str, extra: int = 0) -> None:\n    pass\n")
    (package / "b.py").write_text(shared + "from tinyshare.a import who_a\n")
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "builds"))
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    native.compile_file("tinyshare.a", a_file, tmp_path / "builds", log=lambda _msg: None)
    for name in [n for n in sys.modules if n.startswith("tinyshare")]:
        monkeypatch.delitem(sys.modules, name)
    b = importlib.import_module("tinyshare.b")  # imports a, whose build is swapped in while b holds its names
    a = sys.modules["tinyshare.a"]
    from logcodec.runtime.stream import ends_at

    assert a.NATIVE is not None and a.who_a() == "compiled a" and a._ends_at is not ends_at
    assert b.who_a is a.who_a  # what a defines: bound again to the build's
    assert b._ends_at is ends_at  # what a imported: the runtime's, not a's build's copy


def test_a_build_decodes_into_the_enum_classes_of_its_module(tmp_path, monkeypatch):
    # The compiled source imports the enums from the module that loads it, never compiles their
    # bodies (mypyc took over 24 GB on dicom's 4,000 tags): a value has the same enum class,
    # whichever build decoded it.
    from logcodec.generator.compile import compile_schemas

    schema = tmp_path / "lamp.ksy"
    schema.write_text("meta: {id: lamp, endian: le}\nseq:\n  - {id: color, type: u1, enum: color}\n"
                      "enums:\n  color: {1: red, 2: green}\n")
    compile_schemas([schema], tmp_path / "out", "tinylamp", ())
    assert "class Color" not in (tmp_path / "out" / "tinylamp" / "lamp_compiled.py").read_text()
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "builds"))
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path / "out"))
    native.compile_file("tinylamp.lamp", tmp_path / "out" / "tinylamp" / "lamp.py", tmp_path / "builds",
                        log=lambda _msg: None)
    lamp = importlib.import_module("tinylamp.lamp")
    assert lamp.NATIVE is not None
    color = lamp.decode(b"\x02").color
    assert type(color) is lamp.Color and color is lamp.Color.green


PAIR = """\
meta: {id: pair, endian: le}
seq:
  - {id: code, type: u1}
  - {id: name, type: strz, encoding: ASCII}
  - {id: body, size: 4, type: inner}
instances:
  is_small: {value: code < 10}
  doubled: {value: 'is_small ? code * 2 : 0'}
  here: {value: _io.pos}
  body_size: {value: body._io.size}
types:
  inner:
    seq:
      - {id: a, type: u1}
"""


def test_a_build_computes_instances_that_read_each_other_as_the_module_does(tmp_path, monkeypatch):
    # Compiled, a lazy instance's function reads its value as its class (its fields in C); an
    # instance it reads that is not computed yet must still reach the class's `__getattr__`:
    # mypyc reads an attribute of a value of its class in C even through `cast(Any, ...)`, where
    # one not set raises (ruby_marshal's packed ints: "attribute 'is_immediate' of 'PackedInt'
    # undefined"). Also what a build makes itself: the entry, `_io`, a one-byte terminator, the
    # bytes a sized structure leaves (carried, written back), a deep copy of a value.
    from logcodec.generator.compile import compile_schemas
    from logcodec.runtime.errors import DecodeError

    schema = tmp_path / "pair.ksy"
    schema.write_text(PAIR)
    compile_schemas([schema], tmp_path / "out", "tinylazy", ())
    monkeypatch.setenv(native.DIR_ENV, str(tmp_path / "builds"))
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path / "out"))
    native.compile_file("tinylazy.pair", tmp_path / "out" / "tinylazy" / "pair.py", tmp_path / "builds",
                        log=lambda _msg: None)
    pair = importlib.import_module("tinylazy.pair")
    assert pair.NATIVE is not None
    data = b"\x05ab\x00\x07xyz"
    value = pair.decode(data + b"rest")
    assert (value.code, value.name, value.body.a) == (5, "ab", 7)
    assert (value.doubled, value.is_small, value.here) == (10, True, 8)  # `doubled` first: it reads `is_small`
    assert pair.decode_prefix(data + b"rest")[1] == 8
    assert pair.encode(value) == data  # the 3 bytes `inner` left, written back
    assert value.body_size == 4  # `_io` of the sized body: the build's own stream class
    copied = copy.deepcopy(value)  # (its stream class is copied as a native class is: made bare, then filled)
    assert copied == value and (copied.body._io.size, copied.body._io.pos) == (4, 1)
    with pytest.raises(DecodeError) as info:
        pair.decode(data[:6])
    assert (info.value.kind, info.value.path) == ("truncated", "pair.body")

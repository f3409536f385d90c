"""The two builds of a codec module (`code.Build`): the module, which runs as Python source, and
the source of its compiled build (`<format>_compiled.py`), which holds only the code the compiled
build runs (zigzag varints computed, list elements read by a call, values made by their class,
the checked encoder's loops). Run as Python, the compiled source decodes every golden vector to
the value the module gives, or fails with the same error, and encodes each value back to the same
bytes: the code of either build can be read and stepped through as it runs."""

import dataclasses
import enum
from pathlib import Path

import pytest

import logcodec
from logcodec.generator.loader import classes_of_module, load_rendered, stand_ins
from logcodec.runtime import native
from logcodec.runtime.errors import DecodeError, EncodeError
from tests.vectorfiles import all_tests, params

FORMATS = sorted({fmt for fmt, _ in all_tests()})


def as_python(name: str, path: Path, names: dict | None = None):
    with stand_ins([name]):  # the module imported stays the process's own
        return load_rendered(name, path.read_text(), str(path), names)


def plain(value):
    """A value as plain data, the same for both builds' classes."""
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, tuple((f.name, plain(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, enum.Enum):
        return (type(value).__name__, value.value)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(v) for v in value])
    return value


def outcome(module, data: bytes, root: dict):
    """What a build makes of bytes (read with the root's params `root`): the value and the bytes it
    encodes back to, or the error."""
    try:
        value = module.decode(data, **root, lazy=False)
    except DecodeError as exc:
        return ("decode error", exc.kind, exc.offset, exc.path, str(exc))
    try:
        return plain(value), module.encode(value, **root)
    except EncodeError as exc:
        return plain(value), ("encode error", exc.kind, exc.path, str(exc))


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_compiled_source_run_as_python_reads_and_writes_the_vectors_as_the_module_does(fmt):
    name = logcodec.codec(fmt).__name__
    module_file = Path(logcodec.codec(fmt).__file__)
    module = as_python(name, module_file)
    compiled = as_python(name, native.compiled_source_file(module_file), classes_of_module(module))
    assert not hasattr(compiled, "_INTERPRETED") and not hasattr(module, "_INTERPRETED")
    vectors = [(bytes.fromhex(t["bytes"]), params(t)) for f, t in all_tests() if f == fmt]
    outcomes = [outcome(module, *vector) for vector in vectors]
    assert [outcome(compiled, *vector) for vector in vectors] == outcomes
    assert any(o[0] != "decode error" for o in outcomes)


def test_the_compiled_source_names_its_module_s_source_by_hash():
    module_file = Path(logcodec.codec("kafka.record_batch_v2").__file__)
    compiled = native.compiled_source_file(module_file).read_text()
    assert f"record_batch_v2.py (sha256 {native.hashlib.sha256(module_file.read_bytes()).hexdigest()})" in compiled

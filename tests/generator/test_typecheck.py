"""Generated modules and the sources of their compiled builds type-check, which is what lets mypyc
compile them (logcodec accelerate)."""

import subprocess
import sys
from pathlib import Path

import pytest

import logcodec
from logcodec.generator.compile import compile_schemas
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.python.code import COMPILED
from logcodec.generator.reading import Loader
from logcodec.runtime import native

from ..gallery import runner as gallery_runner

SCHEMAS = Path(__file__).parent / "schemas"


def test_generated_modules_and_the_demo_schemas_type_check(tmp_path):
    files = [logcodec.codec(name).__file__ for name in logcodec.formats()]
    files = [f if f.endswith(".py") else str(Path(f).with_suffix(".py")) for f in files]
    files += [str(native.compiled_source_file(Path(f))) for f in files]
    for demo in ("feature_tour", "keyed"):  # (keyed: the views' properties, `-lc-keyed`)
        schema = Loader(SCHEMAS).load(f"demo/{demo}.ksy")
        pure, compiled = tmp_path / f"{demo}.py", tmp_path / f"{demo}_compiled.py"
        pure.write_text(ModuleEmitter(schema).render())
        compiled.write_text(ModuleEmitter(schema, COMPILED).render(pure.read_text()))
        files += [str(pure), str(compiled)]
    from logcodec.generated.kafka.messages import fetch_response  # (a message module: tagged fields' views)

    files.append(str(native.source_of(fetch_response)))
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
         "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *files],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_compiled_build_is_used_when_present():
    """With a build of the current source in the cache, the module runs it (CI builds one first)."""
    module = logcodec.codec("kafka.record_batch_v2")
    source = Path(module.__file__ if module.__file__.endswith(".py") else module.__spec__.origin)
    compiled = native.compiled_source_file(source).read_bytes()
    expected = native.find_build(native.build_name(module.__name__, source.read_bytes(), compiled))
    assert (module.NATIVE is not None) == (expected is not None and not native.os.environ.get(native.PURE_ENV))


#: Gallery schemas whose compiled sources once failed to type-check, each for its own reason: a
#: field named `bytes` and carried bytes (gif), switches read as integers (elf), a switch instance
#: (ttf), a repeated switch instance (wav, through riff), conditional instances (msgpack), an
#: optional structure's attribute (bmp), and those below.
GALLERY_SAMPLE = ("image/gif.ksy", "executable/elf.ksy", "font/ttf.ksy", "media/wav.ksy",
                  "serialization/msgpack.ksy", "image/bmp.ksy",
                  # a field `list` (its default made by `list()`), an enum member `name`, a repeated
                  # switch, instances an encoder computes
                  "executable/dex.ksy", "archive/rpm.ksy", "archive/rar.ksy",
                  "macos/resource_compression/dcmp_1.ksy")


@pytest.mark.skipif(not gallery_runner.available(), reason=f"no Kaitai format gallery at {gallery_runner.GALLERY}")
def test_compiled_sources_of_gallery_schemas_type_check(tmp_path):
    """A user's schema compiles with mypyc (`native.build`) only if its compiled source type-checks:
    a few of the gallery's, compiled as `logcodec compile` does, checked by one mypy process."""
    for schema in GALLERY_SAMPLE:
        compile_schemas([gallery_runner.GALLERY / schema], tmp_path, gallery_runner.package_name(schema),
                        (str(gallery_runner.GALLERY),))
    sources = sorted(str(p) for p in tmp_path.rglob("*_compiled.py"))
    assert len(sources) >= len(GALLERY_SAMPLE)
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
         "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *sources],
        capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr

"""Generated modules and the sources of their compiled builds type-check, which is what lets mypyc
compile them (logcodec accelerate)."""

import subprocess
import sys
from pathlib import Path

import logcodec
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.python.code import COMPILED
from logcodec.generator.reading import Loader
from logcodec.runtime import native

SCHEMAS = Path(__file__).parent / "schemas"


def test_generated_modules_and_the_feature_tour_type_check(tmp_path):
    files = [logcodec.codec(name).__file__ for name in logcodec.formats()]
    files = [f if f.endswith(".py") else str(Path(f).with_suffix(".py")) for f in files]
    files += [str(native.compiled_source_file(Path(f))) for f in files]
    schema = Loader(SCHEMAS).load("demo/feature_tour.ksy")
    tour, tour_compiled = tmp_path / "feature_tour.py", tmp_path / "feature_tour_compiled.py"
    tour.write_text(ModuleEmitter(schema).render())
    tour_compiled.write_text(ModuleEmitter(schema, COMPILED).render(tour.read_text()))
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
         "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *files, str(tour), str(tour_compiled)],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_compiled_build_is_used_when_present():
    """With a build of the current source in the cache, the module runs it (CI builds one first)."""
    module = logcodec.codec("kafka.record_batch_v2")
    source = Path(module.__file__ if module.__file__.endswith(".py") else module.__spec__.origin)
    expected = native.find_build(native.build_name(module.__name__, source.read_bytes()))
    assert (module.NATIVE is not None) == (expected is not None and not native.os.environ.get(native.PURE_ENV))

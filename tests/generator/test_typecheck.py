"""Generated modules type-check, which is what lets mypyc compile them (logcodec accelerate)."""

import subprocess
import sys
from pathlib import Path

import logcodec
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.reading import Loader

SCHEMAS = Path(__file__).parent / "schemas"


def test_generated_modules_and_the_feature_tour_type_check(tmp_path):
    files = [logcodec.codec(name).__file__ for name in logcodec.formats()]
    files = [f if f.endswith(".py") else str(Path(f).with_suffix(".py")) for f in files]
    tour = tmp_path / "feature_tour.py"
    tour.write_text(ModuleEmitter(Loader(SCHEMAS).load("demo/feature_tour.ksy")).render())
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
         "--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *files, str(tour)],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_compiled_build_is_used_when_present():
    """With a build of the current source in the cache, the module runs it (CI builds one first)."""
    from logcodec.runtime import native

    module = logcodec.codec("kafka.record_batch_v2")
    source = Path(module.__file__ if module.__file__.endswith(".py") else module.__spec__.origin)
    expected = native.find_build(native.build_name(module.__name__, source.read_bytes()))
    assert (module.NATIVE is not None) == (expected is not None and not native.os.environ.get(native.PURE_ENV))

"""The trace variant (`generator/python/trace.py`) of every schema of Kaitai's own test suite reads
each spec's input as the codec module does: the same value (as canonical JSON) and the same error,
and the canonical JSON of every such value can be written (a user's schema reads instances whose
expressions give other kinds than the ones inferred, and instances of a type inside itself).

Skips without Kaitai's test suite (`../shared/corpus/kaitai_struct_tests`, or $KAITAI_SUITE).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from logcodec.generator.compile import load
from logcodec.generator.in_memory import load_modules
from logcodec.generator.python.trace import trace_module
from logcodec.generator.problems import SchemaError

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.values import to_json

from . import corpus
from .logcodec_impl import FIXTURES

SUITE = Path(os.environ.get("KAITAI_SUITE", corpus.DEFAULT_SUITE))

pytestmark = pytest.mark.skipif(not corpus.available(SUITE), reason=f"no Kaitai test suite at {SUITE}")


def outcome(read) -> tuple:
    """('value', its canonical JSON, bytes read) or ('error', kind, path): a user's schema computes
    some instances when they are first read, so the JSON may meet an error too."""
    try:
        value, used = read()
        return "value", to_json(value), used
    except DecodeError as exc:
        return "error", exc.kind, exc.path


def traced(module, data: bytes):
    got = module.trace(data)
    if got.error is not None:
        raise got.error
    return got.value, got.consumed


def test_the_trace_decoders_read_every_spec_as_the_codecs_do(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))  # the suite's own processors (`my_custom_fx`)
    formats = SUITE / "formats"
    include = (str(formats / "ks_path"), str(SUITE / "import_path"))
    data_dir = corpus.suite_dirs(SUITE)["src"]
    same, differ = 0, []
    for k, spec in enumerate(corpus.load_specs(SUITE)):
        path = formats / f"{spec.id}.ksy"
        if not path.exists():
            continue
        try:
            (named,), schemas = load([path], f"lctrace{k}", include)
            modules = load_modules(schemas)
        except SchemaError:
            continue  # refused (the suite's results say which): nothing to trace
        data = (data_dir / spec.data).read_bytes()
        codec, trace = modules[named.module], modules[trace_module(named.module)]
        expected = outcome(lambda codec=codec: codec.decode_prefix(data))
        if outcome(lambda trace=trace: traced(trace, data)) == expected:
            same += 1
        else:
            differ.append(spec.id)
    assert differ == [] and same >= 300, (same, differ)

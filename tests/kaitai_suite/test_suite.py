"""The suite runner itself: its evaluator, the official adapter on a handful of specs, and
a logcodec run that must complete (no pass rate is asserted for logcodec yet).

Skips without Kaitai's test suite (`../shared/corpus/kaitai_struct_tests`, or
$KAITAI_SUITE) or without the official compiler (node, `npm ci`).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from . import corpus, kexpr
from . import evaluator as E
from . import runner

SUITE = Path(os.environ.get("KAITAI_SUITE", corpus.DEFAULT_SUITE))

# Specs that exercise the evaluator's parts: enums, nested enums through imports, null,
# floats to 6 places, byte-array literals, .to_s, switch casts, integer division and
# modulo, an expected validation error and an expected end of stream with its message.
HANDFUL = ["enum_0", "enum_import_literals", "if_struct", "floating_points", "expr_bytes_ops",
           "switch_manual_int", "expr_int_div", "expr_mod", "valid_fail_eq_int", "eof_exception_u4",
           "str_encodings", "nav_parent_switch_cast"]

needs_suite = pytest.mark.skipif(not corpus.available(SUITE), reason=f"no Kaitai test suite at {SUITE}")


# --- the evaluator, without the suite ------------------------------------------------------

def ev(text, this=None):
    return E.Evaluator(E.Access(), lambda lit: 7).eval(kexpr.parse(text), this)


def test_precedence_is_kaitai_s_not_c_s():
    assert ev("5 & 1 == 1") is True  # (5 & 1) == 1, as in Python
    assert ev("not 1 == 2") is True
    assert ev("1 + 2 * 3 << 1") == 14
    assert ev("true ? 1 : 2 + 3") == 1


def test_integer_semantics():
    assert ev("-7 / 2") == -4 and ev("7 / -2") == -4  # floor division
    assert ev("-7 % 3") == 2 and ev("7 % -3") == -2
    assert ev("0xffff_ffff_ffff_ffff + 1") == 2 ** 64


def test_literals_and_methods():
    assert ev("0.5.as<f4>") == 0.5 and ev("-0.0") == 0.0
    assert ev("[0x10, 0x20].as<bytes>") == b"\x10\x20"
    assert ev('"ab" + \'c\\n\'') == "abc\\n"
    assert ev('"a\\tb"') == "a\tb"
    assert ev("255.to_s") == "255" and ev('"123".to_i') == 123 and ev('"ff".to_i(16)') == 255
    assert ev("[1, 2, 3].last") == 3 and ev('"abc".reverse') == "cba"
    assert ev("0o721") == 0o721 and ev("0b101") == 5
    assert ev("null") is None


def test_equality_is_typed():
    assert E.equal(b"\x01\x02", [1, 2])[0]
    assert E.equal(0.1 + 0.2, 0.3)[0]
    assert not E.equal(0.30001, 0.3)[0]
    assert not E.equal(True, 1)[0]
    assert not E.equal(1, E.EnumConst("e::a", 1))[0]
    assert not E.equal("ab", b"ab")[0]
    assert E.equal(["a", "b"], ["a", "b"])[0] and not E.equal([1], [1, 2])[0]


# --- the official adapter on a handful of specs ----------------------------------------------

@pytest.fixture(scope="module")
def official_run(tmp_path_factory):
    if not corpus.available(SUITE):
        pytest.skip(f"no Kaitai test suite at {SUITE}")
    from . import official
    why = official.available()
    if why:
        pytest.skip(why)
    specs = [s for s in corpus.load_specs(SUITE) if s.id in HANDFUL]
    out = tmp_path_factory.mktemp("kaitai_suite")
    report = runner.run_impl("official", SUITE, specs, out, jobs=2, timeout=30, all_formats=False,
                             formats_err=False, log=lambda m: None)
    return specs, out, report


@needs_suite
def test_official_passes_a_handful(official_run):
    specs, _, report = official_run
    assert len(specs) == len(HANDFUL)
    failed = {r["id"]: (r["status"], r["detail"]) for r in report["specs"] if r["status"] != "pass"}
    assert not failed


def _rerun(official_run, spec):
    _, out, _ = official_run
    task = {"impl": "official", "spec": dataclasses.asdict(spec), "suite": str(SUITE),
            "folder": str(out / "official" / spec.id), "package": None, "timeout": 30}
    return runner.run_spec(task)


@needs_suite
def test_a_wrong_expected_value_fails(official_run):
    specs, _, _ = official_run
    spec = next(s for s in specs if s.id == "enum_0")
    wrong = dataclasses.replace(spec, asserts=[dataclasses.replace(spec.asserts[0], expected="enum_0::animal::dog")])
    r = _rerun(official_run, wrong)
    assert r["status"] == "fail" and "enum_0::animal::dog" in r["detail"]

    spec = next(s for s in specs if s.id == "expr_int_div")
    a = spec.asserts[0]
    r = _rerun(official_run, dataclasses.replace(spec, asserts=[dataclasses.replace(a, expected=f"{a.expected} + 1")]))
    assert r["status"] == "fail"

    spec = next(s for s in specs if s.id == "valid_fail_eq_int")
    r = _rerun(official_run, dataclasses.replace(spec, exception="ValidationLessThanError<u1>"))
    assert r["status"] == "fail" and "ValidationLessThanError" in r["detail"]

    spec = next(s for s in specs if s.id == "eof_exception_u4")
    r = _rerun(official_run, dataclasses.replace(spec, exception_message="requested 9 bytes"))
    assert r["status"] == "fail"


# --- logcodec: whatever compiles runs, and the runner survives it ------------------------------

@needs_suite
def test_logcodec_run_completes(tmp_path):
    specs = [s for s in corpus.load_specs(SUITE) if s.id in HANDFUL]
    report = runner.run_impl("logcodec", SUITE, specs, tmp_path, jobs=2, timeout=30, all_formats=False,
                             formats_err=False, log=lambda m: None)
    assert len(report["specs"]) == len(specs)
    for r in report["specs"]:
        assert r["status"] in runner.STATUSES
        assert "runner error" not in r["detail"], r
    # Serialization: every decoded input is written back byte for byte, or as other bytes of an
    # equal value, or refused by the encoder naming why; never as bytes of another value.
    trips = [r["roundtrip"] for r in report["specs"] if r.get("roundtrip")]
    assert trips and not [t for t in trips if t["result"] in ("wrong", "crash")], trips
    assert report["summary"]["roundtrip"]["decoded"] == len(trips)


# Specs whose schemas reach Kaitai's objects: `_parent` given or withheld, a switch that may
# match nothing (its value then feeds a size), lazy and positional instances, another stream.
FUZZED = ["nav_parent_false", "switch_integers2", "instance_io_user_earlier", "expr_to_i_trailing",
          "process_repeat_usertype_dynarg_xor", "repeat_eos_bits_b4", "term_strz4", "buffered_struct"]


@needs_suite
def test_mutated_inputs_to_user_schemas_raise_only_decode_errors(tmp_path):
    """h11's rule for compiled user schemas: any input is a value or a DecodeError, reading any
    instance of that value too; encoding it back is bytes or an EncodeError."""
    import importlib
    import random
    import sys

    from logcodec.runtime.errors import DecodeError, LogcodecError

    specs = [s for s in corpus.load_specs(SUITE) if s.id in FUZZED]
    report = runner.run_impl("logcodec", SUITE, specs, tmp_path, jobs=2, timeout=30, all_formats=False,
                             formats_err=False, log=lambda m: None)
    assert {r["id"] for r in report["specs"] if r["status"] == "pass"} == set(FUZZED)
    rng, tried = random.Random(7), 0
    src = corpus.suite_dirs(SUITE)["src"]
    for spec in specs:
        sys.path.insert(0, str(tmp_path / "logcodec" / spec.id))
        try:
            module = importlib.import_module(f"kst_{spec.id}.{spec.id}")
            data = (src / spec.data).read_bytes()
            for _ in range(150):
                b = bytearray(data)
                for _ in range(rng.randint(1, 4)):
                    at = rng.randrange(len(b) + 1)
                    if rng.random() < 0.5 and at < len(b):
                        b[at] = rng.randrange(256)
                    elif rng.random() < 0.5:
                        del b[at:]
                    else:
                        b.insert(at, rng.randrange(256))
                tried += 1
                try:
                    value, _ = module.decode_prefix(bytes(b))
                except DecodeError:
                    continue
                for f in dataclasses.fields(value):
                    try:
                        getattr(value, f.name)
                    except DecodeError:
                        pass
                try:
                    module.encode(value)
                except LogcodecError:
                    pass
        finally:
            sys.path.pop(0)
    assert tried == 150 * len(FUZZED)

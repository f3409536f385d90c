"""The construct back end under Kaitai's language test suite (`python -m tests.construct.kaitai_suite`
runs all of it): a few specs of different areas pass, and a spec whose assert is wrong fails."""

import pytest

pytest.importorskip("construct")

from tests.construct import kaitai_suite  # noqa: E402
from tests.kaitai_suite import corpus  # noqa: E402

SUITE = corpus.REPO.parent / "shared" / "corpus" / "kaitai_struct_tests"
pytestmark = pytest.mark.skipif(not corpus.available(SUITE), reason="no Kaitai test suite in ../shared/corpus")

# integers, a switch on an enum, a terminated string, params, a repeat-until, process xor, bits, valid,
# `_parent` of a type two types hold (cast), sizeof<type>, an f-string, pad-right after a terminator
SPECS = ["hello_world", "switch_manual_enum", "term_strz", "params_pass_usertype", "repeat_until_complex",
         "process_xor4_value", "bits_simple", "valid_short", "nav_parent_switch_cast", "expr_sizeof_type_0",
         "expr_fstring_0", "str_pad_term"]


def test_specs_of_several_areas_pass(tmp_path):
    report = kaitai_suite.run(SUITE, None, jobs=4, out=tmp_path, specs=SPECS, log=lambda *a: None)
    statuses = {r["id"]: (r["status"], r["detail"]) for r in report["specs"]}
    assert set(statuses) == set(SPECS)
    assert {k: v for k, v in statuses.items() if v[0] != "pass"} == {}
    # construct builds each value back to the bytes it was parsed from, but for bytes its value
    # leaves unread: the tail of a sized field (construct keeps none; it builds zeros there), and
    # what follows a terminator inside a padded size (pad bytes written where the input has others)
    expected = {**dict.fromkeys(SPECS, "same"), "nav_parent_switch_cast": "other_bytes", "str_pad_term": "other_bytes"}
    assert {r["id"]: r["roundtrip"]["result"] for r in report["specs"]} == expected


def test_a_wrong_expectation_fails(tmp_path, monkeypatch):
    spec = corpus.load_specs(SUITE, "hello_world")[0]
    broken = corpus.Assert(**{**spec.asserts[0].__dict__, "expected": "12345"})
    monkeypatch.setattr(corpus, "load_specs", lambda suite, substring=None: [
        corpus.Spec(**{**spec.__dict__, "asserts": [broken]})])
    report = kaitai_suite.run(SUITE, None, jobs=1, out=tmp_path, log=lambda *a: None)
    assert [r["status"] for r in report["specs"]] == ["fail"]

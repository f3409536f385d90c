"""Every shipped testee runs, and its expected-failure list is exactly true.

This is `logcodec conformance run --impl NAME` for each testee: a listed case
that passes, or an unlisted one that fails, fails the test. On CI every testee
must be runnable; elsewhere a missing runtime (Node, a package) is a skip.
"""

import os

import pytest

from logcodec.conformance import expected, runner
from logcodec.conformance.impls import SHIPPED
from logcodec.conformance.judge import build_cases


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_testee_matches_its_expected_failures(name):
    shipped = SHIPPED[name]
    if shipped.missing():
        if os.environ.get("CI"):
            pytest.fail(f"{name} must run on CI: {shipped.missing()}")
        pytest.skip(shipped.missing())
    verdicts, info = runner.run(list(shipped.command), build_cases())
    assert not info.gave_up, info.gave_up
    bad = expected.apply(expected.load(shipped.expected_failures), verdicts)
    assert [f"{v.outcome} {v.case.id}: {v.detail}" for v in bad] == []
    assert sum(v.outcome == "pass" for v in verdicts) > 0

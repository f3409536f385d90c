"""The tests that share a costly session fixture run on one worker (tests/conftest.py): under
`-n 2 --dist loadgroup`, the way `make test` runs, each of them carries its folder's group in the
id xdist schedules by. Without it each worker builds the wheel and starts Spark for itself, and
CI loses minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED_FIXTURE_GROUPS

TESTS = Path(__file__).parent


def test_each_test_of_a_shared_fixture_folder_is_in_its_group(request):
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not a worker of `pytest -n N --dist loadgroup`")
    grouped = [item for item in request.session.items
               if item.path.is_relative_to(TESTS) and item.path.relative_to(TESTS).parts[0] in SHARED_FIXTURE_GROUPS]
    if not grouped:
        pytest.skip("no test of a shared fixture folder was collected")
    wrong = [item.nodeid for item in grouped
             if not item.nodeid.endswith("@" + SHARED_FIXTURE_GROUPS[item.path.relative_to(TESTS).parts[0]])]
    assert wrong == [], f"{len(wrong)} tests outside their group, e.g. {wrong[:3]}"

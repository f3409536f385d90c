"""Every schema of Kaitai's format gallery compiles, imports and decodes, or is listed in
`expected.yaml` with the stage it stops at and why (`runner.py` says how each is run).

The list is held exactly: a schema that fails unlisted, or at another stage than listed, fails the
test, and so does a listed one that works now (remove it: the list only shrinks). Skips without
the gallery (`../shared/corpus/kaitai_struct_formats`, or $KAITAI_GALLERY).
"""

from __future__ import annotations

import pytest

from . import runner

needs_gallery = pytest.mark.skipif(not runner.available(), reason=f"no Kaitai format gallery at {runner.GALLERY}")


def test_the_expected_list_says_a_stage_and_a_reason_for_each():
    for schema, entry in runner.expected().items():
        assert schema.endswith(".ksy"), schema
        assert entry.get("stage") in runner.STAGES, f"{schema}: stage is one of {runner.STAGES}"
        assert str(entry.get("reason", "")).strip(), f"{schema}: say why it does not work yet"


def test_a_failure_is_told_by_its_first_line():
    reported = "logcodec compile: x.ksy:3:5: seq[0].type: unknown type 'foo'\nlogcodec compile: another\n"
    assert runner.first_line(reported) == "x.ksy:3:5: seq[0].type: unknown type 'foo'"
    crashed = ('Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n    f()\n'
               "RuntimeError: it broke: here is why\nsource that follows\n")
    assert runner.first_line(crashed) == "RuntimeError: it broke: here is why"


@needs_gallery
def test_every_listed_schema_is_in_the_gallery():
    missing = sorted(set(runner.expected()) - set(runner.schemas()))
    assert not missing, f"expected.yaml names schemas the gallery does not have: {missing}"


@needs_gallery
def test_the_gallery_compiles_imports_and_decodes_as_expected():
    outcomes = runner.run()
    listed = runner.expected()
    problems = []
    for o in outcomes:
        entry = listed.get(o.schema)
        if o.stage is None and entry:
            problems.append(f"{o.schema} works now: remove it from expected.yaml")
        elif o.stage and not entry:
            problems.append(f"{o.schema} fails at {o.stage}: {o.error}")
        elif o.stage and entry["stage"] != o.stage:
            problems.append(f"{o.schema} fails at {o.stage}, listed at {entry['stage']}: {o.error}")
    assert not problems, "\n".join(problems) + "\n\n" + runner.table(outcomes)

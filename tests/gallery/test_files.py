"""Real files of the gallery's formats decode as the official compiler's Python parsers read them,
leaf for leaf (`files.py` says how), one test per format; and that encoding the value gives
back the bytes it was read from, or the module says why it may not.

A difference passes only when `files_expected.yaml` lists it (its file, a pattern of its leaf path
and why); a listed pattern that matches nothing fails too, so the list only shrinks. A format whose
schema logcodec does not compile yet (`expected.yaml`) is skipped with that reason, and goes live
when it compiles. Skips without the gallery, node or the official compiler.
"""

from __future__ import annotations

import pytest

from . import files, official

FORMATS = sorted(files.corpus())
needs_official = pytest.mark.skipif(official.available() is not None, reason=str(official.available()))


_RESULTS: dict[str, files.FormatResult] = {}


def run_format(schema: str) -> files.FormatResult:
    """One format's files, compared and encoded, once for both tests of it."""
    if schema not in _RESULTS:
        _RESULTS[schema] = files.run_format(schema, files.corpus()[schema])
    return _RESULTS[schema]


@pytest.fixture(scope="session")
def official_parsers():
    official.compile_schemas(FORMATS)  # every schema in one node process; cached across runs


def test_the_corpus_is_made_by_named_writers():
    entries = files.manifest()
    for schema, paths in files.corpus().items():
        for path in paths:
            entry = entries.get(path.relative_to(files.FILES).as_posix())
            assert entry, f"{path} is not in MANIFEST.yaml"
            assert entry["format"] == schema and entry["writer"] and entry["command"], path
            assert path.stat().st_size <= 256 * 1024, f"{path} is over 256 KiB"
    assert sum(p.stat().st_size for ps in files.corpus().values() for p in ps) < 6_000_000


def test_each_listed_difference_has_a_reason_and_a_file():
    found = files.corpus()
    for schema, listed in files.expected().items():
        names = {p.name for p in found.get(schema, [])}
        for name, entry in listed.items():
            assert name in names, f"files_expected.yaml: {schema} has no file {name}"
            assert entry.get("paths") and str(entry.get("reason", "")).strip(), f"{schema} {name}: paths and reason"


@needs_official
@pytest.mark.parametrize("schema", FORMATS)
def test_real_files_decode_as_the_official_parser_reads_them(schema, official_parsers):
    result = run_format(schema)
    if result.skipped:
        pytest.skip(result.skipped)
    assert all(not f.comparison.truncated for f in result.files), "the walk stopped at MAX_LEAVES"
    assert result.leaves > 0
    problems = files.unexpected(result, files.expected().get(schema, {}))
    assert not problems, "\n".join(problems[:40])


@needs_official
@pytest.mark.parametrize("schema", FORMATS)
def test_real_files_encode_back_or_their_module_says_why(schema, official_parsers):
    """`encode(decode(b))` gives back the bytes the root read, or the module's `encode` says why
    its value may not determine them (a file `decode` refuses has no value); and the value written
    decodes to itself: the encoder writes no other value."""
    result = run_format(schema)
    if result.skipped:
        pytest.skip(result.skipped)
    unexplained = [f"{f.name}: round trip {f.round_trip}" for f in result.files if f.round_trip == "no"]
    other_values = [f"{f.name}: {f.value_back}" for f in result.files if f.value_back.startswith("no")]
    assert not unexplained + other_values, "\n".join(unexplained + other_values)

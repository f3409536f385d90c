"""Real files of the gallery's formats, decoded by logcodec and by the official parser, leaf by leaf.

The corpus is `files/<gallery path without .ksy>/<file>` (`files/image/png/pillow-rgb.png` is a
file of `image/png.ksy`), made by real tools (`make_files.py`; `files/MANIFEST.yaml` says, per
file, its format, its writer and the command that made it). For each format:

1. logcodec compiles the schema as a user does (`runner.compile_command`), once per process;
2. each file is parsed by the official parser (`official.py`) and decoded by the module's plain
   `decode(data, **params)` (params from the manifest when the root has any);
3. `leaves.compare_parse` lists every leaf that differs;
4. the round trip: whether `encode` gives back the bytes the value was read from, or its module
   says why it may not (`round_trips`), and whether the value encoded decodes to itself
   (`value_comes_back`).

`files_expected.yaml` lists the differences known, per format and file: patterns of leaf paths
(`*` for any run of characters) with the reason. The test holds a run to it exactly: an unlisted difference fails, and so
does a listed pattern that no longer matches any (the list only shrinks).

    python -m tests.gallery files [--only NAME...]    # the table, one row per format
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import yaml

from logcodec import DecodeError

from . import leaves, official, runner

FILES = Path(__file__).with_name("files")
MANIFEST = FILES / "MANIFEST.yaml"
EXPECTED = Path(__file__).with_name("files_expected.yaml")
NOT_DATA = {"MANIFEST.yaml", "NOTES.md"}


def manifest() -> dict[str, dict]:
    """{path under files/: {"format", "writer", "command", "params"?}}."""
    if not MANIFEST.is_file():
        return {}
    return yaml.safe_load(MANIFEST.read_text(encoding="utf-8")) or {}


def corpus() -> dict[str, list[Path]]:
    """{gallery schema: its files}, from the folders of files/."""
    found: dict[str, list[Path]] = {}
    for path in sorted(FILES.rglob("*")):
        if path.is_file() and path.name not in NOT_DATA:
            schema = path.parent.relative_to(FILES).as_posix() + ".ksy"
            found.setdefault(schema, []).append(path)
    return found


def expected() -> dict[str, dict[str, dict]]:
    """{schema: {file name: {"paths": [patterns], "reason": ...}}}."""
    if not EXPECTED.is_file():
        return {}
    return yaml.safe_load(EXPECTED.read_text(encoding="utf-8")) or {}


# --- logcodec's side ----------------------------------------------------------------------------

_MODULES: dict[str, ModuleType | str] = {}
_SCRATCH: list[tempfile.TemporaryDirectory] = []


def our_module(schema: str) -> ModuleType | str:
    """The schema compiled by `logcodec compile` and imported (once per process), or the first
    line of what the compile or the import said."""
    if schema in _MODULES:
        return _MODULES[schema]
    if not _SCRATCH:
        _SCRATCH.append(tempfile.TemporaryDirectory(prefix="lc-gallery-files-"))
    scratch = Path(_SCRATCH[0].name)
    out = scratch / runner.package_name(schema)
    proc = subprocess.run(runner.compile_command(schema, out), check=False, capture_output=True, text=True,
                          cwd=scratch, timeout=600)
    if proc.returncode != 0:
        _MODULES[schema] = "compile: " + runner.first_line(proc.stderr or proc.stdout)
        return _MODULES[schema]
    sys.path.insert(0, str(out))
    try:
        _MODULES[schema] = importlib.import_module(
            f"{runner.package_name(schema)}.{runner.schema_id(runner.GALLERY / schema)}")
    except Exception as exc:  # noqa: BLE001 - reported as the import's failure
        _MODULES[schema] = f"import: {type(exc).__name__}: {exc}"
    finally:
        sys.path.remove(str(out))
    return _MODULES[schema]


def round_trips(module: ModuleType, data: bytes, params: dict) -> str:
    """Whether `encode` gives back the bytes the value was decoded from (those the root read:
    Kaitai leaves the rest unread): "yes"; "explained" when not, and the module's `encode` says why
    its value may not determine every byte (padding, unread gaps, instances at positions);
    "refused" when `decode` refuses the file (a DecodeError: there is no value to encode); "no"
    otherwise, or when encoding fails."""
    try:
        value, used = module.decode_prefix(data, **params)
    except DecodeError:
        return "refused"
    except Exception:  # noqa: BLE001 - a crash: the leaf comparison reports it
        return "no"
    try:
        if bytes(module.encode(value, **params)) == data[:used]:
            return "yes"
    except Exception:  # noqa: BLE001 - a refusal or a crash: the bytes did not come back
        return "no"
    return "explained" if "does not determine every byte" in (module.encode.__doc__ or "") else "no"


def value_comes_back(module: ModuleType, data: bytes, params: dict) -> str:
    """The encoder writes no other value (law 3 and 6): `decode(encode(v)) == v` for the value `v`
    decoded from the file (equal seq fields, nested values and lists; instances are not part of
    the value's equality). "yes", "no" (with what failed), or "-" when the file is refused."""
    try:
        value = module.decode_prefix(data, **params)[0]
    except Exception:  # noqa: BLE001 - no value: the leaf comparison judges the refusal
        return "-"
    try:
        again = module.decode_prefix(bytes(module.encode(value, **params)), **params)[0]
    except Exception as exc:  # noqa: BLE001 - the value did not come back
        return f"no: {type(exc).__name__}: {exc}"
    return "yes" if again == value else "no: decodes to another value"


# --- one format ---------------------------------------------------------------------------------

@dataclass
class FileResult:
    name: str
    writer: str
    comparison: leaves.Comparison
    round_trip: str  # round_trips' answer
    value_back: str  # value_comes_back's answer


@dataclass
class FormatResult:
    schema: str
    files: list[FileResult] = field(default_factory=list)
    skipped: str = ""  # why the format was not compared

    @property
    def leaves(self) -> int:
        return sum(f.comparison.leaves for f in self.files)

    @property
    def identical(self) -> int:
        return sum(f.comparison.identical for f in self.files)

    def row(self, count: int) -> str:
        writers = sorted({f.writer.split()[0] for f in self.files if f.writer})
        if self.skipped:
            return f"| {self.schema} | {count} | {', '.join(writers)} | - | - | - | {self.skipped} |"
        pct = 100.0 * self.identical / self.leaves if self.leaves else 100.0
        trips = sum(f.round_trip == "yes" for f in self.files)
        said = [f"{n} {kind}" for kind in ("explained", "refused")
                if (n := sum(f.round_trip == kind for f in self.files))]
        trips_text = f"{trips}/{len(self.files)}" + (f" ({', '.join(said)})" if said else "")
        return (f"| {self.schema} | {len(self.files)} | {', '.join(writers)} | {self.leaves} | "
                f"{pct:.2f} % | {trips_text} | |")


def path_matches(path: str, pattern: str) -> bool:
    """`*` matches any run of characters (an index, a name); every other character itself."""
    return re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), path) is not None


def unexpected(result: FormatResult, listed: dict[str, dict]) -> list[str]:
    """Problems against `files_expected.yaml`: differences not listed, and listed patterns that
    match no difference any more."""
    problems = []
    for f in result.files:
        entry = listed.get(f.name) or {}
        patterns = [str(p) for p in entry.get("paths") or []]
        used = set()
        for diff in f.comparison.differences:
            hits = [p for p in patterns if path_matches(diff.path, p)]
            used.update(hits)
            if not hits:
                problems.append(f"{f.name}: {diff}")
        problems += [f"{f.name}: {p} is listed but no leaf differs there: remove it" for p in patterns
                     if p not in used]
    return problems


def run_format(schema: str, paths: list[Path]) -> FormatResult:
    """Every file of one format, compared; `skipped` says why not when it cannot be."""
    result = FormatResult(schema)
    why = official.available()
    if why:
        result.skipped = why
        return result
    broken = runner.expected().get(schema)
    if broken:
        result.skipped = f"logcodec: {broken['stage']}: {broken['reason']}"
        return result
    try:
        parser = official.parser(schema)
    except official.CompileError as exc:
        result.skipped = f"the official compiler: {exc}"
        return result
    module = our_module(schema)
    if isinstance(module, str):
        result.skipped = f"logcodec: {module}"
        return result
    types = leaves.Types(schema)
    entries = manifest()
    for path in paths:
        entry = entries.get(path.relative_to(FILES).as_posix(), {})
        params = entry.get("params") or {}
        data = path.read_bytes()
        comparison = leaves.compare_parse(parser, module.decode, data, params, types)
        result.files.append(FileResult(path.name, str(entry.get("writer", "")), comparison,
                                       round_trips(module, data, params), value_comes_back(module, data, params)))
    return result


def table(results: list[FormatResult]) -> str:
    found = corpus()
    compared = [r for r in results if not r.skipped]
    leaves_all = sum(r.leaves for r in compared)
    same_all = sum(r.identical for r in compared)
    files_all = sum(len(r.files) for r in compared)
    trips = sum(f.round_trip == "yes" for r in compared for f in r.files)
    explained = sum(f.round_trip == "explained" for r in compared for f in r.files)
    refused = sum(f.round_trip == "refused" for r in compared for f in r.files)
    decoded = [f for r in compared for f in r.files if f.value_back != "-"]
    values_back = sum(f.value_back == "yes" for f in decoded)
    whole = sum(r.identical == r.leaves for r in compared)
    head = (f"{len(results)} formats, {sum(len(found.get(r.schema, [])) for r in results)} files; compared: "
            f"{len(compared)} formats, {files_all} files, {leaves_all} leaves, "
            f"{100.0 * same_all / max(leaves_all, 1):.2f} % identical, {whole} formats 100 % identical, "
            f"round trip {trips}/{files_all} ({explained} more whose encode says why its value may not "
            f"determine every byte, {refused} refused by decode), decode(encode(v)) == v on {values_back}/"
            f"{len(decoded)} decoded")
    lines = [head, "", "| format | files | writers | leaves | identical | round trip | skipped |",
             "|---|---|---|---|---|---|---|"]
    return "\n".join(lines + [r.row(len(found.get(r.schema, []))) for r in results])


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.gallery files", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="formats by gallery path (image/png.ksy) or name (png)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each difference")
    args = parser.parse_args(argv)
    found = corpus()
    names = [s for s in found if not args.only or s in args.only or Path(s).stem in args.only]
    if official.available() is None:
        official.compile_schemas(names)  # all in one node process
    results = []
    for schema in names:
        result = run_format(schema, found[schema])
        results.append(result)
        if args.verbose:
            for f in result.files:
                for diff in f.comparison.differences[:20]:
                    print(f"{schema} {f.name}: {diff}", file=sys.stderr)
                if f.round_trip == "no" or f.value_back.startswith("no"):
                    print(f"{schema} {f.name}: round trip {f.round_trip}, value back {f.value_back}", file=sys.stderr)
    print(table(results))
    return 0

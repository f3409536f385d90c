"""The pipeline's formats implement one written-down protocol (issue 36): `formats.LogFormat` and
the capability bases, checked by the registry; the generic code (data sources, tailing, the
validation job) names no format and reaches one only through the protocol, so that a format it
has never heard of is read, detected and validated as the built-in ones are. Spark-free."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from logcodec._api import FORMAT_PACKAGES  # noqa: E402
from logcodec.pipeline import registry, validate  # noqa: E402
from logcodec.pipeline.formats import CAPABILITIES, Claim, LogFormat, Pushdown, Tailing  # noqa: E402
from logcodec.pipeline.plan import FileRange  # noqa: E402
from logcodec.pipeline.registry import FormatError  # noqa: E402
from logcodec.pipeline.tables import VALIDATION_SCHEMA, error_columns, record_batches, validation_row  # noqa: E402
from tests.laws.test_layout import FORMAT_NAME, _names_and_strings  # noqa: E402

PIPELINE = Path(__file__).resolve().parents[2] / "pipeline"
#: the families whose files are logs, each with its pipeline format (`net`'s packet captures are none)
LOG_FAMILIES = [p for p in FORMAT_PACKAGES if (PIPELINE / p).is_dir()]


# ---------------------------------------------------------------- the built-in formats

def test_each_format_implements_the_protocol_and_says_which_capabilities_it_has():
    built_in = registry.formats()
    assert [f.name for f in built_in] == LOG_FAMILIES == ["kafka", "tank", "inkless"]
    for fmt in built_in:
        assert isinstance(fmt, LogFormat) and registry.problems(type(fmt)) == []
        assert registry.format_named(fmt.name) is fmt
    capabilities = {f.name: {c.__name__ for c in CAPABILITIES if isinstance(f, c)} for f in built_in}
    assert capabilities == {"kafka": {"Pushdown", "Tailing"}, "tank": {"Pushdown", "Tailing"}, "inkless": set()}


def test_a_format_offers_the_generic_code_nothing_but_the_protocol():
    # The objects the generic code is given have no other public member it could reach for.
    protocol = set(LogFormat.__annotations__) | {name for base in (LogFormat, *CAPABILITIES) for name in vars(base)
                                                 if not name.startswith("_")}
    for fmt in registry.formats():
        assert {name for name in vars(type(fmt)) if not name.startswith("_")} <= protocol, fmt.name


def test_each_format_is_a_data_source_with_the_readers_its_capabilities_call_for():
    pytest.importorskip("pyspark")
    from pyspark.sql.datasource import DataSource, DataSourceReader

    from logcodec.pipeline import sources

    assert [s.name() for s in sources.SOURCES] == [f"logcodec.{f.name}" for f in registry.formats()]
    for source, fmt in zip(sources.SOURCES, registry.formats()):
        assert getattr(sources, source.__name__) is source and source.fmt is fmt  # Spark pickles it by name
        reader = source(options={"path": "/nowhere"}).reader(None)
        assert (type(reader).pushFilters is not DataSourceReader.pushFilters) == isinstance(fmt, Pushdown)
        assert (source.streamReader is not DataSource.streamReader) == isinstance(fmt, Tailing)


#: Checked by mypy with the package: each format class can be made (no member left abstract) and is
#: what it declares, with the members' types of the bases it derives from.
TYPED = """
from typing import Any
from logcodec.pipeline import inkless, kafka, tank
from logcodec.pipeline.formats import LogFormat, Pushdown, Tailing

checked: list[LogFormat[Any, Any]] = [kafka.KafkaFormat(), tank.TankFormat(), inkless.InklessFormat()]
pushing: list[Pushdown[Any, Any]] = [kafka.KafkaFormat(), tank.TankFormat()]
tailing: list[Tailing[Any, Any]] = [kafka.KafkaFormat(), tank.TankFormat()]
reveal_type(tank.TankFormat().relocate)
"""
#: Where a format class meets the protocol: a member of another type is an error here.
PROTOCOL_FILES = ("formats.py", "registry.py", "sources.py", "stream.py", *(f"{p}/__init__.py" for p in LOG_FAMILIES))


def test_mypy_finds_each_format_class_of_the_types_its_bases_declare(tmp_path, monkeypatch):
    api = pytest.importorskip("mypy.api")
    # mypy cannot follow the editable install's import hook: a tree of links gives it the package.
    package = tmp_path / "logcodec"
    package.mkdir()
    for entry in (PIPELINE.parent / "logcodec").iterdir():
        (package / entry.name).symlink_to(entry)
    for name in ("pipeline", "generated", "generator", "conformance"):
        (package / name).symlink_to(PIPELINE.parent / name)
    (package / "typed_formats.py").write_text(TYPED)
    monkeypatch.chdir(tmp_path)
    out, err, _ = api.run(["-m", "logcodec.typed_formats", "-p", "logcodec.pipeline", "--ignore-missing-imports",
                           "--follow-imports=silent", "--no-error-summary", "--cache-dir", str(tmp_path / "cache")])
    assert not err
    checked = ("logcodec/typed_formats.py", *(f"logcodec/pipeline/{f}" for f in PROTOCOL_FILES))
    assert [line for line in out.splitlines() if line.startswith(checked) and ": error:" in line] == []
    assert "Revealed type is \"def (r: logcodec.pipeline.tank._planning.SegmentRange)" in out  # it read the package


# ---------------------------------------------------------------- a format of our own

@dataclass(frozen=True)
class ToyOptions:
    path: str
    rows: str = "validation"
    split_bytes: int = 1 << 20
    failfast: bool = False


def _toy_files(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(path.rglob("*.toy"))


def _toy_parse_options(self, options):
    return ToyOptions(options["path"], options.get("rows", "validation"))


def _toy_schema(self, options):
    return VALIDATION_SCHEMA


def _toy_plan(self, options):
    return [[FileRange(str(f), 0, f.stat().st_size)] for f in _toy_files(Path(options.path))]


def _toy_read(self, ranges, options):
    """One entry per file: valid when it starts with TOY."""
    rows = []
    for r in ranges:
        ok = Path(r.path).read_bytes().startswith(b"TOY")
        error = (None,) * 4 if ok else ("invalid_value", r.start, "magic", "no TOY")
        rows.append(validation_row(format="toy", file=r.path, offset=r.start, size=r.size, entry="toy",
                                   status="valid" if ok else "quarantined", **error_columns(error),
                                   record_count=1 if ok else None, reencode="identical" if ok else None))
    return record_batches(rows, VALIDATION_SCHEMA)


def _toy_claim(self, file):
    return Claim.NAME if file.suffix == ".toy" else None


def _toy_check_path(self, path):
    if not _toy_files(path):
        raise ValueError(f"no toys under {path}")


def _toy_listed_files(self, options):
    return {str(f): f.stat().st_size for f in _toy_files(Path(options.path))}


TOY = {"name": "toy", "title": "Toy files", "files": "Toy files (*.toy)", "not_a_log": "not a toy",
       "row_kinds": ("validation",), "parse_options": _toy_parse_options, "schema": _toy_schema, "plan": _toy_plan,
       "read": _toy_read, "claim": _toy_claim, "check_path": _toy_check_path, "listed_files": _toy_listed_files}
TAILING = {"stream_partitions": lambda self, options: {}, "complete_end": lambda self, path, start, state: (start, state),
           "stream_ranges": lambda self, segment, path, start, end, topic, partition, state, options: [],
           "relocate": lambda self, r: r}


def toy_class(*bases: type, drop: tuple[str, ...] = (), **changes) -> type:
    """A format class of TOY's members (and `changes`, without `drop`) on `bases` (LogFormat)."""
    members = {k: v for k, v in {**TOY, **changes}.items() if k not in drop}
    return type("Toy", bases or (LogFormat,), members)


@pytest.fixture
def own_registry(monkeypatch):
    """The registry, with the built-in formats, as it is again after the test."""
    registry.formats()
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    return registry


@pytest.mark.parametrize("make, message", [
    (lambda: toy_class(drop=("read",)), ("it lacks read(ranges, options), which LogFormat requires: The rows of one "
                                         "input partition as Arrow batches of exactly `schema(options)`")),
    (lambda: toy_class(Tailing, **{k: v for k, v in TAILING.items() if k != "relocate"}),
     "it lacks relocate(r), which Tailing requires"),
    (lambda: toy_class(Pushdown, push=lambda self, options: (options, [])),
     "push takes (options), where Pushdown declares (options, filters)"),
    (lambda: toy_class(plan=lambda self, options, partitions: []),
     "plan takes (options, partitions), where LogFormat declares (options)"),
    (lambda: toy_class(read=None), "read must be a method (LogFormat.read), not None"),
    (lambda: toy_class(drop=("title",)), "title must be a str (LogFormat.title), not None"),
    (lambda: toy_class(row_kinds=("record",)), "row_kinds must offer 'validation'"),
    (lambda: toy_class(name="toy format"), "name 'toy format' must be an identifier"),
    (lambda: type("Toy", (), TOY), "is not a class derived from LogFormat"),
    (lambda: toy_class(name="kafka"), "the name 'kafka' is taken by KafkaFormat"),
])
def test_a_format_class_that_does_not_implement_the_protocol_is_refused(own_registry, make, message):
    before = registry.formats()
    with pytest.raises(FormatError, match=re.escape(message)):
        registry.register_format(make())
    assert registry.formats() == before


def test_a_format_the_generic_code_never_heard_of_is_detected_checked_and_validated(own_registry, tmp_path):
    toy = registry.register_format(toy_class(Tailing, **TAILING))
    assert registry.format_named("toy") is toy and registry.problems(type(toy)) == []
    toys = tmp_path / "toys"
    (toys / "deep").mkdir(parents=True)
    (toys / "a.toy").write_bytes(b"TOY one")
    (toys / "deep" / "b.toy").write_bytes(b"broken!!")
    (toys / "c.log").write_bytes(b"")  # a file the Kafka reader would read, for want of anything better
    assert validate.detect_format(toys) == validate.check_path(toys, "auto") == validate.check_path(toys, "toy") == "toy"
    rows, summary = validate.validate_local(toys)
    assert [(Path(r["file"]).name, r["status"]) for r in rows] == [("a.toy", "valid"), ("b.toy", "quarantined")]
    b = summary["total"]["bytes"]
    assert (b["file"], b["valid"], b["quarantined"]) == (15, 7, 8) and summary["total"]["errors"] == {"invalid_value": 1}
    assert validate.format_table(summary).startswith(f"Toy files under {toys}")
    (tmp_path / "empty").mkdir()
    with pytest.raises(validate.UsageError, match="no toys under"):
        validate.check_path(tmp_path / "empty", "toy")
    (toys / "c.metadata.json").write_bytes(b"{}")  # an Inkless sidecar
    with pytest.raises(validate.UsageError, match=r"holds Inkless objects \(.*\) and Toy files"):
        validate.detect_format(toys)


# ---------------------------------------------------------------- the generic code

def generic_modules() -> list[Path]:
    """The pipeline's modules but the formats' packages."""
    return [p for p in sorted(PIPELINE.rglob("*.py")) if p.relative_to(PIPELINE).parts[0] not in FORMAT_PACKAGES]


def test_the_generic_modules_name_no_format():
    found = [f"{path.relative_to(PIPELINE)}:{line}: {text[:80]!r}" for path in generic_modules()
             for line, text in _names_and_strings(ast.parse(path.read_text())) if FORMAT_NAME.search(text)]
    assert found == []


def test_the_generic_modules_never_ask_a_format_whether_it_has_a_member():
    # A capability is a base the format derives from (`isinstance(fmt, Tailing)`), not an attribute.
    found = [f"{path.relative_to(PIPELINE)}:{node.lineno}: {ast.unparse(node)}" for path in generic_modules()
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id in ("getattr", "hasattr") and "fmt" in ast.unparse(node.args[0])]
    assert found == []


def _module_imports(path: Path) -> set[str]:
    """The `logcodec.pipeline` modules a module imports when it is imported (not in functions)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found |= {f"{base}.{alias.name}" if base.startswith("logcodec.pipeline") and _exists(f"{base}.{alias.name}")
                      else base for alias in node.names}
    return {m for m in found if m.startswith("logcodec.pipeline") and m != name}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PIPELINE).with_suffix("").parts
    return ".".join(("logcodec", "pipeline", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _exists(module: str) -> bool:
    relative = Path(*module.split(".")[2:])
    return (PIPELINE / relative).with_suffix(".py").is_file() or (PIPELINE / relative / "__init__.py").is_file()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph {module: modules it imports}, each once (depth first)."""
    found, done = [], set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return found


def test_the_pipeline_imports_no_module_that_imports_it_back():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]  # the check finds one
    graph = {_module_name(p): _module_imports(p) for p in sorted(PIPELINE.rglob("*.py"))}
    assert graph["logcodec.pipeline.sources"] >= {"logcodec.pipeline.registry", "logcodec.pipeline.formats"}
    assert cycles(graph) == []

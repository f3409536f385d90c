"""Kaitai Struct's test suite on disk: its specs, schemas, enums and feature areas."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import kexpr

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SUITE = (REPO / ".." / "shared" / "corpus" / "kaitai_struct_tests").resolve()


def suite_dirs(suite: Path) -> dict[str, Path]:
    """The suite's folders; `import_dirs` as Kaitai's CI passes them (`formats/ks_path`
    for `/for_abs_imports/...`, the gallery copy for `/common/vlq_base128_le`)."""
    return {"formats": suite / "formats", "src": suite / "src", "specs": suite / "spec" / "ks",
            "formats_err": suite / "formats_err",
            "import_dirs": [suite / "formats" / "ks_path", suite / "import_path"]}


def available(suite: Path) -> bool:
    return (suite / "spec" / "ks").is_dir() and (suite / "formats").is_dir()


class StrictLoader(yaml.SafeLoader):
    """YAML as Kaitai's compilers read it: a duplicate key is an error (PyYAML keeps the last)."""


def _no_duplicates(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:
            continue  # PyYAML's construct_mapping refuses it below ("found unhashable key")
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"found duplicate key {key}", key_node.start_mark)
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def load_yaml(path: Path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=StrictLoader)


@dataclass
class Assert:
    actual: str
    expected: object = None  # the YAML value (an expression, or an int/float/bool YAML gave us)
    exception: str | None = None  # `exception:` on the assert: evaluating `actual` must raise it


@dataclass
class Spec:
    id: str
    data: str
    asserts: list[Assert] = field(default_factory=list)
    exception: str | None = None  # the parse must raise this (type name as the suite writes it)
    exception_message: str | None = None
    imports: list[str] = field(default_factory=list)
    path: str | None = None
    #: A debug-mode spec's `# exception: X` comment: the parse raises X, and the asserts
    #: judge what was read before it (the suite's hand-written specs do this; `.kst` cannot).
    partial_exception: str | None = None

    @property
    def area(self) -> str:
        return feature_area(self.id)


def load_spec(path: Path) -> Spec:
    doc = load_yaml(path)
    exc = doc.get("exception")
    message = None
    if isinstance(exc, dict):
        exc, message = exc.get("type"), exc.get("message")
    asserts = []
    for a in doc.get("asserts") or []:
        asserts.append(Assert(str(a["actual"]), a.get("expected"), a.get("exception")))
    commented = re.search(r"^#\s*exception:\s*(\S+)\s*$", path.read_text(encoding="utf-8"), re.M)
    partial = commented.group(1) if commented and not exc and asserts else None
    return Spec(str(doc["id"]), str(doc["data"]), asserts, exc, message, list(doc.get("imports") or []),
                str(path), partial)


def load_specs(suite: Path, substring: str | None = None) -> list[Spec]:
    specs = [load_spec(p) for p in sorted(suite_dirs(suite)["specs"].glob("*.kst"))]
    return [s for s in specs if not substring or substring in s.id]


# --- feature areas ------------------------------------------------------------------------

#: (area, pattern on the spec id), first match wins.
AREAS = [
    ("eof/eos errors", r"eof_exception_|eos_exception_"),
    ("valid", r"valid_|fixed_contents"),
    ("bits", r"bits_|repeat_eos_bits_"),
    ("process", r"process_|zlib_"),
    ("repeat", r"repeat_"),
    ("switch", r"switch_"),
    ("enum", r"enum_"),
    ("imports", r"imports|nested_types_import|name_clash_import|opaque_external_type|cast_to_imported"),
    ("params", r"params_|index_to_param|nested_type_param"),
    ("nav", r"nav_|recursive_one"),
    ("instance", r"instance_|if_instances"),
    ("pos/io", r"position_|expr_io_|io_local_var|buffered_struct|instance_io"),
    ("str", r"str_|term_strz|valid_eq_str"),
    ("bytes/term", r"bytes_|term_|struct_pad_term"),
    ("expr", r"expr_|type_|combine_|js_signed|float_to_i|cast_|index_sizes"),
    ("integers/floats", r"integers|floating_points|bcd_|yaml_ints"),
    ("endian", r"default_"),
    ("debug", r"debug_"),
    ("if", r"if_"),
    ("nested types", r"nested_"),
    ("misc", r".*"),
]


def feature_area(spec_id: str) -> str:
    for area, pattern in AREAS:
        if re.match(pattern, spec_id):
            return area
    return "misc"


# --- schemas: by meta/id, and their enums (for enum literals in `expected`) ---------------

class SchemaIndex:
    """Every schema of the suite by `meta/id` (formats/, its subfolders, the import folders)."""

    def __init__(self, suite: Path) -> None:
        self.by_id: dict[str, dict] = {}
        dirs = suite_dirs(suite)
        for root in [dirs["formats"], *dirs["import_dirs"]]:
            for path in sorted(root.rglob("*.ksy")):
                try:
                    doc = load_yaml(path)
                except yaml.YAMLError:
                    continue
                mid = ((doc or {}).get("meta") or {}).get("id")
                if mid and mid not in self.by_id:
                    self.by_id[mid] = doc

    def enum_value(self, lit: kexpr.EnumByLabel, context: str) -> int:
        """The integer of `type::path::enum::label`; a path that starts with no schema id is
        looked up from the spec's root type (`context`)."""
        path = list(lit.type_path)
        if path and path[0] in self.by_id:
            node, rest = self.by_id[path[0]], path[1:]
        else:
            node, rest = self.by_id[context], path
        for name in rest:
            node = (node.get("types") or {})[name]
        enum = (node.get("enums") or {})[lit.enum]
        for key, val in enum.items():
            label = val.get("id") if isinstance(val, dict) else val
            if label == lit.label:
                return int(key)
        raise KeyError(f"{lit.text()}: no such label")


def expected_error(path: Path) -> tuple[str | None, str | None]:
    """What the comment at the top of a `formats_err/` schema expects: (the YAML path such as
    `/seq/0/id`, or the YAML position `6:8`; "error" or "warning"). (None, None) for a
    helper schema (no such comment); ("?", "error") for `# ?` (refusal expected, no text)."""
    lines = path.read_text(encoding="utf-8").splitlines()[:2] + ["", ""]
    m = re.match(r"#\s*\S+\.ksy:\s*(\S+?):?\s*$", lines[0])
    if m:
        return m.group(1), "warning" if re.match(r"#\s*warning:", lines[1]) else "error"
    if lines[0].strip() == "# ?":
        return "?", "error"
    return None, None

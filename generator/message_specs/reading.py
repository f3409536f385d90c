"""Reading Kafka's JSON message specs into their IR (`spec.py`), with every problem placed.

A spec file is JSON with `//` line comments, as Kafka's generator reads it (Jackson with comments
allowed). The comments are blanked out, keeping every other character where it was, and the rest
is read as YAML (JSON is YAML), which gives each JSON path its line and column
(`problems.read_yaml`): a problem is `file:line:column: fields[3].versions: text`, as for a
`.ksy` schema. A key given twice in one object is a warning, not an error: Kafka's reader takes
the last one, and two of Kafka's own files give a field's `versions` twice (the same value).

The loader goes on past a problem wherever it can, so that one run reports all of them.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..problems import (
    ERROR,
    WARNING,
    Marks,
    Problem,
    SchemaError,
    errors,
    in_order,
    problem,
    read_yaml,
    yaml_problem,
    yaml_text,
)
from .spec import (
    FIELD_NAME,
    PRIMITIVES,
    STRUCT_NAME,
    FieldSpec,
    FieldType,
    MessageSpec,
    StructSpec,
    Versions,
)

KINDS = ("request", "response", "header", "data")
#: The keys of a message, and those it must have (`apiKey` too for a request or response).
MESSAGE_KEYS = frozenset({"apiKey", "type", "name", "validVersions", "flexibleVersions", "deprecatedVersions",
                          "latestVersionUnstable", "listeners", "fields", "commonStructs"})
MESSAGE_NEEDS = ("type", "name", "validVersions", "flexibleVersions", "fields")
FIELD_KEYS = frozenset({"name", "type", "versions", "about", "nullableVersions", "taggedVersions", "tag", "default",
                        "ignorable", "mapKey", "entityType", "zeroCopy", "flexibleVersions", "fields"})
FIELD_NEEDS = ("name", "type", "versions")
STRUCT_KEYS = frozenset({"name", "versions", "fields"})
#: A 16-bit API key, as the protocol's headers carry it.
API_KEYS = range(1 << 15)


def blank_comments(text: str) -> str:
    """`text` with each `//` comment outside a string replaced by spaces: what is left is JSON,
    every character at its place."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                out.append(text[i:i + 2])
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        out.append(c)
        i += 1
    return "".join(out)


class SpecReader:
    """Reads the spec files of one folder (`read_file`, `read_folder`), gathering `problems`."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.file = ""
        self.marks = Marks()

    # ---------------------------------------------------------------- files

    def read_folder(self, folder: Path) -> list[MessageSpec]:
        """Every `*.json` spec of `folder`, in name order; SchemaError naming all their problems
        when one has an error."""
        specs = [spec for path in sorted(Path(folder).glob("*.json"))
                 if (spec := self.read_file(path.read_bytes(), path.name)) is not None]
        if errors(self.problems):
            raise SchemaError(in_order(self.problems))
        return specs

    def read_file(self, data: bytes, file: str) -> MessageSpec | None:
        """The spec in `data` (the file `file`), or None when it cannot be read as one."""
        self.file = file
        try:
            text = blank_comments(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            self.problems.append(Problem(ERROR, file, None, None, None, f"is not UTF-8 text: {exc.reason}"))
            return None
        repeats: list[tuple[int, int, str]] = []
        try:
            doc, self.marks = read_yaml(text.encode(), repeats)
        except yaml.YAMLError as exc:
            line, column, what = yaml_problem(exc, text.encode())
            self.problems.append(Problem(ERROR, file, line, column, None, f"is not JSON: {what}"))
            return None
        for line, column, key in repeats:
            self.problems.append(Problem(WARNING, file, line, column, None, f"{key!r} is given twice; the last one counts"))
        if not isinstance(doc, dict):
            self.error("", "a message spec is a JSON object")
            return None
        return self.message(doc)

    def error(self, path: str, text: str, severity: str = ERROR) -> None:
        self.problems.append(problem(self.marks, self.file, path, text, severity))

    # ---------------------------------------------------------------- a message

    def message(self, doc: dict) -> MessageSpec | None:
        self.unknown_keys(doc, "", MESSAGE_KEYS, "a message")
        missing = [k for k in MESSAGE_NEEDS if k not in doc]
        kind = doc.get("type")
        if kind in ("request", "response") and "apiKey" not in doc:
            missing.append("apiKey")
        if missing:
            self.error("", f"a message needs {', '.join(missing)}")
            return None
        if kind not in KINDS:
            self.error("type", f"is {yaml_text(kind)}; a message is one of {', '.join(KINDS)}")
            return None
        name = self.text(doc, "name", "")
        if name is not None and not STRUCT_NAME.match(name):
            self.error("name", f"{name!r} is no message name (an upper camel case word)")
        api_key = doc.get("apiKey")
        if api_key is not None and (type(api_key) is not int or api_key not in API_KEYS):
            self.error("apiKey", f"is {yaml_text(api_key)}; an API key is a whole number from 0 to 32767")
        valid = self.versions(doc, "validVersions")
        flexible = self.versions(doc, "flexibleVersions")
        if valid is None or flexible is None or name is None:
            return None
        if valid.empty:
            self.error("validVersions", "is 'none'; a message has at least one version")
        elif valid.high is None and kind in ("request", "response"):
            self.error("validVersions", f"is {str(valid)!r}; a request or response has a closed range (0-3)")
        if flexible.high is not None:  # (Kafka's generator refuses it too: a version stays flexible)
            self.error("flexibleVersions", f"is {str(flexible)!r}; flexible versions are none or open-ended (3+)")
        fields = self.fields(doc["fields"], "fields", flexible)
        structs = self.common_structs(doc.get("commonStructs", []), flexible)
        self.check_struct_names(fields, structs)
        listeners = doc.get("listeners", [])
        if not isinstance(listeners, list) or not all(isinstance(x, str) for x in listeners):
            self.error("listeners", "is a list of listener names")
            listeners = []
        unstable = doc.get("latestVersionUnstable", False)
        if not isinstance(unstable, bool):
            self.error("latestVersionUnstable", f"is {yaml_text(unstable)}; true or false")
        return MessageSpec(file=self.file, name=name, kind=kind, valid_versions=valid, flexible_versions=flexible,
                           fields=fields, api_key=api_key if type(api_key) is int else None,
                           deprecated_versions=self.versions(doc, "deprecatedVersions") or Versions(None),
                           latest_version_unstable=unstable is True, listeners=listeners, common_structs=structs)

    def common_structs(self, items, flexible: Versions) -> list[StructSpec]:
        if not isinstance(items, list):
            self.error("commonStructs", "is a list of structs")
            return []
        structs = []
        for i, item in enumerate(items):
            path = f"commonStructs[{i}]"
            if not isinstance(item, dict) or any(k not in item for k in ("name", "versions", "fields")):
                self.error(path, "a common struct is an object with name, versions and fields")
                continue
            self.unknown_keys(item, path, STRUCT_KEYS, "a common struct")
            name, versions = self.text(item, "name", path), self.versions(item, "versions", path)
            if name is None or versions is None:
                continue
            if not STRUCT_NAME.match(name):
                self.error(f"{path}.name", f"{name!r} is no struct name (an upper camel case word)")
            structs.append(StructSpec(name, versions, path, self.fields(item["fields"], f"{path}.fields", flexible)))
        return structs

    # ---------------------------------------------------------------- fields

    def fields(self, items, path: str, flexible: Versions) -> list[FieldSpec]:
        if not isinstance(items, list):
            self.error(path, "is a list of fields")
            return []
        fields, names, tags = [], {}, {}
        for i, item in enumerate(items):
            f = self.field(item, f"{path}[{i}]", flexible)
            if f is None:
                continue
            if f.name in names:
                self.error(f"{f.path}.name", f"{f.name!r} is also the name of {names[f.name]}")
            names[f.name] = f.path
            if f.tag is not None:
                if f.tag in tags:
                    self.error(f"{f.path}.tag", f"tag {f.tag} is also the tag of {tags[f.tag]}")
                tags[f.tag] = f.path
            fields.append(f)
        return fields

    def field(self, item, path: str, flexible: Versions) -> FieldSpec | None:
        if not isinstance(item, dict):
            self.error(path, "a field is a JSON object")
            return None
        self.unknown_keys(item, path, FIELD_KEYS, "a field")
        missing = [k for k in FIELD_NEEDS if k not in item]
        if missing:
            self.error(path, f"a field needs {', '.join(missing)}")
            return None
        name, type_text = self.text(item, "name", path), self.text(item, "type", path)
        versions = self.versions(item, "versions", path)
        if name is None or type_text is None or versions is None:
            return None
        if not FIELD_NAME.match(name):
            self.error(f"{path}.name", f"{name!r} is no field name (letters and digits, a letter first)")
        ftype = FieldType(type_text)
        if not ftype.well_formed():
            self.error(f"{path}.type", f"{type_text!r} is no type: a primitive ({', '.join(sorted(PRIMITIVES))}), "
                       "a struct's name, or an array of either ([]int32, []Topic)")
        f = FieldSpec(name=name, type=ftype, versions=versions, path=path,
                      about=self.text(item, "about", path, "") or "",
                      nullable_versions=self.versions(item, "nullableVersions", path) or Versions(None),
                      tagged_versions=self.versions(item, "taggedVersions", path) or Versions(None),
                      tag=self.tag(item, path), default=self.default(item, path),
                      ignorable=self.flag(item, "ignorable", path), map_key=self.flag(item, "mapKey", path),
                      entity_type=self.text(item, "entityType", path, None),
                      zero_copy=self.flag(item, "zeroCopy", path),
                      flexible_versions=self.versions(item, "flexibleVersions", path) if "flexibleVersions" in item
                      else None)
        self.check_field(f, item, flexible)
        if "fields" in item:
            f.fields = self.fields(item["fields"], f"{path}.fields", flexible)
        return f

    def check_field(self, f: FieldSpec, item: dict, flexible: Versions) -> None:
        """What the language asks of a field beyond its keys' forms (Kafka's generator refuses the same)."""
        path = f.path
        if not f.nullable_versions.empty and not f.type.may_be_null:
            self.error(f"{path}.nullableVersions", f"a field of type {f.type.text} is never null")
        if ("tag" in item) != ("taggedVersions" in item):
            self.error(path, "a tagged field has both tag and taggedVersions")
        if not f.tagged_versions.empty:
            if f.tagged_versions.high is not None:
                self.error(f"{path}.taggedVersions", f"is {str(f.tagged_versions)!r}; tagged versions are "
                           "open-ended (3+): a tag is never taken back")
            if not f.tagged_versions.within(flexible):
                self.error(f"{path}.taggedVersions", f"{f.tagged_versions} is not within the flexible versions "
                           f"{flexible}: only flexible versions have tagged fields")
            if not f.tagged_versions.within(f.versions):
                self.error(f"{path}.taggedVersions", f"{f.tagged_versions} is not within the field's versions {f.versions}")
        if not f.nullable_versions.within(f.versions) and not f.nullable_versions.empty:
            self.error(f"{path}.nullableVersions", f"{f.nullable_versions} is not within the field's versions {f.versions}",
                       WARNING)
        if not f.type.is_struct and "fields" in item:
            self.error(f"{path}.fields", f"a field of type {f.type.text} has no fields")

    def check_struct_names(self, fields: list[FieldSpec], structs: list[StructSpec]) -> None:
        """A struct field without fields names a common struct; a struct is declared once."""
        common = {s.name for s in structs}
        declared: dict[str, str] = {}

        def walk(fs: list[FieldSpec]) -> None:
            for f in fs:
                if f.type.is_struct:
                    element = f.type.element
                    if f.fields:
                        if element in declared or element in common:
                            self.error(f"{f.path}.type", f"struct {element} is declared twice "
                                       f"({declared.get(element, 'commonStructs')})")
                        declared.setdefault(element, f.path)
                    elif element not in common:
                        self.error(f"{f.path}.type", f"{element} has no fields and is no common struct")
                walk(f.fields)
        walk(fields)
        for s in structs:
            walk(s.fields)

    # ---------------------------------------------------------------- values

    def unknown_keys(self, item: dict, path: str, known: frozenset, what: str) -> None:
        for key in item:
            if key not in known:
                self.error(f"{path}.{key}" if path else str(key), f"{what} has no key {key!r} "
                           f"(it has {', '.join(sorted(known))})")

    def text(self, item: dict, key: str, path: str, missing="") -> str | None:
        value = item.get(key, missing)
        if value is missing:
            return missing
        if not isinstance(value, str):
            self.error(f"{path}.{key}" if path else key, f"is {yaml_text(value)}; a text is needed")
            return None
        return value

    def versions(self, item: dict, key: str, path: str = "") -> Versions | None:
        """The range at `key` (None, with a problem, when it is malformed; None when absent)."""
        if key not in item:
            return None
        value = item[key]
        versions = Versions.parse(value) if isinstance(value, str) else None
        if versions is None:
            self.error(f"{path}.{key}" if path else key,
                       f"is {yaml_text(value)}; versions are written 3+, 1-3, 2 or none")
        return versions

    def flag(self, item: dict, key: str, path: str) -> bool:
        value = item.get(key, False)
        if not isinstance(value, bool):
            self.error(f"{path}.{key}", f"is {yaml_text(value)}; true or false")
            return False
        return value

    def tag(self, item: dict, path: str) -> int | None:
        value = item.get("tag")
        if isinstance(value, str) and value.isascii() and value.isdigit():
            # Kafka's reader turns the text into its number (BrokerHeartbeatRequest's tag is "0")
            self.error(f"{path}.tag", f"is the text {value!r}; read as the number {int(value)}", WARNING)
            value = int(value)
        if value is not None and (type(value) is not int or value < 0 or value >= 1 << 31):
            self.error(f"{path}.tag", f"is {yaml_text(value)}; a tag is a whole number from 0")
            return None
        return value

    def default(self, item: dict, path: str):
        value = item.get("default")
        if value is not None and not isinstance(value, (str, int, bool)):
            self.error(f"{path}.default", f"is {yaml_text(value)}; a default is a text, a number or true/false")
            return None
        return value


def read_specs(folder: Path) -> list[MessageSpec]:
    """Every spec of a folder of Kafka's message specs; SchemaError naming every problem found
    when one of them has an error (warnings alone do not stop it)."""
    return SpecReader().read_folder(folder)

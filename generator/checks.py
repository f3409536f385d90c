"""Check vectors: inputs of several formats and what a named checker must find in them.

A definition `schemas/<family>/<name>.checks.yaml` names a checker of
`logcodec.checks`, its inputs and, per test, each input's bytes: another format's
vector by `fmt:tcId` (just rendered, so the two stay in step), a file beside the
definition (`file:`, a path under its folder: a capture that real programs wrote),
or literal hex or JSON, each optionally mutated as in vector files. The generator runs the checker and fails
unless it finds exactly the declared problems (kind and path); the file records
their offsets too. It becomes `generated/vectors/<family>/<name>.checks.json`.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from logcodec import checks as checkers

from .problems import SchemaError
from .vectors import mutate

MUTATIONS = ("patch", "splice", "truncate", "append", "checksums")


def render(root: Path, rendered: dict[str, str]) -> dict[str, str]:
    """Every check vector file, given the vector files rendered in this run (by path)."""
    out = {}
    for path in sorted((root / "schemas").rglob("*.checks.yaml")):
        where = path.relative_to(root).as_posix()
        try:
            spec = yaml.safe_load(path.read_text())
        except yaml.YAMLError as exc:
            raise SchemaError(f"{where}: not valid YAML: {exc}") from None
        family = path.parent.name
        name = path.name.removesuffix(".checks.yaml")
        out[f"vectors/{family}/{name}.checks.json"] = json.dumps(
            CheckBuilder(spec, where, rendered, path.parent).build(), indent=1, ensure_ascii=False) + "\n"
    return out


class CheckBuilder:
    def __init__(self, spec: dict, where: str, rendered: dict[str, str], folder: Path) -> None:
        self.spec, self.where, self.rendered = spec, where, rendered
        self.folder = folder  # where the definition lies, which its `file:` inputs are under
        self.checker = spec.get("checker")
        if not isinstance(self.checker, str) or checkers.checker(self.checker) is None:
            self.fail(f"checker {self.checker!r} is not defined: a checker is `<family>.<name>`, "
                      "an entry of CHECKERS in `logcodec.<family>.checks`")
        self.notes = spec.get("notes", {})
        self.parsed: dict[str, dict] = {}  # rendered vector files, by path

    def fail(self, message: str):
        raise SchemaError(f"{self.where}: {message}")

    def build(self) -> dict:
        tests = [self.test(t) for t in self.spec.get("tests", [])]
        return {"checker": self.checker, "source": self.spec.get("source", "").strip(),
                "generator": "logcodec generate", "inputs": list(self.spec.get("inputs", [])),
                "numberOfTests": len(tests), "notes": self.notes, "tests": tests}

    def test(self, t: dict) -> dict:
        name = t["name"]
        for flag in t.get("flags", []):
            if not isinstance(flag, str) or flag not in self.notes:
                self.fail(f"{name}: flag {flag!r} is not explained in notes")
        inputs = {key: self.input_bytes(name, key, t.get(key)) for key in self.spec.get("inputs", [])}
        found = checkers.run(self.checker, inputs)
        got = [{"kind": f.kind, "path": f.path} for f in found]
        want = [{"kind": f["kind"], "path": f["path"]} for f in t.get("findings", [])]
        if got != want:
            self.fail(f"{name}: {self.checker} finds {got}, the definition says {want}")
        return {"tcId": name, "comment": t.get("comment", "").strip(), "flags": list(t.get("flags", [])),
                "inputs": {key: data.hex() for key, data in inputs.items()},
                "findings": [{"kind": f.kind, "offset": f.offset, "path": f.path} for f in found]}

    def vector_tests(self, path: str) -> dict:
        """A rendered vector file's tests by tcId, parsed once."""
        if path not in self.parsed:
            text = self.rendered.get(path)
            self.parsed[path] = {} if text is None else {
                x["tcId"]: x for g in json.loads(text)["testGroups"] for x in g["tests"]}
        return self.parsed[path]

    def input_bytes(self, test: str, key: str, spec) -> bytes:
        if not isinstance(spec, dict):
            self.fail(f"{test}: input {key!r} needs one of vector, file, hex, json")
        if "vector" in spec:
            fmt, _, tc_id = spec["vector"].partition(":")
            family, _, fid = fmt.partition(".")
            found = self.vector_tests(f"vectors/{family}/{fid}.json").get(tc_id)
            if found is None:
                self.fail(f"{test}: input {key!r}: no vector {spec['vector']!r}")
            data = bytes.fromhex(found["bytes"])
        elif "file" in spec:
            data = self.file_bytes(test, key, spec["file"])
        elif "hex" in spec:
            data = bytes.fromhex("".join(spec["hex"].split()))
        elif "json" in spec:
            data = json.dumps(spec["json"], indent=1, ensure_ascii=False).encode()
        else:
            self.fail(f"{test}: input {key!r} needs one of vector, file, hex, json")
        if any(m in spec for m in MUTATIONS):
            data = mutate(data, spec, f"{self.where}: {test}.{key}")
        return data

    def file_bytes(self, test: str, key: str, name) -> bytes:
        """The bytes of a file under the definition's folder (a relative path that stays there)."""
        path = self.folder / str(name)
        if not isinstance(name, str) or Path(name).is_absolute() or not path.resolve().is_relative_to(self.folder.resolve()):
            self.fail(f"{test}: input {key!r}: file {name!r} is not a path under {self.folder.name}/")
        try:
            return path.read_bytes()
        except OSError as exc:
            self.fail(f"{test}: input {key!r}: file {name!r}: {exc.strerror}")

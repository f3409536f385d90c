"""Golden vectors, in the spirit of Project Wycheproof.

A format's vectors are defined next to its schema, in `<schema>.vectors.yaml`:
values in canonical JSON (derived fields left out), bytes from other
implementations with their provenance, and invalid inputs made from a valid
vector by named byte mutations. This module turns that definition into
`generated/vectors/<family>/<format>.json`:

- valid values are encoded by the generated codec, and the bytes decoded again
  to record the complete expected value (derived fields included);
- external bytes are decoded to record their value;
- every invalid input is decoded, and generation fails unless the decoder
  raises exactly the error kind the definition expects;
- truncations are cut at every structural boundary of their base vector: where
  each field starts, as the codec's trace variant reads it (`ranges.py`);
- a format whose root takes params (a Kafka response, the API it answers) has them
  in every test (`params: {api_key: 1, api_version: 16}`), which a mutation and a
  truncation take from their base; the file gives them with each test.

The same definitions always give the same file. The independent checks (the
Kaitai reference parsers and third-party libraries decoding every valid vector)
run in the test suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.primitives import CHECKSUMS
from logcodec.runtime.values import from_json, to_json

from .problems import SchemaError
from .ranges import field_spans
from .schema import Schema

RESULTS = ("valid", "invalid", "acceptable")


def definition_path(root: Path, schema: Schema) -> Path:
    return root / "schemas" / schema.path.replace(".ksy", ".vectors.yaml")


def expand(value):
    """Spec shorthands: bytes "text:abc" (UTF-8) and "fill:ab*100" (a repeated hex pattern), and
    lists `{$repeat: N, of: ITEM}` (N copies) inside lists, spliced in place."""
    if isinstance(value, dict):
        return {k: expand(v) for k, v in value.items()}
    if isinstance(value, list):
        out = []
        for v in value:
            if isinstance(v, dict) and "$repeat" in v:
                out.extend(expand(v["of"]) for _ in range(int(v["$repeat"])))
            else:
                out.append(expand(v))
        return out
    if isinstance(value, str) and value.startswith("text:"):
        return value[5:].encode().hex()
    if isinstance(value, str) and value.startswith("fill:"):
        pattern, _, times = value[5:].rpartition("*")
        return pattern * int(times)
    return value


def merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def mutate(data: bytes, test: dict, where: str) -> bytes:
    """Apply a definition's byte mutations, in a fixed order: patch, truncate, append, checksum."""
    out = bytearray(data)
    for p in test.get("patch", []):
        raw = bytes.fromhex(p["hex"])
        at = p["offset"] if p["offset"] >= 0 else len(out) + p["offset"]  # negative: from the end
        out[at:at + len(raw)] = raw
    if "splice" in test:
        s = test["splice"]
        out[s["offset"]:s["offset"] + s.get("remove", 0)] = bytes.fromhex(s.get("insert", ""))
    if "truncate" in test:
        del out[test["truncate"]:]
    if "append" in test:
        out += bytes.fromhex(test["append"])
    for ck in test.get("checksums", []):
        algo = CHECKSUMS.get(ck["algorithm"])
        if algo is None:
            raise SchemaError(f"{where}: unknown checksum {ck['algorithm']!r}")
        value = algo(bytes(out[ck["from"]:ck.get("to", len(out))]))
        size = ck.get("size", 4)
        out[ck["at"]:ck["at"] + size] = value.to_bytes(size, ck.get("endian", "big"))
    return bytes(out)


def render(root: Path, schema: Schema, module, traced) -> dict[str, str]:
    """The vectors file of a schema that has a definition, made with its codec module and its trace
    variant (`traced`, for the truncations' cuts)."""
    path = definition_path(root, schema)
    if not path.exists():
        return {}
    where = path.relative_to(root).as_posix()
    try:
        spec = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise SchemaError(f"{where}: not valid YAML: {exc}") from None
    built = Builder(schema, module, traced, spec, where).build()
    return {f"vectors/{schema.family}/{schema.id}.json": json.dumps(built, indent=1, ensure_ascii=False) + "\n"}


class Builder:
    def __init__(self, schema: Schema, module, traced, spec: dict, where: str,
                 generator: str = "logcodec generate") -> None:
        self.schema, self.module, self.spec, self.where = schema, module, spec, where
        self.traced = traced  # the codec's trace variant: where each field of a base vector starts
        self.generator = generator  # who makes them: this repository's generate, or a user's compile
        self.notes = spec.get("notes", {})
        self.by_name: dict[str, tuple[dict, bytes]] = {}
        # the root's params: those it needs, and all it takes
        self.required, self.takes = set(module.REQUIRED_PARAMS), set(module.PARAMS)
        self.ids: set[str] = set()

    def fail(self, message: str):
        raise SchemaError(f"{self.where}: {message}")

    def build(self) -> dict:
        groups = []
        for group in self.spec.get("groups", []):
            tests = [self.test(group, t) for t in group["tests"]]
            groups.append({"type": group["type"], "comment": group.get("comment", ""), "tests": tests})
        truncations = self.truncations()
        if truncations:
            groups.append(truncations)
        for group in groups:
            for t in group["tests"]:
                for flag in t["flags"]:
                    if not isinstance(flag, str):  # YAML reads a bare Null, True or 1 as another type
                        self.fail(f"flag {flag!r} of {t['tcId']} is not a string; quote it")
                    if flag not in self.notes:
                        self.fail(f"flag {flag!r} of {t['tcId']} is not explained in notes")
        return {
            "format": self.schema.format_name,
            "schema": f"schemas/{self.schema.path}",
            "schemaSha256": self.schema.sha256,
            "source": self.spec.get("source", "").strip(),
            "generator": self.generator,
            "numberOfTests": sum(len(g["tests"]) for g in groups),
            "notes": self.notes,
            "testGroups": groups,
        }

    def tc_id(self, group: dict, test: dict) -> str:
        tc = f"{group['type']}/{test['name']}"
        if tc in self.ids:
            self.fail(f"duplicate test {tc}")
        self.ids.add(tc)
        return tc

    def test(self, group: dict, test: dict) -> dict:
        tc = self.tc_id(group, test)
        result = test.get("result", "valid" if "error" not in test else "invalid")
        if result not in RESULTS:
            self.fail(f"{tc}: result must be one of {RESULTS}")
        entry = {"tcId": tc, "comment": test.get("comment", "").strip(), "flags": list(test.get("flags", [])),
                 "result": result}
        params = self.params(tc, test)
        if "value" in test:
            value = from_json(self.module.ROOT, expand(merge(self.spec.get("base", {}), test["value"])), partial=True,
                              params=params)
            data = self.module.encode(value, **params)
            entry["canonical"] = bool(test.get("canonical", True))
        elif "bytes" in test:
            data = bytes.fromhex("".join(test["bytes"].split()))
            entry["canonical"] = bool(test.get("canonical", False))
        elif "from" in test:
            if test["from"] not in self.by_name:
                self.fail(f"{tc}: unknown base test {test['from']!r} (define it earlier)")
            base_entry, base_data = self.by_name[test["from"]]
            data = mutate(base_data, test, f"{self.where}: {tc}")
            if result == "valid" and "canonical" in base_entry:  # a valid mutation: canonical as its base
                entry["canonical"] = bool(test.get("canonical", base_entry["canonical"]))
        else:
            self.fail(f"{tc}: a test has a value, bytes, or a base test to mutate")
        if "provenance" in test:
            entry["provenance"] = test["provenance"].strip()
        if params:
            entry["params"] = params
        if "quirks" in test:
            entry["quirks"] = test["quirks"]
        entry["bytes"] = data.hex()
        self.expect(tc, test, entry, data)
        self.by_name[test["name"]] = (entry, data)
        return entry

    def expect(self, tc: str, test: dict, entry: dict, data: bytes) -> None:
        """Decode with the generated codec and check the outcome the definition states."""
        params = entry.get("params", {})
        try:
            decoded = self.module.decode(data, lazy=False, **params)
        except DecodeError as exc:
            if "error" not in test and entry["result"] != "acceptable":
                self.fail(f"{tc}: expected a value, the decoder says {exc}")
            if "error" in test and exc.kind != test["error"]:
                self.fail(f"{tc}: expected error {test['error']!r}, the decoder says {exc}")
            entry["error"] = exc.kind
            entry["errorDetail"] = {"offset": exc.offset, "path": exc.path}
            return
        if "error" in test:
            self.fail(f"{tc}: expected error {test['error']!r}, but the bytes decode")
        entry["value"] = to_json(decoded)
        if entry.get("canonical") and self.module.encode(decoded, **params) != data:
            self.fail(f"{tc}: marked canonical, but re-encoding gives other bytes")

    def params(self, tc: str, test: dict) -> dict:
        """The root's params of a test: its own, or its base's (a mutation's); every one the root
        needs, and none it does not take."""
        params = test.get("params")
        if params is None and "from" in test and test["from"] in self.by_name:
            params = self.by_name[test["from"]][0].get("params")
        params = dict(params or {})
        if not self.required <= set(params) <= self.takes:
            self.fail(f"{tc}: params {sorted(params)}, but the format's root needs {sorted(self.required)} "
                      f"and takes {sorted(self.takes)}")
        return params

    def decodes(self, data: bytes, params: dict) -> bool:
        try:
            self.module.decode(data, lazy=False, **params)
        except DecodeError:
            return False
        return True

    def truncations(self) -> dict | None:
        spec = self.spec.get("truncations")
        if not spec:
            return None
        if not isinstance(spec, dict) or not isinstance(spec.get("from"), list) or "type" not in spec:
            self.fail("truncations: a mapping with `type` (the group's name) and `from` (a list of valid tests)")
        tests = []
        for base in spec["from"]:
            if base not in self.by_name:
                self.fail(f"truncations: unknown base test {base!r}")
        for base in spec["from"]:
            base_entry, data = self.by_name[base]
            params = base_entry.get("params", {})
            cuts = cut_points(self.schema, self.traced.trace(data, **params).trace)
            # the decoder must call every cut `truncated`, or the vectors are not written
            for cut in sorted(c for c in cuts if c < len(data)):
                if self.decodes(data[:cut], params):
                    continue  # a whole prefix (entries up to a boundary, or none) is valid input
                test = {"name": f"{base}/at-{cut}", "error": "truncated"}
                entry = {"tcId": f"{spec['type']}/{base}/at-{cut}",
                         "comment": f"{base} cut before byte {cut}, where {cuts[cut]} starts",
                         "flags": list(spec.get("flags", [])), "result": "invalid", "bytes": data[:cut].hex()}
                if params:
                    entry["params"] = params
                self.expect(entry["tcId"], test, entry, data[:cut])
                tests.append(entry)
        return {"type": spec["type"], "comment": spec.get("comment", "").strip(), "tests": tests}


def cut_points(schema: Schema, trace) -> dict[int, str]:
    """{offset: path of schema fields} of where each field of a trace starts in the input, named by
    the outermost field that starts there (`ranges.field_spans`); a field of processed
    (decompressed) bytes has no place in the input, so no cut."""
    cuts: dict[int, str] = {}
    for span in field_spans(schema, trace):
        cuts.setdefault(span.start, span.field_path)
    return cuts

"""A page per API of a folder of message specs in Kafka's JSON message language
(`schemas/<family>/messages/`, read by `message_specs`; the page `docs/<family>/apis/<Name>.html`):
its request and response versions side by side, field by field (in which versions each is there,
nullable or tagged), and what each version changed from the one before, judged as `logcodec diff`
judges two spec sets (`evolution`)."""

from __future__ import annotations

from pathlib import Path

from ..message_specs import read_specs
from ..message_specs.evolution import layout, layout_changes
from ..message_specs.spec import FieldSpec, MessageSpec


def spec_folders(root: Path) -> list[Path]:
    """The folders of message specs among the schemas: `schemas/<family>/messages/` holding `*.json`."""
    return [f for f in sorted((Path(root) / "schemas").glob("*/messages")) if any(f.glob("*.json"))]


def api_pages(root: Path, templates, vectors: dict[str, dict]) -> tuple[dict[str, str], list[dict]]:
    """({path under generated/: page}, the index's rows: one per API, by family and key). Each page
    links the decode page to the API's frames, with the golden vector of its latest version where
    the family's frames have vectors (`vectors`, by format name)."""
    pages, rows = {}, []
    for folder in spec_folders(root):
        family = folder.parent.name
        by_key: dict[int, dict[str, MessageSpec]] = {}
        for spec in read_specs(folder):
            if spec.kind in ("request", "response"):
                by_key.setdefault(spec.api_key, {})[spec.kind] = spec
        for key in sorted(by_key):
            request, response = by_key[key]["request"], by_key[key]["response"]
            name = request.name.removesuffix("Request")
            href = f"{family}/apis/{name}.html"
            rows.append({"family": family, "name": name, "key": key, "href": href,
                         "versions": str(request.valid_versions), "flexible": str(request.flexible_versions)})
            messages = [dict(_message(m), decode=_decode_link(family, m, vectors)) for m in (request, response)]
            pages[f"docs/{href}"] = templates.get_template("docs_api.html.j2").render(
                family=family, name=name, key=key, messages=messages,
                css="../../style.css", home="../../index.html", root="../../")
    return pages, rows


def _decode_link(family: str, spec: MessageSpec, vectors: dict[str, dict]) -> dict:
    """The decode page's address for a frame of this message (`<family>.request`, or
    `<family>.response` given the API), filled with the bytes of its latest version's golden vector
    (the first valid one) where there is one: {"href", "version" (or None)}."""
    fmt = f"{family}.{spec.kind}"
    params = {} if spec.kind == "request" else {"api_key": spec.api_key}
    best = None
    for test in (t for g in vectors.get(fmt, {}).get("testGroups", []) for t in g["tests"] if t["result"] == "valid"):
        key, version = _api_of(test, spec.kind)
        if key == spec.api_key and (best is None or version > best[0]):
            best = (version, test)
    fields = {"format": fmt, **params}
    if best is not None:
        fields.update({"api_version": best[0]} if params else {}, hex=best[1]["bytes"])
    return {"href": "../../decode.html#" + "&".join(f"{k}={v}" for k, v in fields.items()),
            "version": best[0] if best else None}


def _api_of(test: dict, kind: str) -> tuple[int, int]:
    """The (API key, version) of a frame's vector: a request's header says them, a response's params."""
    if kind == "request":
        header = test["value"]["header"]
        return header["request_api_key"], header["request_api_version"]
    return test["params"]["api_key"], test["params"]["api_version"]


def _message(spec: MessageSpec) -> dict:
    versions = spec.versions
    return {"spec": spec, "versions": versions, "rows": _rows(spec.fields, versions, 0, ""),
            "changes": [{"version": v, "what": _version_changes(spec, v)} for v in versions]}


def _rows(fields: list[FieldSpec], versions: list[int], depth: int, at: str) -> list[dict]:
    """A row per field, nested fields after theirs: in which versions it is there (`cells`: ""
    absent, "x" present, "n" nullable, "t" tagged)."""
    rows = []
    for f in fields:
        path = f"{at}.{f.name}" if at else f.name
        cells = ["t" if v in f.tagged_versions else "n" if v in f.nullable_versions else "x" if v in f.versions else ""
                 for v in versions]
        rows.append({"f": f, "path": path, "depth": depth, "cells": cells})
        rows += _rows(f.fields, versions, depth + 1, path + ("[]" if f.type.is_array else ""))
    return rows


def _version_changes(spec: MessageSpec, v: int) -> list[str]:
    """What version `v` changed from `v - 1`, each as a sentence; the first version has none."""
    if v - 1 not in spec.versions:
        return []
    out = []
    flexible = v - 1 in spec.flexible_versions
    if flexible != (v in spec.flexible_versions):
        out.append("made flexible: compact strings, arrays and bytes, and tagged fields" if not flexible
                   else "no longer flexible")
    for path, what, _ in layout_changes(layout(spec, v - 1), layout(spec, v, flexible)):
        out.append(f"{path}: {what}" if path else what)
    return out

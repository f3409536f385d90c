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


def api_pages(root: Path, templates) -> tuple[dict[str, str], list[dict]]:
    """({path under generated/: page}, the index's rows: one per API, by family and key)."""
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
            pages[f"docs/{href}"] = templates.get_template("docs_api.html.j2").render(
                family=family, name=name, key=key, messages=[_message(request), _message(response)],
                css="../../style.css", home="../../index.html", root="../../")
    return pages, rows


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

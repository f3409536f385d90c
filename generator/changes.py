"""A change between two versions of a set of schemas or specs, as `logcodec diff` reports it
(`message_specs/evolution.py` for Kafka's message specs, `schema_diff.py` for `.ksy` schemas)."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    """One change of `subject` (a Kafka message, or a `.ksy` schema's type: `tank/bundle.ksy:message`)
    in the versions it holds in (`versions`, in order; none for a `.ksy` schema, which has no
    versions), at `path` (a field's, "" for the subject itself)."""

    subject: str
    versions: tuple[int, ...]
    path: str
    what: str
    breaking: bool

    def __str__(self) -> str:
        where = f" {versions_text(self.versions)}" if self.versions else ""
        path = f": {self.path}" if self.path else ""
        return f"{self.subject}{where}{path}: {self.what}{' (wire-breaking)' if self.breaking else ''}"

    def as_json(self) -> dict:
        return {"subject": self.subject, "versions": list(self.versions), "path": self.path, "change": self.what,
                "breaking": self.breaking}


def versions_text(versions: tuple[int, ...]) -> str:
    """`v3`, `v3-7`, `v1, v4-6`: the versions as runs."""
    runs, start = [], None
    for i, v in enumerate(versions):
        if start is None:
            start = v
        if i + 1 == len(versions) or versions[i + 1] != v + 1:
            runs.append(f"v{start}" if start == v else f"v{start}-{v}")
            start = None
    return ", ".join(runs)


def json_ready(value):
    """A YAML or JSON value with every mapping's keys as text (a switch's cases mix numbers and
    names), for `json.dumps`."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else repr(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_ready(v) for v in value]
    return value


def shown(value) -> str:
    """A value as a change shows it, whole: JSON, or `none` where there is none."""
    return "none" if value is None else json.dumps(json_ready(value), default=str)

"""Expected-failure lists: checked-in, per implementation, each entry with its reason.

An entry's `id` matches every case whose id starts with it
(`kafka.record_batch_v2:decode:headers/` covers a whole group). A listed case
that now passes fails the run, so lists cannot rot; `--update-failures`
rewrites the list from the run, keeping the reasons of entries that still match.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

FAILING = ("fail", "decode_error", "encode_error", "timeout", "crash")


@dataclass
class Entry:
    id: str
    reason: str


def load(path: Path | None) -> list[Entry]:
    if path is None or not Path(path).exists():
        return []
    doc = yaml.safe_load(Path(path).read_text()) or {}
    entries = []
    for i, item in enumerate(doc.get("failures") or []):
        if not isinstance(item, dict) or not item.get("id") or not item.get("reason"):
            raise ValueError(f"{path}: failures[{i}] needs an id and a reason")
        entries.append(Entry(str(item["id"]), str(item["reason"])))
    return entries


def match(entries: list[Entry], case_id: str) -> Entry | None:
    """The longest matching entry, so a specific reason beats a group's."""
    found = [e for e in entries if case_id.startswith(e.id)]
    return max(found, key=lambda e: len(e.id)) if found else None


def apply(entries: list[Entry], verdicts) -> list:
    """Mark expected failures; return the verdicts that make the run fail."""
    bad = []
    for v in verdicts:
        entry = match(entries, v.case.id)
        if entry is not None:
            v.expected_failure = entry.reason
            if v.outcome == "pass":
                v.detail = f"passes, but is listed as an expected failure ({entry.reason}); update the list"
                bad.append(v)
        elif v.outcome in FAILING or v.outcome == "not_run":
            bad.append(v)
    return bad


def write(path: Path, implementation: str, entries: list[Entry], verdicts) -> list[Entry]:
    """Rewrite the list from a run: every failing case, with the old reason where one matched."""
    new = []
    for v in verdicts:
        if v.outcome not in FAILING:
            continue
        old = match(entries, v.case.id)
        reason = old.reason if old else f"observed {v.outcome}: {v.detail or (v.diff[0] if v.diff else '')}".strip()
        new.append(Entry(v.case.id, reason))
    # Entries for cases this run did not cover (other formats, or cases not run because the
    # testee gave up) stay as they were.
    run_ids = {v.case.id for v in verdicts if v.outcome != "not_run"}
    kept = [e for e in entries if not any(cid.startswith(e.id) for cid in run_ids)]
    doc = {"implementation": implementation,
           "failures": [{"id": e.id, "reason": e.reason} for e in sorted(kept + new, key=lambda e: e.id)]}
    header = (f"# Expected conformance failures of {implementation}: `logcodec conformance run` fails when a\n"
              "# listed case passes, so the list cannot rot. Ids match by prefix. Rewritten by --update-failures.\n")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(header + yaml.safe_dump(doc, sort_keys=False, width=120, allow_unicode=True))
    return kept + new

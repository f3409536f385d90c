"""The validation job's summary made readable (`format_table`): a line per file and the total,
the bytes accounted for, the re-encoding outcomes and the first findings."""

from __future__ import annotations

from pathlib import Path

from logcodec.pipeline.registry import formats
from logcodec.pipeline.validate._paths import is_remote
from logcodec.pipeline.validate._summary import byte_sum

#: Files listed one by one in the printed table; above this, only those with something quarantined.
MAX_TABLE_FILES = 40


def format_table(summary: dict, out: Path | str | None = None) -> str:
    """The summary as a table for the terminal: a line per file (relative to PATH) and the total,
    then the re-encoding outcomes and the findings."""
    root = Path(summary["path"])
    files = summary["files"]
    shown = files if len(files) <= MAX_TABLE_FILES else [f for f in files if f["quarantined"] or f.get("unreadable")
                                                            or f.get("verdict")]

    def name(file: str | None) -> str:
        if file is None or is_remote(file):
            return str(file)
        try:
            return str(Path(file).relative_to(root)) if root.is_dir() else Path(file).name
        except ValueError:
            return file

    def kinds(errors: dict) -> str:
        return ", ".join(f"{k} {n}" for k, n in errors.items())

    def note(f: dict) -> str:
        said = [kinds(f["errors"])] if f["errors"] else []
        if f.get("verdict"):
            said.append(f"({f['verdict']})")
        return " ".join(said)

    header = ("file", "batches", "valid", "quarantined", "unreadable", "records", "quarantined by kind")
    lines = [(name(f["file"]), f["batches"], f["valid"], f["quarantined"], f.get("unreadable", 0), f["records"],
              note(f)) for f in shown]
    t = summary["total"]
    total = (f"total ({t['files']} file{'s' if t['files'] != 1 else ''})", t["batches"], t["valid"],
             t["quarantined"], t.get("unreadable", 0), t["records"], kinds(t["errors"]))
    width = max(len(str(row[0])) for row in [header, *lines, total])
    widths = [width] + [max(len(str(row[i])) for row in [header, *lines, total]) for i in range(1, 6)]

    def fmt(row) -> str:
        cells = [str(row[0]).ljust(widths[0])] + [str(v).rjust(w) for v, w in zip(row[1:6], widths[1:])]
        return "  ".join(cells + [row[6]]).rstrip()

    title = next((f.title for f in formats() if f.name == summary["format"]), summary["format"])
    text = [f"{title} under {summary['path']}", fmt(header),
            *map(fmt, lines)]
    if len(shown) < len(files):
        text.append(f"({len(files) - len(shown)} file(s) with nothing quarantined not shown)")
    text.append(fmt(total))
    b = t.get("bytes")
    if b and b.get("file") is not None:
        text.append(f"bytes: {b['file']:,} = {byte_sum(b)}")
    if t["reencode"]:
        text.append("re-encoded: " + ", ".join(f"{k} {n}" for k, n in sorted(t["reencode"].items())))
    findings = summary["findings"]
    if findings["count"]:
        text.append(f"findings (not batches): {findings['count']} ("
                    + ", ".join(f"{k} {n}" for k, n in findings["kinds"].items()) + ")")
        for f in findings["listed"][:10]:
            at = "" if f["offset"] is None else f" @{f['offset']}"
            text.append(f"  {name(f['file'])}{at}: {f['entry']} {f['error_path']}: {f['error_kind']}: {f['detail']}")
        if findings["count"] > 10:
            text.append(f"  ... {findings['count'] - 10} more")
    if out is not None:
        text.append(f"results: {Path(out) / 'results.parquet'}, {Path(out) / 'findings.parquet'}, "
                    f"{Path(out) / 'summary.json'}")
    return "\n".join(text)

"""The validation job's summary (`summary.json`): per file and in total, batches read, valid,
quarantined, unreadable ranges, records, error kinds, re-encoding outcomes, findings and bytes,
each count checked so that nothing is lost (batches = valid + quarantined; every byte accounted
for); and the job's exit status."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from logcodec.pipeline.registry import formats

#: What a finding row's `entry` may be: a TANK index entry, Inkless metadata, or a zero-filled tail
#: (zeros to the end of a log file, as a preallocated segment keeps after a crash: no batch).
FINDING_ENTRIES = ("index", "metadata", "zero_fill")
#: A quarantined row of this `entry` is no batch but a range of bytes where no entry decodes,
#: between a broken frame and the next entry whose checksum holds (or the end of the file).
UNREADABLE = "unreadable"
#: What a file whose entries its metadata places (an Inkless object) is called when no metadata entry
#: places anything in it (it has none, or none that loads).
NO_METADATA = "no metadata places anything in it"
#: Findings listed in summary.json (all of them are in findings.parquet).
MAX_LISTED_FINDINGS = 1000


def exit_status(summary: dict, strict_zero_fill: bool | None = None) -> int:
    """The validation job's exit status: 1 when something is quarantined (a batch, or an unreadable
    range) or found, but for zero-filled tails unless `strict_zero_fill` (default: as the job ran)."""
    strict = summary.get("strict_zero_fill", False) if strict_zero_fill is None else strict_zero_fill
    t = summary["total"]
    findings = summary["findings"]["count"] - (0 if strict else summary["findings"]["kinds"].get(
        "zero_fill: zero_fill", 0))
    return 1 if t["quarantined"] or t["unreadable"] or findings else 0


def summarize(groups: Iterable[dict], findings: list[dict], *, path: Path | str, fmt: str,
              master: str | None, files: Mapping[str, int | Mapping[str, int]] | None = None,
              strict_zero_fill: bool = False) -> dict:
    """The summary from grouped counts (one dict per `_GROUP_KEYS` combination, with `rows`,
    `records` and `bytes`, the sum of their sizes) and the first findings. `files`: what
    `listed_files` gives of every file read (empty files have no rows and are listed from it).
    Checks that every row is a batch that is valid or quarantined, an unreadable range, or a
    finding, so that batches = valid + quarantined holds everywhere; and, when `files` is given,
    that every byte is accounted for, per file and in total: bytes = valid + quarantined +
    unreadable + zero fill (+ an Inkless object's dead bytes - overlap - past the end)."""
    per_file: dict[str, dict] = {}
    for file, size in sorted((files or {}).items()):
        per_file[file] = _counts(file=file, format=fmt, size=size if isinstance(size, int) else size["size"])
        if not isinstance(size, int):
            per_file[file]["bytes"].update({k: size[k] for k in _LAYOUT})
    finding_files: Counter = Counter()
    finding_kinds: Counter = Counter()
    for g in sorted(groups, key=lambda g: g["file"] or ""):
        if g["status"] is None:
            if g["entry"] not in FINDING_ENTRIES:
                raise AssertionError(f"a row of {g['file']} has no status and is no finding: {g}")
            finding_files[g["file"]] += g["rows"]
            finding_kinds[f"{g['entry']}: {g['error_kind']}"] += g["rows"]
            if g["entry"] == "zero_fill":
                f = per_file.setdefault(g["file"], _counts(file=g["file"], format=g["format"]))
                f["bytes"]["zero_fill"] += g.get("bytes") or 0
            continue
        if g["status"] not in ("valid", "quarantined"):
            raise AssertionError(f"unknown status {g['status']!r} in {g['file']}")
        f = per_file.setdefault(g["file"], _counts(file=g["file"], format=g["format"]))
        _add(f, g)
    total = _counts(files=len(per_file))
    total["bytes"]["file"] = 0
    for f in per_file.values():
        _check(f, f["file"])
        for key in ("batches", "valid", "quarantined", "unreadable", "records", "decoded"):
            total[key] += f[key]
        for key in ("errors", "reencode", "entries", "bytes"):
            for name, n in f[key].items():
                total[key][name] = (total[key].get(name) or 0) + (n or 0)
        f["verdict"] = _verdict(f, fmt)
    total["findings"] = sum(finding_files.values())
    total["not_logs"] = sum(1 for f in per_file.values() if f["verdict"] == _not_a_log(fmt))
    _check(total, "the total")
    if files is not None:
        for f in [*per_file.values(), total]:
            check_bytes(f, f.get("file") or "the total")
    for f in per_file.values():
        f["errors"] = dict(sorted(f["errors"].items()))
    total["errors"] = dict(sorted(total["errors"].items()))
    return {
        "path": str(path), "format": fmt, "master": master, "strict_zero_fill": strict_zero_fill,
        "total": total,
        "files": list(per_file.values()),
        "findings": {"count": total["findings"], "kinds": dict(sorted(finding_kinds.items())),
                     "files": dict(sorted(finding_files.items(), key=lambda kv: kv[0] or "")),
                     "listed": [{k: f[k] for k in ("file", "offset", "entry", "error_kind", "error_offset",
                                                   "error_path", "detail")} for f in findings]},
    }


def _counts(size: int | None = None, **fields) -> dict:
    """The counts of a file (or of the total): `batches` = `valid` + `quarantined` entries;
    `unreadable` ranges apart (no batch); `decoded`, entries that decoded (valid, or quarantined
    only for their re-encoding); `bytes`: the file's size and how its bytes divide."""
    return {**fields, "batches": 0, "valid": 0, "quarantined": 0, "unreadable": 0, "records": 0, "decoded": 0,
            "errors": {}, "reencode": {}, "entries": {},
            "bytes": {"file": size, "valid": 0, "quarantined": 0, "unreadable": 0, "zero_fill": 0,
                      **dict.fromkeys(_LAYOUT, 0)}}


#: How an Inkless object's bytes divide by its metadata alone (`inkless.byte_layout`); 0 elsewhere.
_LAYOUT = ("dead", "overlap", "past_end")


def _add(f: dict, g: dict) -> None:
    n, size = g["rows"], g.get("bytes") or 0
    if g["entry"] == UNREADABLE:
        f["unreadable"] += n
        f["bytes"]["unreadable"] += size
        return
    f["batches"] += n
    f[g["status"]] += n
    f["bytes"][g["status"]] += size
    f["records"] += g["records"] or 0
    if g["reencode"] is not None:
        f["decoded"] += n
    if g["error_kind"] is not None:
        f["errors"][g["error_kind"]] = f["errors"].get(g["error_kind"], 0) + n
    if g["reencode"] is not None:
        f["reencode"][g["reencode"]] = f["reencode"].get(g["reencode"], 0) + n
    entry = g["entry"] or "unknown"
    f["entries"][entry] = f["entries"].get(entry, 0) + n


def _verdict(f: dict, fmt: str) -> str | None:
    """`empty` (no bytes, or zeros only), `NO_METADATA` for an Inkless object whose bytes no entry
    covers, the format's "not a ... log" when bytes are there but no entry ever decodes, else None."""
    b = f["bytes"]
    if (b["file"] if b["file"] is not None else b["valid"] + b["quarantined"] + b["unreadable"]) == b["zero_fill"]:
        return "empty"
    if b["file"] and b.get("dead") == b["file"]:
        return NO_METADATA  # an Inkless object that no metadata entry places: nothing was read in it
    if f["decoded"] == 0:
        return _not_a_log(fmt)
    return None


def _check(f: dict, what: str) -> None:
    """Nothing lost: every batch read is valid or quarantined, and every quarantined one has its kind."""
    if f["batches"] != f["valid"] + f["quarantined"]:
        raise AssertionError(f"{what}: {f['batches']} batches read, {f['valid']} valid + {f['quarantined']} quarantined")
    if sum(f["errors"].values()) != f["quarantined"]:
        raise AssertionError(f"{what}: {f['quarantined']} quarantined, {sum(f['errors'].values())} with an error kind")


def check_bytes(f: dict, what: str) -> None:
    """Every byte accounted for: the file's size = bytes of valid entries + quarantined entries +
    unreadable ranges + zero fill; for an Inkless object, whose entries its metadata places, + the
    bytes no entry covers - bytes covered twice - bytes claimed past its end."""
    b = f["bytes"]
    parts = (b["valid"] + b["quarantined"] + b["unreadable"] + b["zero_fill"]
             + b.get("dead", 0) - b.get("overlap", 0) - b.get("past_end", 0))
    if b["file"] != parts:
        raise AssertionError(f"{what}: {b['file']} bytes, but {byte_sum(b)} = {parts}")


def byte_sum(b: dict) -> str:
    """The terms of the byte accounting, as the summary prints them."""
    text = (f"valid {b['valid']:,} + quarantined {b['quarantined']:,} + unreadable {b['unreadable']:,} + "
            f"zero fill {b['zero_fill']:,}")
    for key, sign, name in (("dead", "+", "dead bytes"), ("overlap", "-", "covered twice"),
                            ("past_end", "-", "past the end")):
        if b.get(key):
            text += f" {sign} {name} {b[key]:,}"
    return text


def _not_a_log(fmt: str) -> str:
    """The verdict on a file of the format `fmt` in which no entry ever decodes (`LogFormat.not_a_log`)."""
    return next((f.not_a_log for f in formats() if f.name == fmt), f"not {fmt}")

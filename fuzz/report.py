"""Tables: per format, and for the bombs."""

from __future__ import annotations

from fuzz import worker as W


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)])


def format_table(recorder, builds: dict[str, str]) -> str:
    rows = []
    for name in sorted(recorder.stats):
        s = recorder.stats[name]
        c = s.classes
        errors = ", ".join(f"{k} {n}" for k, n in s.errors.most_common())
        law = ", ".join(f"{k.replace('accepted_', '')} {c[k]}" for k in (W.NONCANONICAL, W.NONCANONICAL_PLAIN, W.NON_ROUNDTRIP,
                                                                          W.UNENCODABLE, W.BAD_CHECKSUM) if c[k])
        rows.append([name, builds.get(name, "?"), s.inputs, c[W.ACCEPTED] + c[W.NONCANONICAL] + c[W.NON_ROUNDTRIP]
                     + c[W.UNENCODABLE] + c[W.BAD_CHECKSUM] + c[W.NONCANONICAL_PLAIN], law or "-", errors or "-", c[W.OFFSET_OUTSIDE],
                     c[W.FOREIGN], c[W.TIMEOUT], c[W.MEMORY] + c[W.KILLED], f"{s.slowest_ms:.1f}",
                     f"{s.peak_kb / 1024:.0f}"])
    return _table(["format", "build", "inputs", "accepted", "accepted: law classes", "errors by kind",
                   "offset outside", "foreign", "time-outs", "mem/killed", "slowest ms", "peak MB"], rows)


def bomb_table(results: list[dict]) -> str:
    rows = [[r["format"], r["codec"], r["name"], f"{r['bytes']:,}", r["build"], r["outcome"],
             f"{r['ms']:.0f}" if r["ms"] is not None else "-", f"{r['peak_kb'] / 1024:.0f}"] for r in results]
    return _table(["format", "codec", "input", "bytes", "build", "outcome", "ms", "peak MB"], rows)

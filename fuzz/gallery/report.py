"""The gallery campaign's tables and summary.json."""

from __future__ import annotations

from collections import Counter

from fuzz.report import _table


def table(recorder) -> str:
    """One row per format: inputs by origin, agreements, documented differences, disagreements,
    findings (law 5 on our side), the value maker's yield, and the first causes."""
    rows = []
    for name in sorted(recorder.stats):
        s = recorder.stats[name]
        o = s.outcomes
        attempts = sum(s.values.values())
        yield_ = f"{s.values['made']}/{attempts}" if attempts else "-"
        top = "; ".join(f"{c} ({n})" for c, n in s.causes.most_common(2))
        if o["not_loaded"]:
            top = "not compared: " + next((c for c in s.causes if c.startswith("not loaded")),
                                          getattr(s, "not_loaded", "not loaded"))
        runs = sum(s.inputs.values()) + sum(s.values.values()) - s.values["made"]
        rows.append([name, s.inputs["files"], s.inputs["values"], o["same_value"], o["both_refused"], o["known"],
                     o["disagree"], o["finding"], yield_, f"{s.total_ms / max(runs, 1):.1f}", f"{s.slowest_ms:.0f}",
                     top[:140] or "-"])
    totals = Counter()
    for s in recorder.stats.values():
        totals.update(s.outcomes)
        totals["files"] += s.inputs["files"]
        totals["values"] += s.inputs["values"]
        totals["made"] += s.values["made"]
        totals["attempts"] += sum(s.values.values())
    rows.append(["**all**", totals["files"], totals["values"], totals["same_value"], totals["both_refused"],
                 totals["known"], totals["disagree"], totals["finding"], f"{totals['made']}/{totals['attempts']}",
                 "", "", ""])
    return _table(["format", "from files", "from values", "same value", "both refused", "known diff.",
                   "disagree", "findings", "values made", "ms/input", "slowest ms", "first causes"], rows)


def causes(recorder) -> str:
    """Every cause of disagreement over the formats, most frequent first, with the formats."""
    by_cause: dict[str, Counter] = {}
    for name, s in recorder.stats.items():
        for cause, n in s.causes.items():
            if cause.startswith("not loaded"):  # not compared: the table says so
                continue
            by_cause.setdefault(cause, Counter())[name] += n
    rows = [[sum(c.values()), cause[:150], ", ".join(f"{f} {n}" for f, n in c.most_common(4))]
            for cause, c in sorted(by_cause.items(), key=lambda kv: -sum(kv[1].values()))]
    return _table(["inputs", "cause", "formats"], rows) if rows else "none"


def summary(recorder, **head) -> dict:
    return {**head, "formats": {
        name: {"inputs": dict(s.inputs), "outcomes": dict(s.outcomes), "causes": dict(s.causes.most_common()),
               "known": dict(s.known), "official_refusals": dict(s.official_refusals),
               "our_refusals": dict(s.our_refusals), "values": dict(s.values),
               "value_failures": dict(s.value_reasons.most_common(10)), "slowest_ms": s.slowest_ms,
               "total_ms": s.total_ms, "peak_kb": s.peak_kb}
        for name, s in sorted(recorder.stats.items())},
        "repros": [(c, f, str(p)) for c, f, p in recorder.repros]}


def from_summary(summary: dict):
    """A recorder's stand-in rebuilt from a run's summary.json, its causes judged again by the
    known differences of today (`known.py`): `python -m fuzz.gallery --table summary.json`."""
    from types import SimpleNamespace

    from fuzz.gallery.campaign import Stats
    from fuzz.gallery.known import known_difference

    stats = {}
    for name, f in summary["formats"].items():
        s = Stats()
        s.inputs.update(f["inputs"])
        s.outcomes.update(f["outcomes"])
        s.known.update(f["known"])
        s.values.update(f["values"])
        s.official_refusals.update(f["official_refusals"])
        s.our_refusals.update(f["our_refusals"])
        s.slowest_ms, s.peak_kb = f["slowest_ms"], f["peak_kb"]
        s.total_ms = f.get("total_ms", 0.0)
        for cause, n in f["causes"].items():
            if cause.startswith("not loaded"):  # counted under outcomes already: not compared at all
                s.not_loaded = cause
                continue
            known = known_difference(cause, {})
            if known:
                finding = cause.startswith(("ours raised", "ours timed out", "worker:"))
                s.outcomes["finding" if finding else "disagree"] -= n
                s.outcomes["known"] += n
                s.known[known] += n
            else:
                s.causes[cause] += n
        stats[name] = s
    return SimpleNamespace(stats=stats, repros=summary.get("repros", []))

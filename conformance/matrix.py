"""`logcodec conformance matrix`: run every shipped testee and record the results for the docs.

Each testee's results go to `conformance/results/<name>.json` (checked in, with no
timings, so the same behaviour gives the same file); `logcodec generate` renders
them as the results page of the docs site. The results of the reference (logcodec
itself, whose output the vectors' expected values are) say so (`reference`), and the
page sets them apart from the judged implementations'.

Each results file names the SHA-256 of every vector file it was run on (`vectors`), so a
test (tests/conformance/test_results_current.py) fails, without running any testee, when
generated/vectors/ has changed since. Regenerate every testee's results (and the docs) with

    .venv/bin/logcodec conformance matrix
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

from . import expected, report, runner
from .impls import HERE, SHIPPED
from .judge import build_cases, formats_with_vectors, vector_path

RESULTS = HERE / "results"
REGENERATE = ".venv/bin/logcodec conformance matrix"


def vector_hashes() -> dict[str, str]:
    """format -> SHA-256 of its golden vector file: what a results file was produced from."""
    return {fmt: hashlib.sha256(vector_path(fmt).read_bytes()).hexdigest() for fmt in formats_with_vectors()}


def record(name: str, log=print) -> dict | None:
    shipped = SHIPPED[name]
    if shipped.missing():
        log(f"{name}: not run ({shipped.missing()}); its recorded results are kept")
        return None
    hashes = vector_hashes()  # before the run, so a vector file rewritten meanwhile shows as stale
    cases = build_cases()
    entries = expected.load(shipped.expected_failures)
    verdicts, info = runner.run(list(shipped.command), cases)
    bad = expected.apply(entries, verdicts)
    table = report.counts(verdicts)
    counts = {f"{fmt}:{op}": {"passed": row["passed"], "failed": row["failed"] + row["unexpected pass"],
                              "expected": row["expected"], "skipped": row["skipped"], "not_run": row["not run"],
                              "acceptable": row["acceptable"], "kind_differs": row["kind differs"]}
              for (fmt, op), row in sorted(table.items())}
    used = Counter(expected.match(entries, v.case.id).id for v in verdicts if v.expected_failure)
    skipped = Counter(v.detail for v in verdicts if v.outcome == "skipped")
    result = {
        "name": name, "version": info.implementation.get("version", ""), "what": shipped.what,
        "reference": shipped.reference,
        "expected_file": f"conformance/expected/{name}.yaml",
        "vectors": hashes,
        "ok": not bad, "unexpected": [v.case.id for v in bad],
        "counts": counts, "unsupported_fields": info.unsupported_fields,
        "expected_failures": [{"id": e.id, "reason": e.reason, "cases": used[e.id]} for e in entries if used[e.id]],
        "skipped_reasons": sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    role = " (the reference: the vectors' expected values are its output)" if shipped.reference else ""
    log(f"{name} {result['version']}{role}: {'ok' if not bad else f'{len(bad)} unexpected results'}")
    return result

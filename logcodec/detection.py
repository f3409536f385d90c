"""Which format an input is, told from its bytes alone, for `--format auto` on the command line
and `"format": "auto"` on the docs server.

Every format is tried that the bytes alone may be (not `kafka.response`, whose root needs the API
it answers). A format is claimed only on evidence: bytes that a rule of its schema
vouched for (fixed contents, a `valid` rule, the range of a checksum), in whole values or in
the header of a last one cut short (`-lc-partial-tail`, as a fetch size cuts it), or, where no
rule checks them, bytes that lengths read from the input framed (lengths that random bytes give
rarely end where the input does). A reading without either (a file of fixed-size index entries,
which any bytes of the right length are; a few bytes of garbage kept whole as the partial tail
of a record set) names candidates, not a format.
"""

from __future__ import annotations


def detect(inspectors: list, data: bytes, *, stream: bool = False, preferred: frozenset = frozenset()) -> dict:
    """The reading of `data` with the most evidence, as `Inspector.decode` answers, with:

    - `detected`: whether it is claimed (it has evidence);
    - `candidates`: every format that reads the whole input, best first;
    - `evidence`: `{"checked": bytes its schema's rules vouched for, "framed": bytes lengths
      framed}` (zeros when none read the whole input).

    Of the readings of the whole input, the one whose rules vouched for the most bytes wins, then
    the one whose lengths framed the most, then the one that leaves the fewest bytes in plain
    bytes fields (not a partial tail holding everything), then the one with the fewest fields (a
    batch before a set of one batch), then a format of `preferred` (a user's own schema). When
    none reads it all, the one that read furthest before its error, unclaimed."""
    by_name = {name: inspector for inspector in inspectors for name in inspector.detectable()}
    tried = [by_name[name].decode(name, data, stream=stream, trace=False) for name in by_name]
    whole = [r for r in tried if r["error"] is None and r["partial"] is None]
    if not whole:
        pick = min(tried, key=_reach)["format"]
        best = by_name[pick].decode(pick, data, stream=stream)
        best.update(detected=False, candidates=[], evidence={"checked": 0, "framed": 0})
        return best
    traced = [by_name[r["format"]].decode(r["format"], data, stream=stream) for r in whole]
    traced.sort(key=lambda r: (-r["checked"], -r["framed"], r["opaque"], _size(r["value"]),
                               r["format"] not in preferred, r["format"]))
    best = traced[0]
    best.update(detected=best["checked"] + best["framed"] > 0, candidates=[r["format"] for r in traced],
                evidence={"checked": best["checked"], "framed": best["framed"]})
    return best


def _reach(reading: dict) -> tuple:
    error = reading["error"] or reading["partial"] or {}
    return -(error.get("offset") or 0), _size(reading["value"]), reading["format"]


def _size(value) -> int:
    """Nodes of a JSON value: how much structure a reading of the input found."""
    if isinstance(value, dict):
        return 1 + sum(_size(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_size(v) for v in value)
    return 1


def unclaimed_reason(answer: dict) -> str:
    """Why a detection claimed no format, in a sentence."""
    if answer["candidates"]:
        their = "their schemas" if len(answer["candidates"]) > 1 else "its schema"
        return (f"it reads as {', '.join(answer['candidates'])}, but no rule of {their} checks any of its bytes "
                "(a magic number, a checksum) and no length frames them, so nothing tells them from other bytes "
                "of that length")
    error = answer["error"] or answer["partial"] or {}
    return (f"no format reads it whole; the furthest reading, {answer['format']}, stops with "
            f"{error.get('kind')} at offset {error.get('offset')}" + (f" in {error['path']}" if error.get("path") else ""))

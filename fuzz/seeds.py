"""The seeds: every test of every golden vector file, valid ones marked (they are decoded and
re-encoded by the recompression engine and the bomb generators; invalid ones are only mutated)."""

from __future__ import annotations

from functools import lru_cache

from logcodec.conformance.judge import formats_with_vectors, vector_file

from fuzz.engines import Seed


def formats() -> list[str]:
    """The formats with vectors."""
    return sorted(formats_with_vectors())


@lru_cache(maxsize=None)
def load_seeds(format_name: str) -> tuple[Seed, ...]:
    return tuple(Seed(format_name, t["tcId"], bytes.fromhex(t["bytes"]), t["result"] in ("valid", "acceptable"),
                      tuple(sorted(t.get("params", {}).items())))
                 for group in vector_file(format_name)["testGroups"] for t in group["tests"])

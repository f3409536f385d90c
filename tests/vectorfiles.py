"""Load the golden vector files of every format, for parametrised tests."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import logcodec

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "generated" / "vectors"


@cache
def vector_file(format_name: str) -> dict:
    family, name = format_name.split(".", 1)
    return json.loads((VECTORS / family / f"{name}.json").read_text())


def all_tests(result: str | None = None):
    """(format name, test) for every vector of every format, optionally of one result."""
    out = []
    for fmt in logcodec.formats():
        path = VECTORS / fmt.split(".")[0] / f"{fmt.split('.', 1)[1]}.json"
        if not path.exists():
            continue
        for group in vector_file(fmt)["testGroups"]:
            for test in group["tests"]:
                if result is None or test["result"] == result:
                    out.append((fmt, test))
    return out


def ids(cases) -> list[str]:
    return [f"{fmt}:{t['tcId']}" for fmt, t in cases]

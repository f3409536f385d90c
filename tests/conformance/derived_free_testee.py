"""logcodec's own testee, with every omittable field of each decode answer left out (or given wrong).

    python tests/conformance/derived_free_testee.py [strip|corrupt]

What a decode answer may leave out is read from the value JSON Schemas (generated/schema/), as a
testee author would: a property that its object does not list as `required` (the fields whose
description says "Derived: may be omitted or null." and the instances "Computed on decode"),
except instances "Given on input" (a TANK message's timestamp and seq_num), which carry what
the derived wire fields encode. `strip` leaves them out; `corrupt` gives every integer or
boolean one a wrong value instead, so the harness must fail it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parents[2] / "generated" / "schema"


def value_schema(fmt: str) -> dict:
    family, name = fmt.split(".", 1)
    return json.loads((SCHEMAS / family / f"{name}.value.json").read_text())


def is_omittable(obj: dict, name: str) -> bool:
    return name not in obj["required"] and "Given on input" not in obj["properties"][name].get("description", "")


def transform(root: dict, value, replace):
    """`value` with each omittable property's value `v` replaced by `replace(v)`; left out when that is `DROP`."""
    defs = root["$defs"]

    def resolve(node: dict) -> dict:
        return defs[node["$ref"].rsplit("/", 1)[1]] if "$ref" in node else node

    def fits(node: dict, v) -> bool:
        node = resolve(node)
        if isinstance(v, dict):
            return node.get("type") == "object" and set(v) <= set(node["properties"])
        return not isinstance(v, list) or node.get("type") == "array"

    def walk(node: dict, v):
        node = resolve(node)
        if "anyOf" in node:  # a switch or a nullable field: the first alternative the value fits
            alternative = next((a for a in node["anyOf"] if fits(a, v)), None)
            return v if alternative is None else walk(alternative, v)
        if isinstance(v, list) and node.get("type") == "array":
            return [walk(node["items"], x) for x in v]
        if isinstance(v, dict) and node.get("type") == "object":
            out = {}
            for name, x in v.items():
                x = replace(x) if is_omittable(node, name) else walk(node["properties"][name], x)
                if x is not DROP:
                    out[name] = x
            return out
        return v

    return walk(root, value)


DROP = object()


def drop(_value):
    return DROP


def wrong(value):
    """A different value of the same JSON type, for the integers and booleans derived fields are."""
    if isinstance(value, bool):
        return not value
    return value + 1 if isinstance(value, int) else value


def main() -> None:
    from logcodec.conformance.own_testee import implementation
    from logcodec.conformance.testee import serve

    replace = {"strip": drop, "corrupt": wrong}[sys.argv[1] if len(sys.argv) > 1 else "strip"]
    impl = implementation()
    for fmt, handlers in impl.handlers.items():
        decode, schema = handlers["decode"], value_schema(fmt)
        handlers["decode"] = lambda data, decode=decode, schema=schema, **params: transform(
            schema, decode(data, **params), replace)
    serve(impl)


if __name__ == "__main__":
    main()

"""The two roots of a set of message specs, as `.ksy` schemas: a request frame and a response
frame, each taken without its 4-byte size (issue 39).

A request is its header, then the body of the API and version the header names: the header's
version follows from them (the request's flexible versions take header v2, the others v1), and
an API key or version the spec set does not have is an `invalid_value` at that field. A response
header does not say what it answers, so the response takes `api_key` and `api_version` as its
params; its header is v1 in a flexible version, v0 otherwise. The bodies are the messages'
own schemas (`to_ksy.translate`), imported from `messages/`.

Two exceptions are no part of the specs but of Kafka's generator (`ApiMessageTypeGenerator`,
`requestHeaderVersion` and `responseHeaderVersion`), and are kept here as it keeps them:
ControlledShutdown v0's request has header v0 (no client id), and ApiVersions' response has
header v0 in every version (KIP-511), so that a client can read it whatever version it asked.
"""

from __future__ import annotations

from .spec import MessageSpec, Versions
from .to_ksy import TAGGED_FIELD, snake, translate_type

#: (message, versions) whose header is v0 whatever the flexible versions say (Kafka's generator).
HEADER_V0 = {"ControlledShutdownRequest": Versions(0, 0), "ApiVersionsResponse": Versions(0)}
#: The highest version a request header can name (its `request_api_version` is an int16).
MAX_VERSION = 32767
#: The folder of a family's message specs, where the messages' schemas are read as (beside them).
MESSAGES = "messages"


def frame_schemas(specs: list[MessageSpec]) -> dict[str, dict]:
    """The `request` and `response` schemas of a spec set (with its `RequestHeader` and
    `ResponseHeader`), by schema id."""
    by_name = {s.name: s for s in specs}
    out = {}
    for kind, header_name in (("request", "RequestHeader"), ("response", "ResponseHeader")):
        apis = sorted((s for s in specs if s.kind == kind and s.api_key is not None), key=lambda s: s.api_key)
        if header_name not in by_name or not apis:
            continue
        out[kind] = (_request if kind == "request" else _response)(by_name[header_name], apis)
    return out


def _request(header: MessageSpec, apis: list[MessageSpec]) -> dict:
    header_type, types, imports = translate_type(header, "header_version", f"{MESSAGES}/{TAGGED_FIELD}")
    key, version = (snake(f.name) for f in header.fields[:2])  # request_api_key, request_api_version
    seq = header_type["seq"]
    seq[0]["valid"] = {"any-of": [s.api_key for s in apis]}
    # The version's bounds looked up by the key (checked first): an error says which bound it missed.
    seq[1]["valid"] = {"min": _lowest(key, apis), "max": _highest(key, apis)}
    header_type["instances"] = {"header_version": {
        "value": _header_version(apis, key, version, flexible=2, key_checked=True),
        "doc": "The header's version: 2 where the request's version is flexible, else 1 (0 for "
               "ControlledShutdown v0).",
    }}
    return _frame("request", "A request without its 4-byte size: its header, then the body its API key and "
                             "version name.", header_type, types, imports, apis,
                  f"header.{key}", f"header.{version}", params=[], header_spec_file=header.file)


def _response(header: MessageSpec, apis: list[MessageSpec]) -> dict:
    header_type, types, imports = translate_type(header, "header_version", f"{MESSAGES}/{TAGGED_FIELD}")
    header_type["params"] = [{"id": "header_version", "type": "u1", "doc": "The header's version."}]
    known = (f"{_key_in_range('api_key', apis)} and api_version >= {_lowest('api_key', apis)} "
             f"and api_version <= {_highest('api_key', apis)}")
    params = [{"id": "api_key", "type": "s2", "doc": "The API key of the request this answers."},
              {"id": "api_version", "type": "s2", "doc": "The version of the request this answers."}]
    schema = _frame("response", "A response without its 4-byte size: its header, then the body of the API key "
                                "and version it answers, which the caller gives (a response does not say).",
                    header_type, types, imports, apis, f"({known}) ? api_key : -1", "api_version", params,
                    header_spec_file=header.file)
    schema["seq"][0]["type"] = "response_header(header_version)"
    schema["instances"] = {"header_version": {
        "value": _header_version(apis, "api_key", "api_version", flexible=1, key_checked=False),
        "doc": "The header's version: 1 where the response's version is flexible, else 0 (always 0 for ApiVersions).",
    }}
    return schema


def _frame(kind: str, doc: str, header_type: dict, types: dict, imports: set[str], apis: list[MessageSpec],
           switch_on: str, version: str, params: list[dict], header_spec_file: str) -> dict:
    schema = {
        "meta": {"id": kind, "title": f"{kind.capitalize()} frame", "endian": "be", "-lc-fills-input": True,
                 "imports": sorted(imports | {f"{MESSAGES}/{snake(s.name)}" for s in apis})},
        "doc": doc,
        "doc-ref": f"{header_spec_file}",
    }
    if params:
        schema["params"] = params
    schema["seq"] = [
        {"id": "header", "type": f"{kind}_header", "doc": f"The {kind} header."},
        {"id": "body", "doc": f"The {kind} body.",
         "type": {"switch-on": switch_on, "cases": {s.api_key: f"{snake(s.name)}({version})" for s in apis}}},
    ]
    schema["types"] = {f"{kind}_header": header_type, **types}
    return schema


def _header_version(apis: list[MessageSpec], key: str, version: str, flexible: int, key_checked: bool) -> str:
    """The expression of a header's version: `flexible` in a flexible version of the API, else
    one less, but where Kafka's generator says v0 (`HEADER_V0`). `key_checked`: the key is one
    of `apis`' by then (a request's header checks it first); else the expression checks it."""
    zero = " or ".join(f"({key} == {s.api_key} and {_within(version, HEADER_V0[s.name])})"
                       for s in apis if s.name in HEADER_V0)
    # Flexible from a version on (open-ended, as the reader checks), by key; an API that has
    # none: from after its last
    first = {s.api_key: s.valid_versions.high + 1 if s.flexible_versions.empty else s.flexible_versions.low
             for s in apis}
    flex = f"{version} >= {_by_key(key, first, MAX_VERSION + 1)}"
    if not key_checked:
        flex = f"{_key_in_range(key, apis)} and {flex}"
    value = f"({flex}) ? {flexible} : {flexible - 1}"
    return f"({zero}) ? 0 : {value}" if zero else value


def _key_in_range(key: str, apis: list[MessageSpec]) -> str:
    """An expression of whether `key` may index the lists by API key (`_by_key`): a response's
    `api_key` is the caller's, checked by nothing before."""
    return f"{key} >= 0 and {key} <= {max(s.api_key for s in apis)}"


def _lowest(key: str, apis: list[MessageSpec]) -> str:
    """An expression of the lowest valid version of the API `key` names (0 <= key <= the highest
    API key): a list by API key, indexed by `key` (-1 for a key no API has)."""
    return _by_key(key, {s.api_key: s.valid_versions.low for s in apis}, -1)


def _highest(key: str, apis: list[MessageSpec]) -> str:
    """The highest valid version of the API `key` names, as `_lowest`'s (-2 for a key no API has:
    below its lowest)."""
    return _by_key(key, {s.api_key: s.valid_versions.high for s in apis}, -2)  # (closed: the reader checks)


def _by_key(key: str, bounds: dict[int, int], missing: int) -> str:
    return f"[{', '.join(str(bounds.get(k, missing)) for k in range(max(bounds) + 1))}][{key}]"


def _within(name: str, versions: Versions) -> str:
    low = f"{name} >= {versions.low}"
    return low if versions.high is None else f"{low} and {name} <= {versions.high}"

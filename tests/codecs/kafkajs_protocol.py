"""kafkajs's response decoders as an independent check of the `kafka.response` vectors.

kafkajs (the repository's Node packages, package.json) decodes each API version it implements
with a hand-written reader per version (`src/protocol/requests/<api>/v<N>/response.js`), into
objects of its own names (`topicMetadata`, `partitionErrorCode`), read field by field in wire
order. Its names are not ours, so the check compares shapes and values, not names: both values
as nested lists, a struct's fields inlined in their order (ours without the derived lengths and
counts, and without what the version does not have), a list a list, every number, text and
bytes as read. What kafkajs makes beside the wire (a throttle time it moves or adds, an error
object made of an error code, a field computed from others) is set aside by the kafkajs
testee's rules (`conformance/testees/kafkajs/protocol.js`), each of kafkajs's own doing; a record set is compared as a client sees it (offset, timestamp,
key, value, headers). Where kafkajs still reads the bytes otherwise, the vector says why
(`QUIRKS`, flags in its notes). kafkajs writes requests but reads none: requests are not
checked here; the kafkajs testee writes them (`written`, flags of the request vectors).
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

from logcodec.kafka.records import kafka_records

ROOT = Path(__file__).resolve().parents[2]
KAFKAJS = ROOT / "node_modules" / "kafkajs"
REQUESTS = KAFKAJS / "src" / "protocol" / "requests"
SCRIPT = Path(__file__).with_name("kafkajs_responses.js")
TESTEE_KAFKAJS = ROOT / "conformance" / "testees" / "kafkajs" / "node_modules" / "kafkajs"
#: The response header kafkajs's connection takes off before a decoder reads: the correlation id
#: (a flexible header's tagged fields it leaves to the decoder, which reads them first).
HEADER = 4

#: Where kafkajs reads a vector otherwise, by flag: its description (the vectors' notes), and
#: the (API key, versions, kind of vector) it holds for (kind None: filled and defaults alike).
QUIRKS = {
    "KafkajsAuthBytes": (
        ("kafkajs hands a SaslAuthenticate response's auth bytes on written again with their 4-byte "
        "length (`new Encoder().writeBytes(decoder.readBytes())`), not as read: its value holds four "
        "bytes more than the frame's."), (36, range(3), None)),
    "KafkajsNoErrorMessage": (
        "kafkajs reads a partition reassignment response's error message and leaves it out of its value.",
        (45, range(1), None), (46, range(1), None)),
    "KafkajsLegacyFetch": (
        ("kafkajs reads the records of a Fetch response below v4 as a legacy message set only: the "
        "vector's record batch (magic 2, which a broker converts down for those versions) gives it no "
        "messages."), (1, range(4), "filled")),
}

#: Where kafkajs writes a request otherwise, as QUIRKS for responses.
REQUEST_QUIRKS = {
    "KafkajsEmptyArrayAsNull": (
        ("kafkajs writes an empty nullable array as null (`writeNullableArray`: length -1): a Metadata "
         "request for no topics goes out as one for all topics, an OffsetFetch request for no topics as "
         "one for all of the group's."), (3, range(1, 7), "defaults"), (9, range(3, 5), "defaults")),
    "KafkajsTimestampsSortedAsText": (
        ("kafkajs's Produce builders take a batch's first and max timestamps from its messages' "
         "timestamps sorted by `Array.prototype.sort()`, which compares them as text: across a power of "
         "ten (999999999999 and 1000000000000) the first is the later one, and every record's delta is "
         "taken from it."), (0, range(3, 8), "produced_across_a_power_of_ten")),
}


def available() -> bool:
    """node, kafkajs (the repository's Node packages) and the kafkajs testee's (its rules)."""
    return (shutil.which("node") is not None and (REQUESTS / "index.js").is_file()
            and (TESTEE_KAFKAJS / "package.json").is_file())


def api_names() -> dict[int, str]:
    """kafkajs's name of each API key (its `apiKeys.js`)."""
    text = (REQUESTS / "apiKeys.js").read_text()
    return {int(key): name for name, key in re.findall(r"^\s*(\w+): (\d+),", text, re.MULTILINE)}


def supported(file: str = "response.js") -> set[tuple[int, int]]:
    """The (API key, version) of every response kafkajs has a reader of; with `file="request.js"`,
    of every request it has a builder of."""
    folders = dict(re.findall(r"(\w+): require\('\./(\w+)'\)", (REQUESTS / "index.js").read_text()))
    out = set()
    for key, name in api_names().items():
        folder = folders.get(name)
        for reader in (REQUESTS / folder).glob(f"v*/{file}") if folder else ():
            out.add((key, int(reader.parent.name[1:])))
    return out


def written() -> set[tuple[int, int]]:
    """The (API key, version) of every request kafkajs has a builder of, which the kafkajs testee
    has kafkajs write (`conformance/testees/kafkajs/requests.js`)."""
    return supported("request.js")


#: The Produce vectors kafkajs writes, by kind: its builders make the record batches themselves
#: (a first offset and leader epoch of 0, the transactional bit exactly when the request has a
#: transactional id), so a filled frame (a transactional id, batches not transactional) is not
#: one of them, nor a batch below v3 (a legacy message set, which kafkajs stamps itself).
PRODUCE_WRITTEN = {"defaults": range(8), "produced": range(3, 8), "produced_across_a_power_of_ten": range(3, 8)}


def flags(api_key: int, version: int, kind: str, requests: bool = False) -> list[str]:
    """The vector's kafkajs flags: `Kafkajs` where kafkajs reads it (a response) or writes it (a
    request), with its quirk's flag."""
    if (api_key, version) not in (written() if requests else supported()):
        return []
    if requests and api_key == 0 and version not in PRODUCE_WRITTEN.get(kind, ()):
        return []
    quirks = [flag for flag, (_, *where) in (REQUEST_QUIRKS if requests else QUIRKS).items()
              if any(k == api_key and version in vs and held in (kind, None) for k, vs, held in where)]
    return ["Kafkajs", *quirks]


def decode_all(cases: list[dict]) -> dict:
    """kafkajs's value of each case ({id, key, version, hex}: the body after the header), by id:
    {"value": ...}, {"error": ...} or {"unsupported": true}."""
    done = subprocess.run(["node", str(SCRIPT)], input=json.dumps(cases), capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return json.loads(done.stdout)


# ------------------------------------------------------------------ the two values as nested lists

_INT = re.compile(r"-?\d+\Z")


def _leaf(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, str) and _INT.match(x):  # kafkajs gives 64-bit numbers as text
        return int(x)
    return x


def _bytes(b) -> tuple | None:
    return None if b is None else ("bytes", b["hex"] if isinstance(b, dict) else b.hex())


def _flat(items: list[list]) -> list:
    """A list of one-leaf elements (a list of strings) as the leaves themselves."""
    if all(len(x) == 1 and not isinstance(x[0], list) for x in items):
        return [x[0] for x in items]
    return items


def theirs(value) -> list:
    """kafkajs's value (each object's fields as read off the wire: `kafkajs_responses.js`) as nested lists."""
    return _theirs(value, [])


def _theirs(x, out: list) -> list:
    if isinstance(x, dict):
        if set(x) == {"int"}:
            out.append(int(x["int"]))
        elif set(x) == {"hex"}:
            out.append(_bytes(x))
        else:
            for k, v in x.items():
                if k == "messages":
                    out.append([_client_record(m) for m in v])
                elif v is not None:
                    _theirs(v, out)
        return out
    if isinstance(x, list):
        out.append(_flat([_theirs(v, []) for v in x]))
    else:
        out.append(_leaf(x))
    return out


def _client_record(m: dict) -> list:
    headers = [[k, _bytes(one)] for k, v in m["headers"].items() for one in (v if isinstance(v, list) else [v])]
    return [int(m["offset"]), int(m["timestamp"]), _bytes(m["key"]), _bytes(m["value"]), headers]


def ours(value) -> list:
    """Our value as nested lists: derived fields, those the version lacks (None) and an empty
    list of tagged fields (kafkajs keeps none) left out; records as a client sees them."""
    return _ours(value, [])


def _ours(v, out: list) -> list:
    if isinstance(v, (bytes, bytearray)):
        out.append(_bytes(v))
    elif isinstance(v, list):
        out.append(_flat([_ours(x, []) for x in v]))
    elif dataclasses.is_dataclass(v):
        for f in dataclasses.fields(v):
            x = getattr(v, f.name)
            if f.metadata.get("derived") or not f.compare or x is None or (f.name == "tagged_fields" and not x):
                continue
            if f.name == "records":
                out.append([[r.offset, r.timestamp, _bytes(r.key), _bytes(r.value),
                             [[k if isinstance(k, str) else k.decode(), _bytes(hv)] for k, hv in r.headers]]
                            for r in kafka_records(x)])
            else:
                _ours(x, out)
    else:
        out.append(_leaf(v))
    return out

"""A value beside its bytes: decoding with where each field lies, for the docs server's decode page,
detection (`logcodec.detection`) and `logcodec decode --format auto`.

Each codec module has a trace variant (`<module>_trace`, made by the generator as Kaitai's
`--read-pos` makes parsers that keep their positions): its decoders read as the codec's do and
record each field's range (`logcodec.runtime.trace`). `Inspector.decode` answers with the value
as canonical JSON, the ranges by value path (`records[1].headers[0].key`, as error paths and
canonical JSON spell them, without the root type's name), the text of bytes fields that are
printable UTF-8, the error if any (with what was read before it), and the evidence the reading
gives of its format. The built-in formats' trace modules are installed with the package
(`builtin`); a user's schema is compiled in memory, both variants, by the docs server
(`docserver.user_inspector`), which may import the generator.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, is_dataclass
from dataclasses import fields as dataclass_fields
from types import ModuleType

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits
from logcodec.runtime.values import field_to_json, plain_json, to_json

MAX_TEXT = 200  # characters of a bytes field's text shown; a longer text ends with "…"
_STEP = re.compile(r"\.?([A-Za-z_]\w*)|\[(\d+)\]")


@dataclass
class Format:
    name: str
    title: str
    module: ModuleType  # the codec module (maybe compiled): decodes without ranges
    trace: ModuleType  # its trace variant


class Inspector:
    """Decodes with field ranges; one per set of formats (built-in, or a user's schema)."""

    def __init__(self, formats: dict[str, Format]) -> None:
        self.formats = formats

    def names(self) -> list[str]:
        return sorted(self.formats)

    def detectable(self) -> list[str]:
        """The formats the bytes alone may be read as: not one whose root needs a parameter the
        bytes do not hold (`kafka.response`: the API it answers)."""
        return [name for name in self.names() if not self.formats[name].module.REQUIRED_PARAMS]

    def titles(self) -> dict[str, str]:
        return {name: fmt.title for name, fmt in self.formats.items()}

    def decode(self, name: str, data: bytes, *, stream: bool = False, limits: Limits = DEFAULT_LIMITS,
               trace: bool = True, params: dict | None = None) -> dict:
        """{"value", "ranges", "texts", "error", "consumed", "partial", ...}: the canonical JSON value
        (a list of values with `stream`), the field ranges, the text of bytes fields that are
        printable UTF-8, the DecodeError (as JSON) if any, and with `trace` the evidence of the
        format (`checked`, `framed`, `opaque`, `partial_tails`). Without `trace`, the codec module
        decodes alone (no ranges): a quick first try."""
        fmt = self.formats[name]
        result: dict = {"format": name, "size": len(data), "value": None, "ranges": {}, "texts": {}, "error": None,
                        "consumed": 0, "partial": None, "opaque": None, "checked": None, "framed": None,
                        "partial_value": None, "partial_tails": []}
        params = params or {}  # the root's params (a Kafka response's API), checked by the caller
        got = fmt.trace.trace(data, stream=stream, limits=limits, **params) if trace \
            else _untraced(fmt.module, data, stream, limits, params)
        if got.error is not None:
            result["error"] = got.error.to_json()
            if trace:
                result["partial_value"] = partial_value(got.trace, stream)
                result["ranges"] = got.trace.ranges
                result["texts"] = {p: t for p, v in got.trace.values.items() if (t := printable_text(v)) is not None}
            return result
        result["value"] = to_json(got.value) if not stream else [to_json(v) for v in got.value]
        result["consumed"] = got.consumed
        collect_texts(got.value, "", result["texts"])
        if stream:
            result["partial"] = got.partial.to_json() if got.partial else None
        elif got.consumed != len(data) and fmt.module.FILLS_INPUT:  # else Kaitai's reading: the rest unread
            root = fmt.module.FORMAT.split(".")[-1]
            result["error"] = DecodeError("trailing_bytes", f"{len(data) - got.consumed} bytes after the end of the "
                                          "value", got.consumed, root).to_json()
        if trace:
            tr = got.trace
            result.update(ranges=tr.ranges, opaque=tr.opaque, checked=tr.checked, framed=tr.framed,
                          partial_tails=tr.tails)
        return result


class _Untraced:
    """What the codec module's own decode gave, in the shape of a traced one (no trace)."""

    def __init__(self) -> None:
        self.value = self.error = self.partial = None
        self.consumed = 0
        self.trace = None


def _untraced(module: ModuleType, data: bytes, stream: bool, limits: Limits, params: dict) -> _Untraced:
    got = _Untraced()
    try:
        if stream:
            found = module.decode_stream(data, limits=limits, lazy=False, **params)
            got.value, got.consumed, got.partial = found.items, found.consumed, found.partial
        else:
            got.value, got.consumed = module.decode_prefix(data, limits=limits, lazy=False, **params)
    except DecodeError as exc:
        got.error = exc
    return got


# ---------------------------------------------------------------- what was read before an error


def partial_value(trace, stream: bool):
    """The canonical JSON of what a decode read before its error: the values the trace recorded,
    nested by their paths (a value read whole stands for its parts; a structure's fields are made
    canonical by its class's metadata, where the trace knows the class), with the structures left
    half read as far as they went."""
    tree = _Node()
    for path in trace.unfinished:
        if path and path in trace.classes:
            tree.at(path)
    for path, value in trace.values.items():
        if not any(outer in trace.values for outer in _outer(path)):
            node = tree.at(path)
            node.value, node.has_value = value, True
    made = tree.json(trace, "")
    return made if made is not None else ([] if stream else {})


class _Node:
    """A value path's place in what was read: its value, or its parts by name or index."""

    def __init__(self) -> None:
        self.value, self.has_value = None, False
        self.parts: dict = {}

    def at(self, path: str) -> _Node:
        node = self
        for name, index in _STEP.findall(path):
            node = node.parts.setdefault(name or int(index), _Node())
        return node

    def json(self, trace, path: str, parent: str = "", name: str = ""):
        if self.has_value:
            return _leaf_json(trace, parent, name, self.value)
        if self.parts and all(isinstance(k, int) for k in self.parts):
            out = [None] * (max(self.parts) + 1)
            for k, node in self.parts.items():
                out[k] = node.json(trace, f"{path}[{k}]", path)
            return out
        return {k: node.json(trace, _under(path, k), path, k) for k, node in self.parts.items() if isinstance(k, str)}


def _under(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def nested_path(base: str, path: str) -> str:
    """`path` (a value path: `crc`, `[1].crc`, or "" for the value itself) of a value nested at `base`."""
    return base + path if not path or path.startswith("[") else f"{base}.{path}"


def place_nested(answer: dict, base: str, shift: int, ranges: dict, texts: dict) -> None:
    """Put the ranges and texts of an `Inspector.decode` answer of bytes that lie at `shift` of a
    larger input, whose value is nested at `base` of a larger value, into that one's `ranges` and
    `texts` (a range read inside processed bytes, `[start, end, path]`, keeps its offsets and
    names the moved path of the bytes it was read from)."""
    for path, r in answer["ranges"].items():
        ranges[nested_path(base, path)] = [r[0] + shift, r[1] + shift] if len(r) == 2 else \
            [r[0], r[1], nested_path(base, r[2])]
    texts.update((nested_path(base, path), text) for path, text in answer.get("texts", {}).items())


def _outer(path: str) -> list[str]:
    """The paths of the structures and lists that hold `path`'s value."""
    cuts = [m.start() for m in re.finditer(r"[.\[]", path)]
    return [path[:k] for k in cuts if k]


def _leaf_json(trace, parent: str, name: str, value):
    cls = trace.classes.get(parent)
    if name and cls is not None and is_dataclass(cls):
        meta = {f.name: f.metadata for f in dataclass_fields(cls)}.get(name)
        if meta:
            try:
                return field_to_json(value, meta)
            except Exception:  # noqa: BLE001 (a value that is not the field's yet: its plain form)
                pass
    return plain_json(value)


# ---------------------------------------------------------------- texts


def value_path(error_path: str) -> str:
    """An error's path as a value path: without the root type's name (`record_batch_v2.records[2]`
    is `records[2]`, `record_batch_v2[1].crc` of a stream is `[1].crc`)."""
    return re.sub(r"^[A-Za-z_]\w*\.?", "", error_path)


def printable_text(data) -> str | None:
    """`data` as text when it is bytes of UTF-8 whose every character prints (spaces, tabs and
    line breaks too); None for anything else, and for no bytes."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return None
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text or not all(c.isprintable() or c in "\t\n\r" for c in text):
        return None
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def collect_texts(value, path: str, out: dict[str, str]) -> None:
    """The text of each bytes field in a decoded value (or part of one), by the value path that
    canonical JSON gives it: a value's bytes are bytes (text fields are str), its structures
    dataclasses whose fields are named as in JSON, less params, and its lists lists."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        text = printable_text(value)
        if text is not None:
            out[path] = text
    elif isinstance(value, list):
        for k, v in enumerate(value):
            collect_texts(v, f"{path}[{k}]", out)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in dataclass_fields(value):
            if not f.metadata.get("param"):
                collect_texts(getattr(value, f.name), f"{path}.{f.name}" if path else f.name, out)


# ---------------------------------------------------------------- building inspectors


def builtin() -> Inspector:
    """The built-in formats, through their installed codec modules and trace variants."""
    from logcodec.generated import FORMATS

    formats = {}
    for name, module_name in sorted(FORMATS.items()):
        trace = importlib.import_module(f"{module_name}_trace")
        formats[name] = Format(name, trace.TITLE, importlib.import_module(module_name), trace)
    return Inspector(formats)

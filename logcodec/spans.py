"""Which bytes each field of a decoded value came from, with logcodec's own decoders.

`Inspector.decode` runs a generated decoder (its pure-Python build) under a profiling
hook (`sys.setprofile`, this thread only) that records every call of a type's decode
function `_d_<type>(buf, pos, end, ...)` with where it started and where it stopped,
and every call of a processor's `decode(buf, start, end, ...)` (decompression). The
schema model (the IR of `generator.schema`) then lays out each decoded structure's
fields between those positions: fixed sizes, varints, bytes and strings by their
value, nested structures by the calls observed. Nothing here names a format; the
only knowledge used is the IR and the calling convention every generated module
follows (ARCHITECTURE.md, "The generator's passes").

The result maps value paths (`records[1].headers[0].key`, as error paths and
canonical JSON spell them, without the root type's name) to `[start, end]` in the
input. A field inside processed (decompressed) bytes maps to `[start, end, OUTER]`:
its range in those bytes, and the path of the processed field whose input bytes
hold them. A field whose extent cannot be told from the model (a sized string with
padding in the middle of a type, say) is left out, and so are the fields after it in
its structure; the structure itself keeps its range. After a `truncated` error, the field
it names (which its structure had not read when the bytes ran out) has the bytes that
were left for it, so that the page can mark that field rather than the whole value.

Beside the ranges, `texts` maps the path of each bytes field whose bytes are printable
UTF-8 to that text (`records[0].key`: `757365722d30` is `user-0`), which the decode page
shows beside the hex, as Kaitai's Web IDE does.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass, field, is_dataclass
from dataclasses import fields as dataclass_fields
from enum import IntEnum
from pathlib import Path
from types import ModuleType

from logcodec.generator.loader import load_rendered, stand_ins
from logcodec.runtime import native
from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits
from logcodec.runtime.values import field_to_json, to_json


@dataclass(eq=False)
class _Call:
    kind: str  # "type": a _d_<type> call; "proc": a processor's decode
    name: str
    module: str
    buf: object
    start: int
    end: int
    frame: object = None
    ret: object = None
    children: list = field(default_factory=list)
    taken: bool = False
    partial: dict | None = None  # a call that raised: the fields it had decoded (its `v_<field>` locals)
    cursor: int = 0  # children before it are all taken (they are mostly taken in order)


class _Recorder:
    """The call tree of one decode, made by a profiling hook on this thread."""

    def __init__(self, traced: set[int]) -> None:
        self.traced = traced  # ids of the globals of the (pure) generated modules
        self.top = _Call("top", "", "", None, 0, 0)
        self.stack = [self.top]

    def __call__(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            name = code.co_name
            loc = frame.f_locals
            if id(frame.f_globals) in self.traced and name.startswith("_d_") and "buf" in loc:
                node = _Call("type", name[3:], frame.f_globals["__name__"], loc["buf"], loc["pos"], loc["end"], frame)
            elif name == "decode" and "start" in loc and "buf" in loc and \
                    frame.f_globals.get("__name__", "").startswith("logcodec.runtime."):
                node = _Call("proc", name, "", loc["buf"], loc["start"], loc["end"], frame)
            else:
                return
            self.stack[-1].children.append(node)
            self.stack.append(node)
        elif event == "return" and len(self.stack) > 1 and self.stack[-1].frame is frame:
            node = self.stack.pop()
            node.ret = arg  # None when the call raised
            if arg is None and node.kind == "type":
                node.partial = {k[2:]: v for k, v in frame.f_locals.items() if k.startswith("v_")}
            node.frame = None


def _varint_len(buf, pos: int, end: int) -> int | None:
    """Bytes of a base-128 varint at `pos` (the runtime's primitives are all LEB128 groups)."""
    p = pos
    while p < end:
        if buf[p] < 128:
            return p + 1 - pos
        p += 1
    return None


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def value_path(error_path: str) -> str:
    """An error's path as a value path: without the root type's name (`record_batch_v2.records[2]`
    is `records[2]`, `record_batch_v2[1].crc` of a stream is `[1].crc`)."""
    return re.sub(r"^[A-Za-z_]\w*\.?", "", error_path)


MAX_TEXT = 200  # characters of a bytes field's text shown; a longer text ends with "…"


def printable_text(data: bytes) -> str | None:
    """`data` as text when it is UTF-8 and every character prints (spaces, tabs and line breaks
    too); None for anything else, and for no bytes."""
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
                collect_texts(getattr(value, f.name), _join(path, f.name), out)


class _Layout:
    """Lays out the fields of the recorded calls; `out` maps paths to ranges."""

    def __init__(self, types: dict[tuple[str, str], object], modules: dict | None = None) -> None:
        self.types = types
        self.modules = modules or {}
        self.out: dict[str, list] = {}
        self.opaque = 0  # input bytes held by plain bytes fields (what the reading left unexplained)
        self.tails: list[str] = []  # fields holding a partial trailing element
        self.reached = 0  # where the last structure laid out ended (for one that raised: how far it got)
        self.checked = 0  # input bytes that a rule vouched for: fixed contents, `valid`, a checksum's range
        self.in_cut = False  # laying out an element cut short: its fields read whole passed their rules
        self.framed = 0  # input bytes of fields whose size a length read from the input gave (which had to fit)
        self.texts: dict[str, str] = {}  # of the bytes fields decoded before an error (see `collect_texts`)
        self.cut: tuple[str, int | None] | None = None  # (value path, offset) of the field a `truncated` error names

    def record(self, path: str, start: int, end: int, region) -> None:
        if region is None:
            self.out[path] = [start, end]
        else:
            self.out[path] = [start, end, region]

    @staticmethod
    def take(node: _Call, kind: str, buf, start: int, failed: bool = False) -> _Call | None:
        """The next child call of `kind` at `start` in `buf` that returned (or, `failed`, that raised)."""
        kids = node.children
        while node.cursor < len(kids) and kids[node.cursor].taken:
            node.cursor += 1
        for k in range(node.cursor, len(kids)):
            c = kids[k]
            if not c.taken and c.kind == kind and c.buf is buf and c.start == start and \
                    (c.ret is None if failed else c.ret is not None):
                if failed and c.partial is None:
                    continue
                c.taken = True
                return c
        return None

    # -------------------------------------------------- what a call that raised had decoded

    def _meta(self, module: str, t) -> dict:
        mod = self.modules.get(module)
        cls = getattr(mod, t.class_name, None) if mod is not None else None
        if cls is None or not is_dataclass(cls):
            return {}
        return {f.name: f.metadata for f in dataclass_fields(cls)}

    def json_of(self, node: _Call, t, fid: str, val):
        meta = self._meta(node.module, t).get(fid)
        if meta:
            try:
                return field_to_json(val, meta)
            except Exception:  # noqa: BLE001 (a half-built value: fall back to its plain form)
                pass
        return _loose_json(val)

    def failed_into(self, node: _Call, f, cur: int, path: str, region):
        """The partial JSON of the call that raised while decoding field `f` at `cur`, laid out."""
        buf = node.buf
        proc = self.take(node, "proc", buf, cur) if f.process else None
        if proc is not None:
            self.record(path, proc.start, proc.end, region)
            b2, s2, _ = proc.ret
            sub = self.take(node, "type", b2, s2, failed=True)
            return None if sub is None else self.struct(sub, path, region if b2 is buf else (region or path))
        # no processor call: none, or one its arguments let through (`passthrough`): the bytes as stored
        sub = self.take(node, "type", buf, cur, failed=True)
        if sub is None:
            return None
        got = self.struct(sub, path, region)
        if self.reached > sub.start:  # the bytes it had read, as far as they can be placed
            self.record(path, sub.start, self.reached, region)
        return got

    def struct(self, node: _Call, path: str, region):
        """Lay out the fields of one decoded structure (its own range is recorded by the caller).

        For a call that raised, lay out what it had decoded and return that as JSON (for an
        unwrapped type, its one field's)."""
        t = self.types.get((node.module, node.name))
        self.reached = node.start
        if t is None:
            return None
        pout = None
        if node.ret is not None:
            value, stop = node.ret
        elif node.partial is not None:
            value, stop, pout = _Partial(node.partial), None, {}
        else:
            return None
        at: dict[str, tuple[int, int]] = {}  # where each field of this structure lies
        try:
            self.reached = self._fields(node, t, value, stop, path, region, at, pout)
        finally:
            if region is None and stop is not None:
                self._count_checked(t, node.start, stop, at)
            elif region is None and self.in_cut:
                self._count_rules(t, at)
        if pout is not None and t.unwrap:
            return pout.get(t.seq[0].id, [])
        return pout

    def _count_rules(self, t, at: dict) -> None:
        """The bytes of the fields with fixed contents or a `valid` rule that a call cut short had read."""
        for f in t.seq:
            if f.id in at and (f.contents is not None or f.valid):
                self.checked += at[f.id][1] - at[f.id][0]

    def cut_evidence(self, node: _Call, start: int) -> int:
        """What rules vouch for in the last element of a list cut short by the end of the data
        (`-lc-partial-tail`), which the decoder gave up at `start`: the bytes of its fields that
        were read whole and passed their checks (a check that failed would have been the error)."""
        cut = self.take(node, "type", node.buf, start, failed=True)
        if cut is None:
            return 0
        scratch = _Layout(self.types, self.modules)
        scratch.in_cut = True
        scratch.struct(cut, "", None)
        return scratch.checked

    def _count_checked(self, t, start: int, stop: int, at: dict) -> None:
        for f in t.seq:
            if f.id not in at:
                continue
            if f.contents is not None or f.valid:
                self.checked += at[f.id][1] - at[f.id][0]
            if f.checksum:
                lo = at.get(f.checksum.get("from"), (start, start))[0] if f.checksum.get("from") else start
                hi = at.get(f.checksum.get("to"), (stop, stop))[1] if f.checksum.get("to") else stop
                self.checked += max(0, hi - lo)

    def _fields(self, node: _Call, t, value, stop, path: str, region, at: dict, pout: dict | None) -> int:
        cur, seq, i = node.start, t.seq, 0
        while i < len(seq):
            f = seq[i]
            if pout is not None and f.id not in value.d:  # the field being decoded when the call raised
                fpath = path if t.unwrap else _join(path, f.id)
                got = self.failed_into(node, f, cur, fpath, region)
                if got is not None:
                    pout[f.id] = got
                    return max(cur, self.reached)
                later = [] if t.unwrap else [_join(path, g.id) for g in seq[i + 1:]]
                return node.end if self.cut_short([fpath, *later], cur, node.end, region) else cur
            if f.type.kind == "bits":  # a run of bit fields shares whole bytes
                run = [f]
                while i + len(run) < len(seq) and seq[i + len(run)].type.kind == "bits":
                    run.append(seq[i + len(run)])
                if pout is not None:
                    for g in run:
                        if g.id in value.d:
                            pout[g.id] = self.json_of(node, t, g.id, value.d[g.id])
                width = -(-sum(g.type.size for g in run) // 8)
                for g in run:
                    if t.unwrap or getattr(value, g.id, None) is not None or g.if_expr is None:
                        self.record(path if t.unwrap else _join(path, g.id), cur, cur + width, region)
                        at[g.id] = (cur, cur + width)
                cur += width
                i += len(run)
                continue
            val = getattr(value, f.id, None) if not t.unwrap or pout is not None else value
            fpath = path if t.unwrap else _join(path, f.id)
            i += 1
            if f.if_expr is not None and val is None:
                continue
            if pout is not None:
                pout[f.id] = self.json_of(node, t, f.id, val)
                collect_texts(val, fpath, self.texts)
            if f.repeat:
                p = cur
                elems = val if isinstance(val, list) else []
                for k, ev in enumerate(elems):
                    p = self.one(f, ev, p, node, f"{fpath}[{k}]", region)
                    if p is None:
                        break
                if pout is not None and p is not None:  # the element being decoded when the call raised
                    got = self.failed_into(node, f, p, f"{fpath}[{len(elems)}]", region)
                    if got is not None:
                        pout[f.id] = list(pout[f.id] or []) + [got]
                        self.record(fpath, cur, max(p, self.reached), region)
                        return self.reached
                    if self.cut_short([f"{fpath}[{len(elems)}]"], p, node.end, region):
                        self.record(fpath, cur, node.end, region)
                        return node.end
                end = p
            else:
                end = self.one(f, val, cur, node, fpath, region)
            if end is None and i == len(seq) and stop is not None:  # the last field runs to the end of the structure
                end = stop
            if end is None:
                return cur  # the rest of this structure cannot be placed
            if f.repeat or end != cur or fpath not in self.out:
                self.record(fpath, cur, end, region)
            at[f.id] = (cur, end)
            if i >= 2 and seq[i - 2].partial_tail and end > cur and region is None:
                self.tails.append(fpath)  # the bytes of a last element cut short (-lc-partial-tail)
                self.checked += self.cut_evidence(node, cur)
            cur = end
        return cur

    def cut_short(self, paths: list[str], start: int, end: int, region) -> bool:
        """Whether a `truncated` error names one of `paths`: the field its structure was reading at
        `start` when the bytes ran out, or a later one read with it (a run of fixed fields is read
        at once). If so, that field's bytes are those left for it, up to the end of its structure's
        (`end`): from `start`, or for a later field from the error's offset (which counts from the
        input's start, so not inside processed bytes)."""
        if self.cut is None or self.cut[0] not in paths or self.cut[0] in self.out:
            return False
        path, offset = self.cut
        if path != paths[0]:
            if region is not None or offset is None or not start <= offset <= end:
                return False
            start = offset
        self.record(path, start, end, region)
        return True

    def one(self, f, val, cur: int, node: _Call, path: str, region) -> int | None:
        """Place one element of field `f` at `cur`; returns where it ends, or None when unknown."""
        ref = f.type
        buf = node.buf
        proc = self.take(node, "proc", buf, cur) if f.process else None
        if proc is not None:
            self.record(path, proc.start, proc.end, region)
            b2, s2, _ = proc.ret
            inner = region if b2 is buf else (region or path)
            sub = self.take(node, "type", b2, s2)
            if sub is not None:
                self.struct(sub, path, inner)
            elif region is None:
                self.opaque += proc.end - proc.start
            return proc.end
        if f.contents is not None:
            return cur + len(f.contents)
        if ref.kind in ("int", "float"):
            return cur + ref.size
        if ref.kind == "user" and ref.user.primitive:
            n = _varint_len(buf, cur, node.end)
            return None if n is None else cur + n
        if ref.kind in ("user", "switch"):
            sub = self.take(node, "type", buf, cur)
            if sub is not None:
                end = sub.end if (f.size is not None or f.size_eos) else sub.ret[1]
                self.record(path, cur, end, region)
                self.struct(sub, path, region)
                self.count_framed(f, cur, end, region)
                return end
            if ref.kind == "user":
                return None
        # bytes and text (or a switch's case that reads bytes)
        end = self.bytes_end(f, val, cur, node)
        if end is not None and region is None and ref.kind != "str" and not isinstance(val, str):
            self.opaque += end - cur
        if end is not None:
            self.count_framed(f, cur, end, region)
        return end

    def count_framed(self, f, start: int, end: int, region) -> None:
        """Bytes a length read from the input framed: evidence of the format where no rule checks
        them, since lengths that random bytes give rarely end where the input does."""
        if region is None and f.size is not None and not _constant(f.size):
            self.framed += end - start

    @staticmethod
    def bytes_end(f, val, cur: int, node: _Call) -> int | None:
        ref = f.type
        if f.size_eos:
            return node.end
        if isinstance(val, (bytes, bytearray)):
            n = len(val)
        elif isinstance(val, str):
            try:
                n = len(val.encode(ref.encoding or "utf-8"))
            except (LookupError, UnicodeError):
                return None
        else:
            return None
        if f.size is not None:
            return cur + n if f.terminator is None and f.pad_right is None else None
        if f.terminator is not None:
            return cur + n + (len(f.terminator) if f.consume and not f.include else 0)
        return None


def _constant(expr) -> bool:
    """Whether a size expression is a literal number (the IR's `Num`)."""
    from logcodec.generator.expr import Num  # (the IR's own module: spans reads the IR throughout)

    return isinstance(expr, Num)


class _Partial:
    """The fields a call that raised had decoded, read like a value's attributes."""

    def __init__(self, d: dict) -> None:
        self.d = d

    def __getattr__(self, name: str):
        return self.d.get(name)


def _loose_json(v):
    """Canonical JSON of a value without its field's metadata (part of a value that failed)."""
    if v is None or isinstance(v, (bool, str, float)):
        return v
    if isinstance(v, IntEnum):
        return v.name
    if isinstance(v, int):
        return v if -(1 << 53) <= v <= (1 << 53) else str(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, list):
        return [_loose_json(x) for x in v]
    if is_dataclass(v):
        try:
            return to_json(v)
        except Exception:  # noqa: BLE001
            return {f.name: _loose_json(getattr(v, f.name)) for f in dataclass_fields(v)}
    return repr(v)


def _type_index(schemas) -> dict[tuple[str, str], object]:
    out = {}
    seen = set()
    todo = list(schemas)
    while todo:
        s = todo.pop()
        if id(s) in seen:
            continue
        seen.add(id(s))
        todo.extend(s.imports)
        for t in s.all_types():
            out[(s.module, t.name)] = t
    return out


def load_pure(schemas, sources: dict[str, str]) -> dict[str, ModuleType]:
    """Pure-Python copies of generated modules, by module name, from their sources.

    Each copy imports the others' copies (a module imports another schema's types by
    module name): they stand in `sys.modules` only while they are executed. A copy runs
    the source its compiled build is made from (`native.compiled_source`), whose decoders
    call each type's decoder: run as it is, a source writes some of them out in their
    lists' loops (ARCHITECTURE.md, "One source, two builds"), and the hook sees no call."""
    modules: dict[str, ModuleType] = {}
    order = [s for s in _with_imports(schemas) if s.module in sources]
    with stand_ins([s.module for s in order] + [s.module.rsplit(".", 1)[0] for s in order]):
        for s in order:
            parent = s.module.rsplit(".", 1)[0]
            if parent not in sys.modules:  # a user's package, compiled in memory
                pkg = ModuleType(parent)
                pkg.__path__ = []
                sys.modules[parent] = pkg
            source = native.compiled_source(sources[s.module].encode()).decode()
            modules[s.module] = load_rendered(s.module, source)
    return modules


@dataclass
class Format:
    name: str
    schema: object  # generator.schema.Schema
    module: ModuleType  # pure-Python copy, traced
    fast: ModuleType | None = None  # the module as imported (maybe compiled): for decodes without ranges


class Inspector:
    """Decodes with field ranges; one per set of formats (built-in, or a user's schema)."""

    def __init__(self, formats: dict[str, Format]) -> None:
        self.formats = formats
        self._traced = {id(f.module.__dict__) for f in formats.values()}
        self._types = _type_index([f.schema for f in formats.values()])
        self._modules = {f.module.__name__: f.module for f in formats.values()}

    def names(self) -> list[str]:
        return sorted(self.formats)

    @staticmethod
    def _before_error(rec: _Recorder, lay: _Layout, stream: bool):
        calls = [c for c in rec.top.children if c.kind == "type"]
        if not stream:
            return lay.struct(calls[0], "", None) if calls and calls[0].ret is None else None
        out = []
        for k, node in enumerate(calls):
            if node.ret is not None:
                lay.record(f"[{k}]", node.start, node.ret[1], None)
                lay.struct(node, f"[{k}]", None)
                out.append(to_json(node.ret[0]))
                collect_texts(node.ret[0], f"[{k}]", lay.texts)
            else:
                out.append(lay.struct(node, f"[{k}]", None))
        return out

    def decode(self, name: str, data: bytes, *, stream: bool = False, limits: Limits = DEFAULT_LIMITS,
               trace: bool = True) -> dict:
        """{"value", "ranges", "texts", "error", "consumed", "partial"...}: the canonical JSON value (a
        list of values with `stream`), the field ranges, the text of bytes fields that are printable
        UTF-8, and the DecodeError (as JSON) if any."""
        fmt = self.formats[name]
        mod = fmt.module if trace or fmt.fast is None else fmt.fast
        rec = _Recorder(self._traced)
        result: dict = {"format": name, "size": len(data), "value": None, "ranges": {}, "texts": {}, "error": None,
                        "consumed": 0, "partial": None, "opaque": None, "checked": None, "framed": None,
                        "partial_value": None,
                        "partial_tails": []}
        old = sys.getprofile()
        if trace:
            sys.setprofile(rec)
        try:
            if stream:
                got = mod.decode_stream(data, limits=limits)
            else:
                got = mod.decode_prefix(data, limits=limits)
        except DecodeError as exc:
            got = exc
        finally:
            if trace:
                sys.setprofile(old)
        lay = _Layout(self._types, self._modules)
        roots = [c for c in rec.top.children if c.kind == "type" and c.ret is not None]
        if isinstance(got, DecodeError):
            result["error"] = got.to_json()
            if trace:  # what was decoded before the error, with its ranges
                lay.cut = (value_path(got.path), got.offset) if got.kind == "truncated" else None
                result["partial_value"] = self._before_error(rec, lay, stream)
                result["ranges"], result["texts"] = lay.out, lay.texts
            return result
        if stream:
            result["value"] = [to_json(v) for v in got.items]
            collect_texts(got.items, "", result["texts"])
            result["consumed"] = got.consumed
            result["partial"] = got.partial.to_json() if got.partial else None
            for k, node in enumerate(roots[: len(got.items)]):
                lay.record(f"[{k}]", node.start, node.ret[1], None)
                lay.struct(node, f"[{k}]", None)
        else:
            value, pos = got
            result["value"] = to_json(value)
            collect_texts(value, "", result["texts"])
            result["consumed"] = pos
            if roots:
                lay.struct(roots[0], "", None)
            if pos != len(data):
                root = fmt.schema.root.name
                result["error"] = DecodeError("trailing_bytes", f"{len(data) - pos} bytes after the end of the value",
                                              pos, root).to_json()
        result["ranges"] = lay.out
        result["opaque"] = lay.opaque if trace else None
        result["checked"] = lay.checked if trace else None
        result["framed"] = lay.framed if trace else None
        result["partial_tails"] = lay.tails
        return result


# ---------------------------------------------------------------- building inspectors


def builtin(docs_dir: Path) -> Inspector:
    """The built-in formats, with the schema copies the docs site carries (`<family>/<id>.ksy`)
    and the sources of the installed generated modules; a format whose schema copy is missing
    or differs from its module's is left out."""
    from logcodec.generated import FORMATS
    from logcodec.generator.schema import Loader, SchemaError

    loader = Loader(Path(docs_dir), strict=False)
    schemas, sources = [], {}
    for name, module_name in sorted(FORMATS.items()):
        family, sid = name.split(".", 1)
        try:
            schema = loader.load(f"{family}/{sid}.ksy")
        except (SchemaError, OSError):
            continue
        schemas.append(schema)
    picked = []
    for s in _with_imports(schemas):
        if s.root.primitive:
            continue
        spec = importlib.util.find_spec(s.module)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        source = Path(spec.origin).read_text()
        if f'SCHEMA_SHA256 = "{s.sha256}"' not in source:
            continue
        sources[s.module] = source
        picked.append(s)
    ok = [s for s in picked if all(i.module in sources or i.root.primitive for i in _with_imports([s]) if i is not s)]
    modules = load_pure(ok, sources)
    return Inspector({s.format_name: Format(s.format_name, s, modules[s.module], importlib.import_module(s.module))
                      for s in ok if s.format_name in FORMATS})


def _with_imports(schemas) -> list:
    out, seen = [], set()

    def visit(s):
        if id(s) in seen:
            return
        seen.add(id(s))
        for i in s.imports:
            visit(i)
        out.append(s)

    for s in schemas:
        visit(s)
    return out

"""What the trace decoders record: where each field of a value lies in the input, as it is read.

A codec module's trace variant (`<module>_trace`, the Python back end's trace profile, as
Kaitai's `--read-pos`) decodes as its checked decoders do and tells a `Trace` where each field
begins and ends. The trace keeps:

- `ranges`: each field's value path (`records[1].headers[0].key`, as canonical JSON spells it,
  without the root type's name) to `[start, end]` in the input; a field inside processed
  (decompressed) bytes to `[start, end, OUTER]`, its range in those bytes and the path of the
  processed field whose input bytes hold them;
- the leaf values read (`values`) and the class of each structure begun (`classes`), from which
  `partial_value` builds what was decoded before an error;
- the evidence a reading gives of its format (`logcodec.detection`): `checked`, the input bytes a
  rule vouched for (fixed contents, a `valid` rule, a checksum's range), also in the fields of a
  last element cut short before the data ran out; `framed`, the bytes whose size a length read
  from the input gave; `opaque`, the bytes left in plain bytes fields;
- `tails`: the fields holding the bytes of a last element cut short (`-lc-partial-tail`).

Nothing here knows a format: the generated code says what each field is (its flags).
"""

from __future__ import annotations

import re

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import Limits, budget

#: A field's flags, as a trace decoder gives them: a rule checks its bytes (fixed contents or
#: `valid`); a length read from the input sizes it; it holds the bytes of a cut-off last element.
RULE, FRAMED, TAIL = 1, 2, 4


class Trace:
    """The record of one traced decode (see the module's docstring)."""

    def __init__(self) -> None:
        self.ranges: dict[str, list] = {}
        self.values: dict[str, object] = {}
        self.classes: dict[str, type] = {}
        self.checked = self.framed = self.opaque = 0
        self.tails: list[str] = []
        self.stack: list[list] = []  # the fields being read: [path, start, end bound]
        self.regions: list[str | None] = []  # the processed field whose bytes are read, if any
        self.base = 0  # what offsets read in a copy of the input's tail add (a partial tail's)
        self.log: list[tuple[str, int, int]] = []  # (path, bytes, flags) of each range, in order
        self.finished = False  # a user's schema computes some instances when first read: not traced
        self.unfinished: list[str] = []  # the fields being read when an error stopped the decode

    # ------------------------------------------------------------ as the decoders read

    def path(self) -> str:
        return self.stack[-1][0] if self.stack else ""

    def begin(self, name: str, pos: int, end: int) -> None:
        """The field `name` of the structure being read starts at `pos` (its bytes end by `end`)."""
        if not self.finished:
            self.stack.append([_join(self.path(), name), pos, end])

    def element(self, index: int, pos: int, end: int) -> None:
        """Element `index` of the list being read starts at `pos`."""
        if not self.finished:
            self.stack.append([f"{self.path()}[{index}]", pos, end])

    def end(self, pos: int, value=None, flags: int = 0) -> None:
        """The innermost field begun ends at `pos`, holding `value`."""
        if self.finished:
            return
        path, start, _ = self.stack.pop()
        self.record(path, start, pos, value, flags)

    def leaf(self, name: str, start: int, stop: int, value, flags: int = 0) -> None:
        """A field read with others of a run of fixed fields: its bytes, without a begin and end."""
        if not self.finished:
            self.record(_join(self.path(), name), start, stop, value, flags)

    def kind(self, cls: type) -> None:
        """The structure being read (at the innermost path) is a value of `cls`."""
        if not self.finished:
            self.classes[self.path()] = cls

    def enter(self, processed: bool) -> None:
        """What follows is read from the bytes of the innermost field, processed (decompressed) when
        `processed`: their offsets are the processed bytes', in the region of the outermost such
        field (or the same bytes as the input's, when nothing was processed)."""
        if not self.finished:
            outer = self.regions[-1] if self.regions else None
            self.regions.append(outer or (self.path() if processed else None))

    def leave(self) -> None:
        if not self.finished:
            self.regions.pop()

    def shift(self, by: int) -> None:
        """Offsets read from here are those of a copy of the input from `by` on (or, negative, back)."""
        if not self.finished:
            self.base += by

    def vouch(self, start: int, stop: int) -> None:
        """A checksum over the input's bytes from `start` to `stop` holds."""
        if not self.finished and not self.region():
            self.checked += max(0, stop - start)

    def mark(self) -> tuple[int, int]:
        """Where the trace stands, to drop what an element cut short recorded (`cut`)."""
        return len(self.stack), len(self.log)

    def cut(self, mark: tuple[int, int]) -> None:
        """An element cut short by the end of the data is no value: what it recorded goes, but the
        bytes its rules had vouched for stay the evidence they are (its header was there)."""
        if self.finished:
            return
        depth, logged = mark
        del self.stack[depth:]
        for path, size, flags in self.log[logged:]:
            self.ranges.pop(path, None)
            self.values.pop(path, None)
            if flags & RULE:
                self.checked += size
        del self.log[logged:]

    # ------------------------------------------------------------ recorded

    def region(self) -> str | None:
        return self.regions[-1] if self.regions else None

    def record(self, path: str, start: int, stop: int, value, flags: int) -> None:
        region = self.region()
        if region is None:
            self.ranges[path] = [start + self.base, stop + self.base]
            if isinstance(value, (bytes, bytearray)):
                self.opaque += stop - start
            self.checked += stop - start if flags & RULE else 0
            self.framed += stop - start if flags & FRAMED else 0
            if flags & TAIL and stop > start:
                self.tails.append(path)
        else:
            self.ranges[path] = [start, stop, region]
        if not isinstance(value, list):
            self.values[path] = value
        self.log.append((path, stop - start if region is None else 0, flags))

    def failed(self, exc: DecodeError, root_name: str) -> None:
        """An error stopped the decode: each structure being read keeps the bytes it had read, and
        the field a `truncated` error names the bytes that were left for it (up to its structure's
        end), so that a page can mark where the bytes ran out."""
        cut = _value_path(exc.path, root_name) if exc.kind == "truncated" else None
        self.unfinished = [path for path, _, _ in self.stack]
        for path, start, end in reversed(self.stack):
            if path and path == cut and path not in self.ranges:
                self.ranges[path] = [start + self.base, end + self.base]
                cut = None
                continue
            if cut is not None and _within(cut, path) and exc.offset is not None and start <= exc.offset <= end \
                    and cut not in self.ranges and not self.region():
                self.ranges[cut] = [exc.offset, end]  # a field of a run read at once: from where it starts
                cut = None
            reached = max((r[1] for p, r in self.ranges.items() if _within(p, path) and len(r) == 2), default=start)
            if path and path not in self.ranges and reached > start:
                self.ranges[path] = [start + self.base, reached]
        self.stack.clear()


def _within(path: str, outer: str) -> bool:
    """Whether `path` is `outer` or a path inside it."""
    return not outer or path == outer or path.startswith((outer + ".", outer + "["))


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _value_path(error_path: str, root_name: str) -> str:
    """An error's path as a value path: without the root type's name (`record_batch_v2.records[2]`
    is `records[2]`; `record_batch_v2[1].crc` of a stream is `[1].crc`)."""
    return re.sub(rf"^{re.escape(root_name)}\.?", "", error_path)


# ---------------------------------------------------------------- the entry of a trace module


class Traced:
    """A traced decode: the value (or values, end to end), where it stopped, and its `Trace`."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.value = None  # the value, or a list of them with `stream`; None after an error
        self.consumed = 0
        self.partial: DecodeError | None = None  # a stream's cut-off last value
        self.error: DecodeError | None = None


def run(decoder, name: str, data: bytes, limits: Limits, stream: bool, params: tuple) -> Traced:
    """Decode `data` with a trace decoder as `decode_prefix` (or, `stream`, `decode_stream`) does
    with the checked one, recording into a new `Trace`; an error is kept, not raised."""
    trace = Trace()
    got = Traced(trace)
    root = name.split(".")[-1]
    lim = budget(limits)
    trace.stack.append(["", 0, len(data)])  # the value (or the stream) as a whole
    try:
        if stream:
            _run_stream(decoder, root, data, lim, params, got)
        else:
            got.value, got.consumed = decoder(data, 0, len(data), lim, *params, tr=trace)
    except DecodeError as exc:
        got.error, got.value = exc, None
        if not stream:
            exc.within(root)
        trace.failed(exc, root)
    except RecursionError:
        got.error, got.value = DecodeError("limit_exceeded", "nesting too deep", 0, root), None
    trace.finished = True
    return got


def _run_stream(decoder, root: str, data: bytes, lim, params: tuple, got: Traced) -> None:
    """Values end to end (`decode_stream`): a cut-off last one ends the stream as `partial`."""
    trace, got.value, pos = got.trace, [], 0
    while pos < len(data):
        mark = trace.mark()
        trace.element(len(got.value), pos, len(data))
        try:
            value, pos = decoder(data, pos, len(data), lim, *params, tr=trace)
        except DecodeError as exc:
            exc.within(f"{root}[{len(got.value)}]")
            if exc.kind != "truncated":
                raise
            got.partial = exc
            trace.cut(mark)
            break
        trace.end(pos, value)
        got.value.append(value)
    got.consumed = pos

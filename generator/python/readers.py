"""The C companion's readers of a root's bulk list, called first by the decoders that read it."""

from __future__ import annotations

from ..schema import Field
from . import fast_c
from .code import Lines
from .fast_encode import FastEncoders


class CReaders:
    """A decoder's calls of its module's C readers (mixed into `Decoder`)."""

    def fast_reader(self, f: Field) -> tuple[str, list[str]] | None:
        """The C companion's reader of a root's bulk list (`FastEncoders.reader`), a list long
        enough for a call of C to pay; None for the other lists."""
        bulk = self.m.bulk
        if bulk is None or self.t is not bulk.holder or f is not bulk.items or not self.tuple_elements(f):
            return None
        return FastEncoders(self).reader(f)

    def read_in_c(self, c: Lines, f: Field, reader: tuple[str, list[str]], var: str, path: str) -> int:
        """Before a list's loop: the C companion reads its elements, where it is built and the
        caller asked for tuples; where it reads nothing (any doubt about the bytes), the loop reads
        them. A generator asks it for 64 at a time and hands out each, or, given columns
        (`decode_columns`), for all of them into their columns; a decoder of the whole list asks
        once and skips the loop, whose `else:` is opened here (returns the indent it adds)."""
        name, guard = reader
        tests = " and ".join(["_FAST is not None", "elem_tuples", *(["cols is None"] if self.yielding else []), *guard])
        call = f"_FAST.{name}(buf, pos, end, {{}}, _elements_left(lim))"
        if self.yielding:
            with c.block(f"if {tests}:"):
                with c.block(f"while i < count and (fd := {call.format('min(count - i, 64)')}) is not None:"):
                    c("chunk, pos, taken = fd")
                    self.spend_elements(c, "taken", path)
                    c("i += len(chunk)")
                    c("yield from chunk")
            if self.m.columned is not None:  # `decode_columns`: all of them, into their columns
                columns = " and ".join(["_FAST is not None", "cols is not None", *guard])
                call = f"_FAST.{fast_c.columns_name(name)}(buf, pos, end, count, _elements_left(lim), cols)"
                with c.block(f"elif {columns} and (fd := {call}) is not None:"):
                    c("pos, taken = fd")
                    self.spend_elements(c, "taken", path)
                    c("i = count")
            return 0
        with c.block(f"if {tests} and (fd := {call.format('count')}) is not None:"):
            c(f"{var}, pos, taken = fd")
            self.spend_elements(c, "taken", path)
        c("else:")
        return 1

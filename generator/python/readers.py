"""The C companion's readers of a root's bulk list, called first by the decoders that read it."""

from __future__ import annotations

from ..schema import Field
from .code import Lines
from .fast_encode import FastEncoders


def c_form() -> str:
    """The last argument of a C reader: the classes of the value objects it makes, or None for
    tuples (a decode's `tuples`)."""
    return "None if elem_tuples else _C_CLASSES"


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
        """Before a list's loop: the C companion reads its elements, where it is built, as value
        objects of the module's classes or as tuples (`c_form`); where it reads nothing (any
        doubt about the bytes), the loop reads them. A decoder of the whole list asks once and
        skips the loop, whose `else:` is opened here (returns the indent it adds); a generator
        asks otherwise (`Generator.read_in_c`)."""
        name, guard = reader
        tests = " and ".join(["_FAST is not None", *guard])
        left = f"{c.limits_call('elements_left')}(lim)"
        with c.block(f"if {tests} and (fd := _FAST.{name}(buf, pos, end, count, {left}, {c_form()})) is not None:"):
            c(f"{c.local(var)}, pos, taken = fd")
            self.spend_elements(c, "taken", path)
        c("else:")
        return 1

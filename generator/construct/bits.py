"""Bit fields as construct reads them: each run of the plan's `bit_runs` is one `BitStruct`.

The plan's runs are Kaitai's reading of bits, one buffer of bits from a byte boundary to the
next byte-aligned field. construct reads a run bit by bit, so it needs neither the Python
codecs' groups of whole bytes (`TypePlan.bit_groups`) nor their reading one by one
(`bits_one_by_one`): a run that is repeated or conditional is read the same way.
"""

from __future__ import annotations

from ..layout import BitRun
from .derived import field_doc
from .fields import Fields
from .text import call, comment


class BitRuns:
    """The `BitStruct`s of one type's bit runs (its `Fields`)."""

    def __init__(self, fields: Fields) -> None:
        self.fields, self.m = fields, fields.m
        self.hidden = 0  # groups among other fields so far, each `_bits_<n>`

    def bit_struct(self, run: BitRun, base: str, head: list[str], tail: list[str]) -> str:
        """A `BitStruct` of a run (most significant bit first), padded to its last byte.
        Little-endian bit order reads the run as a little-endian integer from its least
        significant bit, which is the same fields in reverse order in the byte-swapped run."""
        self.m.use("BitStruct")
        little = run.endian == "le"
        entries = []
        for f in reversed(run.fields) if little else run.fields:
            entries += comment(field_doc(self.fields.cx, f), "")
            entries.append(f'"{f.id}" / {self.fields.field(f, base)},')
        if run.padding:  # the next field starts at the next byte, as in Kaitai
            self.m.use("Padding")
            pad = f"Padding({run.padding}),  # to the end of the byte"
            entries = [pad, *entries] if little else [*entries, pad]
        c = call("BitStruct", head + entries + tail)
        if little and run.size > 1:
            self.m.use("ByteSwapped")
            c = f"ByteSwapped({c})"
        return c

    def among_fields(self, run: BitRun) -> list[str]:
        """A run among other fields: a hidden `BitStruct` rebuilt from the fields, which are
        copied out of it so that the value is flat."""
        name = f"_bits_{self.hidden}"
        self.hidden += 1
        self.m.use("Rebuild", "Computed")
        group = self.bit_struct(run, "this._", [], [])
        ids = ", ".join(f'"{f.id}"' for f in run.fields) + ("," if len(run.fields) == 1 else "")  # a tuple, even of one
        out = [f'"{name}" / Rebuild({group}, lambda this: {{name: this.get(name) for name in ({ids})}}),']
        for f in run.fields:
            out.append(f'"{f.id}" / Computed(lambda this: this["{name}"]["{f.id}"]),')
            if f.valid:
                out.append(self.fields.check(f))
        return out

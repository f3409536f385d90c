"""Differences of semantics between logcodec and the official parser that are not bugs: each a
pattern of the campaign's causes, a name and why (fuzz/README.md, "The gallery campaign", says
the same). The campaign counts them apart from the disagreements it reports as bugs.
"""

from __future__ import annotations

import re

#: (pattern of a cause, name, why). The first that matches names the difference.
KNOWN: list[tuple[str, str, str]] = [
    (r"^only ours refused: DecodeError limit_exceeded$", "limits",
     ("logcodec's default Limits (declared lengths, element counts, nesting) refuse inputs that "
      "Kaitai's parsers read without bound; law 5 asks for that bound")),
    (r"(^only official refused: AttributeError$)|(: official raised AttributeError$)", "official_null_read",
     ("the official Python parser reads a field it never assigned (an `if` that was false, a switch "
      "without its case, a `.as<T>` cast to a type the object is not): Kaitai's null, which Python "
      "refuses with AttributeError (Java would throw too) where logcodec's expression reads None; "
      "Kaitai leaves reading a null undefined, so no value is the right one")),
    (r": official raised OverflowError$", "official_overflow",
     ("the official Python parser hands a position or a length past 2^63 to Python's io (`seek`, "
      "`read`), which raises OverflowError, not a Kaitai error: the input asks for bytes far past "
      "its end, which logcodec refuses as `truncated` or reads as absent where the schema says so")),
    (r"^resources\[\]\.(type|name)\.save_pos2: int vs int$", "stream_position_when_read",
     ("windows_resource_file's `save_pos2: value: _io.pos`: Kaitai's lazy instance reads where the "
      "shared stream is when it is first read, which depends on what was read before it; "
      "logcodec's where the structure's seq ended (tests/gallery/files/NOTES.md)")),
    (r", which the official read in part$", "official_half_read_instance",
     ("Kaitai's Python parser assigns a lazy instance's list before it reads the elements, so an "
      "instance that fails half-way (a count far past the end of the input) answers later reads "
      "with the elements it got; logcodec's instance fails each time it is read, as it did first "
      "(`fuzz.gallery.compare.kept_in_part` says when a difference is this)")),
    (r"^comparison overran the time limit$", "unjudged",
     ("both parsers read the input, but walking every leaf (the official instances read on the "
      "way) took longer than the comparison's limit: no verdict, neither a bug nor an agreement")),
]


def known_difference(cause: str, result: dict) -> str | None:
    """The name of the documented difference `cause` is, or None for a bug."""
    for pattern, name, _ in KNOWN:
        if re.search(pattern, cause):
            return name
    return None

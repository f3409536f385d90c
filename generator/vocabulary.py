"""The words of a `.ksy` schema: the keys each part of it takes (Kaitai Struct 0.11's subset that
logcodec implements, and our `-lc-` extensions), the form of a name, and the checks of `meta`,
whose values only the loader reads (`reading.py`)."""

from __future__ import annotations

import re

from .problems import yaml_text
from .schema import did_you_mean, is_vendor_key

META_KEYS = {"application", "bit-endian", "encoding", "endian", "file-extension", "id", "imports", "ks-debug",
             "ks-opaque-types", "ks-version", "ks-zero-copy-substream", "license", "tags", "title", "xref",
             "-lc-fills-input"}
KS_VERSION = (0, 11)  # the language this generator implements

#: The form of a name: of a schema, a type, a field, an instance, an enum or its member, a param.
LOWER_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")

FIELD_KEYS = {
    "id", "type", "size", "size-eos", "if", "repeat", "repeat-expr", "repeat-until", "process",
    "valid", "enum", "contents", "encoding", "doc", "doc-ref",
    "terminator", "consume", "include", "eos-error", "pad-right", "parent",
    "-lc-size-of", "-lc-count-of", "-lc-absent", "-lc-checksum", "-lc-default", "-lc-present",
    "-lc-partial-tail", "-lc-derived", "-lc-keyed",
}
TYPE_KEYS = {"meta", "doc", "doc-ref", "to-string", "params", "seq", "instances", "types", "enums", "-lc-unwrap",
             "-lc-primitive"}
CHECKSUMS = {"crc32c", "crc32"}
VALUE_INSTANCE_KEYS = {"value", "enum", "if", "doc", "doc-ref", "-lc-input"}
# What a parse instance may read (any of them, without `value`, makes one)
PARSE_INSTANCE_KEYS = {"pos", "io", "type", "size", "size-eos", "terminator", "contents"}


def check_meta(report, rel: str, meta: dict) -> None:
    """The keys of `meta` and the values only the loader reads (Kaitai's rules)."""
    for key in meta:
        if key not in META_KEYS and not is_vendor_key(key):
            report(rel, f"meta.{key}", "unknown key" + did_you_mean(str(key), META_KEYS))
    if "-lc-fills-input" in meta and not isinstance(meta["-lc-fills-input"], bool):
        report(rel, "meta.-lc-fills-input", "is true or false")
    if "bit-endian" in meta and meta["bit-endian"] not in ("le", "be"):
        report(rel, "meta.bit-endian", "is `le` or `be`")
    if "imports" in meta and not isinstance(meta["imports"], list):
        report(rel, "meta.imports", "is a list of paths")
    if "ks-version" in meta:
        given = meta["ks-version"]
        if isinstance(given, (str, int, float)) and not isinstance(given, bool):
            _check_version(report, rel, str(given))
        else:
            report(rel, "meta.ks-version", f"{yaml_text(given)} is no version (X.Y or X.Y.Z)")


def _check_version(report, rel: str, text: str) -> None:
    """`meta/ks-version`: a version of Kaitai's language, and none that logcodec does not implement."""
    if not re.fullmatch(r"(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){1,2}", text):
        return report(rel, "meta.ks-version", f"{text!r} is no version (X.Y or X.Y.Z; quote it, or YAML "
                      "reads 0.10 as 0.1)")
    version = tuple(int(x) for x in text.split("."))
    if version < (0, 6):
        report(rel, "meta.ks-version", f"{text} is below 0.6, the oldest Kaitai language (quote "
               "'0.10', or YAML reads it as 0.1)")
    if version[:2] > KS_VERSION:
        report(rel, "meta.ks-version", f"needs Kaitai Struct {text}; logcodec implements "
               f"{'.'.join(map(str, KS_VERSION))}")

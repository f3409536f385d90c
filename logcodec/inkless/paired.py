"""`inkless.block_with_metadata`: an Inkless object read through its metadata and checked
against it, for the docs server's decode page and `logcodec decode --format
inkless.block_with_metadata OBJECT --metadata FILE` (registered in `composites`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import ClassVar

from logcodec._api import codec
from logcodec.checks import page_examples
from logcodec.inputs import InputError, InputTooLarge, spec_bytes
from logcodec.inspector import place_nested
from logcodec.runtime.errors import DecodeError, LogcodecError
from logcodec.runtime.values import to_json

from . import blocks
from .document import uuid_text
from .shipped import shipped_to_document


def plain_batches(data: bytes, stream: bool) -> dict:
    """The JSON of a v2 batch (or, `stream`, of batches end to end) as the codec reads it, with no
    byte ranges: `value` (None after an error), `partial_value`, `consumed` and `ranges`."""
    batch = codec(blocks.BATCH_FORMAT)
    try:
        if stream:
            got = batch.decode_stream(data, lazy=False)
            return {"value": [to_json(v) for v in got.items], "partial_value": None, "consumed": got.consumed,
                    "ranges": {}}
        value, used = batch.decode_prefix(data, lazy=False)
    except DecodeError:
        return {"value": None, "partial_value": None, "consumed": 0, "ranges": {}}
    return {"value": to_json(value), "partial_value": None, "consumed": used, "ranges": {}}


def _inspected(inspector, data: bytes, stream: bool) -> dict:
    """The batches of an entry as the docs server's inspector reads them, with their ranges."""
    return inspector.decode(blocks.BATCH_FORMAT, data, stream=stream)


_STEP = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")


def _at(value, path: str):
    """The part of a JSON value at a path (`topic_partitions[1].batches[0]`)."""
    for name, index in _STEP.findall(path):
        value = value[name] if name else value[int(index)]
    return value


class BlockWithMetadata:
    """`inkless.block_with_metadata`: an Inkless object (v2 batches of many partitions end to end)
    read through its metadata, and checked against it as `logcodec inkless validate` checks it
    (`logcodec.inkless.load_metadata` reads the metadata in any form it takes, `validate` finds the
    disagreements).

    The value is the metadata's (the canonical JSON of the seed's `inkless.block_metadata`, or the
    document of Inkless's shipped rows) with each entry holding the batches it points at as
    `record_batch_v2` (one batch for a seed entry, a list for a shipped row), and `object`: the
    object's size and its dead bytes. So the validator's paths (`topic_partitions[0].batches[1]
    .record_batch_v2.crc`, `batches[3].byte_size`, `object`) name nodes of the value, and the
    ranges, over the object, are the batch decoder's moved to where each entry lies."""

    needs: ClassVar[dict] = {  # the second input, as `GET /api/formats` describes it to the page
        "key": "metadata", "label": "Block metadata",
        "help": "the object's metadata: the seed's binary block_metadata (hex or base64), its document as YAML or JSON, "
                "or Inkless's shipped files and batches rows as JSON (paste it, or drop a file)"}
    _OPTIONS = frozenset({"hex", "base64", "text", "form", "allow_dead_bytes"})
    MAX_READS = 2  # how many times over the entries may cover the object (overlaps read bytes again)

    def __init__(self, name: str, title: str, read_batches: Callable[[bytes, bool], dict] = plain_batches) -> None:
        self.name, self.title = name, title  # as the format is registered (`composites`)
        # What decodes the batches of an entry (`read_batches(data, stream)`): the docs server's
        # reader, which says where each field lies, or the codec alone (`plain_batches`).
        self.read_batches = read_batches
        self.batch_key = blocks.BATCH_FORMAT.split(".", 1)[1]  # as the validator names a batch's root
        self._examples: list | None = None

    @classmethod
    def over(cls, inspectors: list, name: str, title: str) -> BlockWithMetadata | None:
        """One over the docs server's inspector that decodes Kafka's v2 batches, if one does."""
        return next((cls(name, title, partial(_inspected, i)) for i in inspectors if blocks.BATCH_FORMAT in i.formats),
                    None)

    def examples(self, vectors: Path) -> list[dict]:
        """The check vectors of metadata against an object (`inkless/block_validation.checks.json`),
        as inputs of the decode page; none when the file is not served."""
        if self._examples is None:
            self._examples = page_examples(vectors, "inkless/block_validation.checks.json", "object", "metadata")
        return self._examples

    # ------------------------------------------------------------ the metadata

    def metadata_of(self, spec, max_bytes: int) -> tuple[object, bool]:
        """(metadata, allow_dead_bytes) of a request's `metadata`: `{"hex"|"base64"|"text": ...}`
        with an optional `"form"` (`seed`, `shipped`) and `"allow_dead_bytes"`, or its text alone."""
        if isinstance(spec, str):
            spec = {"text": spec}
        if not isinstance(spec, dict):
            raise InputError("\"metadata\" is {\"hex\": HEX}, {\"base64\": TEXT} or {\"text\": YAML or JSON}")
        unknown = sorted(set(spec) - self._OPTIONS)
        if unknown:
            raise InputError(f"\"metadata\" has no {unknown[0]!r}: it takes {', '.join(sorted(self._OPTIONS))}")
        given = [k for k in ("hex", "base64", "text") if k in spec]
        if len(given) != 1:
            raise InputError("give the metadata as one of \"hex\", \"base64\" or \"text\"")
        form, allow = spec.get("form"), spec.get("allow_dead_bytes", False)
        if form not in (None, blocks.SEED, blocks.SHIPPED):
            raise InputError(f"the metadata's \"form\" is seed or shipped, not {form!r}")
        if not isinstance(allow, bool):
            raise InputError("\"allow_dead_bytes\" must be true or false")
        if given == ["text"]:
            raw = self.text_bytes(spec["text"], max_bytes)
        else:
            raw = spec_bytes(spec, max_bytes, "the metadata")
        return self.load(raw, form), allow

    @staticmethod
    def text_bytes(text, max_bytes: int) -> bytes:
        if not isinstance(text, str):
            raise InputError("the metadata's \"text\" must be a string (YAML or JSON)")
        if not text.strip():
            raise InputError("the metadata is empty: paste it, or drop its file")
        raw = text.encode("utf-8", "surrogatepass")
        if len(raw) > max_bytes:
            raise InputTooLarge(f"the metadata is {len(raw):,} bytes; the limit is {max_bytes:,}")
        return raw

    @staticmethod
    def load(raw: bytes, form: str | None):
        try:  # (YAML aliases and text nested too deep are the loader's errors too)
            return blocks.load_metadata(raw, form)
        except LogcodecError as exc:
            raise InputError(f"the metadata does not load: {exc}") from None

    # ------------------------------------------------------------ the object

    def decode(self, data: bytes, spec, max_bytes: int) -> dict:
        """The answer of the docs server's `POST /api/decode`, for the metadata a request gives
        (`metadata_of`): see `decode_with`."""
        metadata, allow_dead = self.metadata_of(spec, max_bytes)
        return self.decode_with(data, metadata, allow_dead_bytes=allow_dead)

    def decode_with(self, data: bytes, metadata, *, allow_dead_bytes: bool = False) -> dict:
        """As a format's answer (`value`, `ranges`...), with `findings` (each disagreement of the
        metadata with the object, a DecodeError's JSON), `labels` (a line saying what each
        metadata entry holds) and `metadata` (its form, its entries)."""
        extents = blocks.metadata_extents(metadata)
        self.check_reads(extents, len(data))
        findings = blocks.validate(data, metadata, allow_dead_bytes=allow_dead_bytes)
        shipped = blocks.metadata_form(metadata) == blocks.SHIPPED
        value = shipped_to_document(metadata) if shipped else to_json(metadata)
        ranges: dict[str, list] = {}
        texts: dict[str, str] = {}
        labels: dict[str, str] = {}
        for ext in extents:
            entry = _at(value, ext.path)
            entry[self.batch_key] = self.batches_at(data, ext, ranges, texts)
            labels[ext.path] = self.label(ext, entry[self.batch_key])
        self.label_groups(extents, ranges, labels)
        dead = blocks.uncovered_ranges(len(data), extents)
        value["object"] = {"size": len(data), "dead_bytes": [list(r) for r in dead]}
        ranges["object"] = [0, len(data)]
        for k, (start, end) in enumerate(dead):
            ranges[f"object.dead_bytes[{k}]"] = [start, end]
        labels["object"] = f"{len(data):,} bytes" + (f", {sum(e - s for s, e in dead):,} of them dead" if dead else "")
        return {"format": self.name, "size": len(data), "value": value, "ranges": ranges, "texts": texts, "error": None,
                "consumed": len(data), "partial": None, "opaque": None, "checked": None, "partial_value": None,
                "partial_tails": [], "findings": [f.to_json() for f in findings], "labels": labels,
                "metadata": {"form": blocks.metadata_form(metadata), "entries": len(extents)}}

    def check_reads(self, extents: list, size: int) -> None:
        """Entries may overlap, but not so much that decoding each one reads the object over and
        over (thousands of entries naming the same bytes): the answer would grow with them."""
        read = sum(max(0, min(e.end, size) - max(e.start, 0)) for e in extents)
        if read > self.MAX_READS * max(size, 1):
            raise InputTooLarge(f"the metadata's {len(extents):,} entries cover {read:,} bytes of a {size:,}-byte "
                                f"object: more than {self.MAX_READS} times over, which the decode page does not read; "
                                "check it with `logcodec inkless validate`")

    def batches_at(self, data: bytes, ext, ranges: dict, texts: dict):
        """The JSON of the batches an entry points at (what decoded before an error, if one
        stops them), their ranges put into `ranges` where the entry lies in the object, and
        their bytes fields' `texts` under the entry."""
        lo, hi = ext.start, min(ext.end, len(data))
        if lo < 0 or lo >= hi:
            return None
        ranges[ext.path] = [lo, hi]
        rows = ext.row is not None  # a shipped row holds batches end to end; a seed entry, one
        got = self.read_batches(data[lo:hi], rows)
        at = f"{ext.path}.{self.batch_key}"
        value = got["value"] if got["value"] is not None else got["partial_value"]
        ranges[at] = [lo, lo + got["consumed"]] if got["value"] is not None and got["consumed"] else [lo, hi]
        place_nested(got, at, lo, ranges, texts)
        return value

    @staticmethod
    def _who(ext) -> str:
        return f"{ext.topic or uuid_text(ext.topic_id)}/{ext.partition}"

    def label(self, ext, batch) -> str:
        """`orders/0 · offsets 0–1 · 2 records · bytes 0–106`: a shipped row's absolute offsets, a
        seed batch's as stored (the seed's metadata has none)."""
        parts = [self._who(ext)]
        if ext.row is not None:
            parts.append(f"offsets {ext.row.base_offset}–{ext.row.last_offset}")
        else:
            if isinstance(batch, dict) and "last_offset_delta" in batch:
                base = int(batch["base_offset"])
                parts.append(f"offsets {base}–{base + batch['last_offset_delta']}")
            parts.append(f"{ext.record_count} record{'' if ext.record_count == 1 else 's'}")
        parts.append(f"bytes {ext.start}–{ext.end - 1}" if ext.size else f"no bytes at {ext.start}")
        return " · ".join(parts)

    def label_groups(self, extents: list, ranges: dict, labels: dict) -> None:
        """The entries that share a parent (a seed topic partition's batches): its label, and its
        range when its entries lie end to end."""
        groups: dict[str, list] = {}
        for ext in extents:
            if "." in ext.path:
                groups.setdefault(ext.path.rsplit(".", 1)[0], []).append(ext)
        for parent, exts in groups.items():
            labels[parent] = f"{self._who(exts[0])} · {len(exts)} batch{'' if len(exts) == 1 else 'es'}"
            spans = [ranges.get(e.path) for e in exts]
            if all(spans) and all(a[1] == b[0] for a, b in pairwise(spans)):
                ranges[parent] = [spans[0][0], spans[-1][1]]

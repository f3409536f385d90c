"""`logcodec docs`: the docs site on 127.0.0.1, and live decoding through `POST /api/decode`.

The site is the static `generated/docs/`; the golden vectors and JSON Schemas its pages
link to (`../vectors/`, `../schema/` from the site's root, as in the file tree) are
served from beside it, read-only. The API:

- `GET /api/formats`: `{"formats": [{"name", "title", "user"}], "max_bytes", "max_body"}`.
- `POST /api/decode` with the JSON body `{"format": NAME or "auto", "hex": HEX}` (or
  `"base64": TEXT`; optional `"stream": true` for values laid end to end): the canonical
  JSON `value`, `ranges` (field path to `[start, end]`, see `logcodec.spans`), `texts`
  (field path to the text of a bytes field that is printable UTF-8), the DecodeError as `error` (`kind`, `offset`, `path`, `detail`) when there is one, `consumed`
  and a stream's `partial` last value. With `"auto"`, every format is tried and
  `candidates` lists those that read the whole input.
- `inkless.block_with_metadata` reads a second input, `"metadata": {"hex"|"base64"|"text": ...}`
  (listed in `/api/formats` with what it `needs`; with "auto", giving it picks this format): an
  Inkless object through its metadata, checked as `logcodec inkless validate` checks it, the
  disagreements in `findings` (see `BlockWithMetadata`).

Bad input is answered, never raised: every failure is a JSON `{"message": ...}` with a
4xx status. The server binds 127.0.0.1 only, refuses bodies over `max_body` before
reading them, and writes no file.
"""

from __future__ import annotations

import base64
import binascii
import http.server
import json
import re
import sys
import threading
from itertools import pairwise
from pathlib import Path
from typing import ClassVar
from urllib.parse import unquote, urlsplit

from logcodec.inkless import blocks
from logcodec.inkless.document import uuid_text
from logcodec.inkless.shipped import shipped_to_document
from logcodec.runtime.errors import LogcodecError
from logcodec.runtime.values import to_json
from logcodec.spans import Inspector

MAX_BYTES = 256 << 10  # bytes of input one request may decode: the answer (value and ranges) is about 40 times larger
MAX_BODY = 3 * MAX_BYTES  # a JSON body: hex takes two characters a byte, with room for whitespace
DRAIN_LIMIT = 64 << 20  # a body over the limit but under this is read and dropped before the answer
_HEX = re.compile(r"[0-9a-fA-F]*")
_SPACE = re.compile(r"\s+")


class BadInput(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def parse_bytes(body: dict, max_bytes: int = MAX_BYTES, what: str = "the input") -> bytes:
    """The input bytes of a decode request (`hex` or `base64`), or BadInput saying what is wrong
    (`what`: the input, the metadata)."""
    if "hex" in body and "base64" in body:
        raise BadInput(400, "give either \"hex\" or \"base64\", not both")
    if "hex" in body:
        text = body["hex"]
        if not isinstance(text, str):
            raise BadInput(400, "\"hex\" must be a string of hex digits")
        text = _SPACE.sub("", text)
        if text[:2].lower() == "0x":
            text = text[2:]
        if not text:
            raise BadInput(400, f"{what} is empty: paste hex or base64, or drop a file")
        if len(text) // 2 > max_bytes:
            raise BadInput(413, f"{what} is {len(text) // 2:,} bytes; the limit is {max_bytes:,}")
        bad = _HEX.match(text).end()
        if bad != len(text):
            raise BadInput(400, f"{what} is not hex: {text[bad]!r} at character {bad + 1} (hex digits are 0-9 and a-f)")
        if len(text) % 2:
            raise BadInput(400, f"{what} has an odd number of hex digits ({len(text)}): each byte takes two")
        return bytes.fromhex(text)
    if "base64" in body:
        text = body["base64"]
        if not isinstance(text, str):
            raise BadInput(400, "\"base64\" must be a string")
        text = _SPACE.sub("", text)
        if not text:
            raise BadInput(400, f"{what} is empty: paste hex or base64, or drop a file")
        if len(text) * 3 // 4 > max_bytes:
            raise BadInput(413, f"{what} is about {len(text) * 3 // 4:,} bytes; the limit is {max_bytes:,}")
        try:
            return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_" if "-" in text or "_" in text else None,
                                    validate=True)
        except (binascii.Error, ValueError):
            raise BadInput(400, f"{what} is neither hex nor base64: base64 uses A-Z, a-z, 0-9, + and / (or - and _), and = at the end") from None
    raise BadInput(400, "the body needs \"hex\" (or \"base64\") with the input bytes")


class DocsServer:
    """The state of one `logcodec docs`: where the files are and what can be decoded."""

    def __init__(self, docs: Path, inspectors: list[Inspector], *, max_bytes: int = MAX_BYTES,
                 max_body: int = MAX_BODY, titles: dict[str, str] | None = None,
                 user_formats: tuple = ()) -> None:
        self.docs = Path(docs).resolve()
        # The site's links to vectors and JSON Schemas go above it, as the files lie (generated/).
        self.mounts = {"vectors": self.docs.parent / "vectors", "schema": self.docs.parent / "schema"}
        self.inspectors = inspectors
        self.max_bytes, self.max_body = max_bytes, max_body
        self.titles = titles or {}
        self.user_formats = set(user_formats)
        # Formats read from the input and a second one (an Inkless object and its metadata), where
        # the formats they are built on are here.
        self.paired = {p.name: p for p in (BlockWithMetadata.over(inspectors),) if p is not None}
        for p in self.paired.values():
            self.titles.setdefault(p.name, p.title)

    def formats(self) -> list[str]:
        return [n for i in self.inspectors for n in i.names()] + list(self.paired)

    def format_info(self) -> list[dict]:
        """What `GET /api/formats` lists: each format's name and title, whether it is the user's,
        and for a paired format the second input it needs and examples of both inputs."""
        out = [{"name": n, "title": self.titles.get(n, n), "user": n in self.user_formats}
               for i in self.inspectors for n in i.names()]
        for p in self.paired.values():
            out.append({"name": p.name, "title": p.title, "user": False, "needs": p.needs,
                        "examples": p.examples(self.mounts["vectors"])})
        return out

    def inspector(self, name: str) -> Inspector | None:
        return next((i for i in self.inspectors if name in i.formats), None)

    def file_for(self, url_path: str) -> Path | None:
        """The file a GET names, inside the site or a mount; None for anything else."""
        parts = [p for p in unquote(url_path).split("/") if p not in ("", ".")]
        if any(p == ".." or "\\" in p or p.startswith(".") for p in parts):
            return None
        base = self.docs
        if parts and parts[0] in self.mounts:
            base, parts = self.mounts[parts[0]], parts[1:]
        path = base.joinpath(*parts) if parts else base
        if path.is_dir():
            path = path / "index.html"
        try:
            path.resolve().relative_to(base.resolve())
        except ValueError:
            return None
        return path if path.is_file() else None

    def decode(self, body: dict) -> dict:
        if not isinstance(body, dict):
            raise BadInput(400, "the body must be a JSON object: {\"format\": NAME, \"hex\": HEX}")
        name = body.get("format", "auto")
        stream = body.get("stream", False)
        if not isinstance(name, str):
            raise BadInput(400, "\"format\" must be a format's name or \"auto\"")
        if not isinstance(stream, bool):
            raise BadInput(400, "\"stream\" must be true or false")
        data = parse_bytes(body, self.max_bytes)
        if body.get("metadata") is not None or name in self.paired:
            return self.decode_paired(name, data, body.get("metadata"))
        if name in ("", "auto"):
            return self.detect(data, stream)
        inspector = self.inspector(name)
        if inspector is None:
            raise BadInput(404, f"unknown format {name!r}; known: {', '.join(self.formats())}")
        return inspector.decode(name, data, stream=stream)

    def decode_paired(self, name: str, data: bytes, second) -> dict:
        """A format read from two inputs; with "auto", the one whose second input was given."""
        detected = name in ("", "auto")
        paired = next(iter(self.paired.values()), None) if detected else self.paired.get(name)
        if paired is None:
            there = ", ".join(self.paired) or "no format served here"
            raise BadInput(400, f"\"metadata\" goes with {there}, not with {name}")
        if second is None:
            raise BadInput(400, f"{paired.name} needs its {paired.needs['label'].lower()} too: add "
                                f"\"{paired.needs['key']}\": {{\"hex\": HEX}} (or \"base64\", or \"text\")")
        answer = paired.decode(data, second, self.max_bytes)
        if detected:
            answer["detected"], answer["candidates"] = True, [paired.name]
        return answer

    def detect(self, data: bytes, stream: bool) -> dict:
        """Try every format. Of those that read the whole input, the one with the most evidence
        wins: the most bytes a rule of the schema vouched for (fixed contents, `valid` rules, the
        range of a checksum), then the fewest bytes left in plain bytes fields (not a partial tail
        holding everything), then the fewest fields (a batch before a set of one batch). When none
        reads it all, the one that read furthest before its error."""
        tried = [inspector.decode(name, data, stream=stream, trace=False)
                 for inspector in self.inspectors for name in inspector.names()]
        whole = [r for r in tried if r["error"] is None and r["partial"] is None]
        if whole:
            traced = [self.inspector(r["format"]).decode(r["format"], data, stream=stream) for r in whole]
            traced.sort(key=lambda r: (-r["checked"], r["opaque"], _size(r["value"]),
                                       r["format"] not in self.user_formats, r["format"]))
            best, candidates = traced[0], [r["format"] for r in traced]
        else:
            def reach(r):
                e = r["error"] or r["partial"] or {}
                return -(e.get("offset") or 0), _size(r["value"]), r["format"]
            pick = min(tried, key=reach)["format"]
            best, candidates = self.inspector(pick).decode(pick, data, stream=stream), []
        best["candidates"] = candidates
        best["detected"] = True
        return best


def _size(value) -> int:
    """Nodes of a JSON value: how much structure a reading of the input found."""
    if isinstance(value, dict):
        return 1 + sum(_size(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_size(v) for v in value)
    return 1


# ---------------------------------------------------------------- an Inkless block with its metadata

_STEP = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")


def _at(value, path: str):
    """The part of a JSON value at a path (`topic_partitions[1].batches[0]`)."""
    for name, index in _STEP.findall(path):
        value = value[name] if name else value[int(index)]
    return value


def _under(base: str, path: str) -> str:
    """`path` of a value nested at `base`."""
    return base + path if not path or path.startswith("[") else f"{base}.{path}"


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

    name = "inkless.block_with_metadata"
    title = "Inkless block with metadata"
    needs: ClassVar[dict] = {  # the second input, as `GET /api/formats` describes it to the page
        "key": "metadata", "label": "Block metadata",
        "help": "the object's metadata: the seed's binary block_metadata (hex or base64), its document as YAML or JSON, "
                "or Inkless's shipped files and batches rows as JSON (paste it, or drop a file)"}
    _OPTIONS = frozenset({"hex", "base64", "text", "form", "allow_dead_bytes"})
    MAX_READS = 2  # how many times over the entries may cover the object (overlaps read bytes again)

    def __init__(self, inspector: Inspector) -> None:
        self.inspector = inspector  # the one that decodes v2 batches
        self.batch_key = blocks.BATCH_FORMAT.split(".", 1)[1]  # as the validator names a batch's root
        self._examples: list | None = None

    @classmethod
    def over(cls, inspectors: list[Inspector]) -> BlockWithMetadata | None:
        """One over the inspector that decodes Kafka's v2 batches, if one does."""
        return next((cls(i) for i in inspectors if blocks.BATCH_FORMAT in i.formats), None)

    def examples(self, vectors: Path) -> list[dict]:
        """The check vectors of metadata against an object (`inkless/block_validation.checks.json`),
        as inputs of the decode page; none when the file is not served."""
        if self._examples is None:
            try:
                tests = json.loads((vectors / "inkless" / "block_validation.checks.json").read_text())["tests"]
            except (OSError, ValueError, KeyError, TypeError):
                tests = []
            self._examples = [{"tcId": t["tcId"], "comment": t.get("comment", ""), "hex": t["inputs"]["object"],
                               "metadata": {"hex": t["inputs"]["metadata"]}}
                              for t in tests if {"object", "metadata"} <= set(t.get("inputs", {}))]
        return self._examples

    # ------------------------------------------------------------ the metadata

    def metadata_of(self, spec, max_bytes: int) -> tuple[object, bool]:
        """(metadata, allow_dead_bytes) of a request's `metadata`: `{"hex"|"base64"|"text": ...}`
        with an optional `"form"` (`seed`, `shipped`) and `"allow_dead_bytes"`, or its text alone."""
        if isinstance(spec, str):
            spec = {"text": spec}
        if not isinstance(spec, dict):
            raise BadInput(400, "\"metadata\" is {\"hex\": HEX}, {\"base64\": TEXT} or {\"text\": YAML or JSON}")
        unknown = sorted(set(spec) - self._OPTIONS)
        if unknown:
            raise BadInput(400, f"\"metadata\" has no {unknown[0]!r}: it takes {', '.join(sorted(self._OPTIONS))}")
        given = [k for k in ("hex", "base64", "text") if k in spec]
        if len(given) != 1:
            raise BadInput(400, "give the metadata as one of \"hex\", \"base64\" or \"text\"")
        form, allow = spec.get("form"), spec.get("allow_dead_bytes", False)
        if form not in (None, blocks.SEED, blocks.SHIPPED):
            raise BadInput(400, f"the metadata's \"form\" is seed or shipped, not {form!r}")
        if not isinstance(allow, bool):
            raise BadInput(400, "\"allow_dead_bytes\" must be true or false")
        if given == ["text"]:
            raw = self.text_bytes(spec["text"], max_bytes)
        else:
            raw = parse_bytes(spec, max_bytes, "the metadata")
        return self.load(raw, form), allow

    @staticmethod
    def text_bytes(text, max_bytes: int) -> bytes:
        if not isinstance(text, str):
            raise BadInput(400, "the metadata's \"text\" must be a string (YAML or JSON)")
        if not text.strip():
            raise BadInput(400, "the metadata is empty: paste it, or drop its file")
        raw = text.encode("utf-8", "surrogatepass")
        if len(raw) > max_bytes:
            raise BadInput(413, f"the metadata is {len(raw):,} bytes; the limit is {max_bytes:,}")
        return raw

    def load(self, raw: bytes, form: str | None):
        try:  # (YAML aliases and text nested too deep are the loader's errors too)
            return blocks.load_metadata(raw, form)
        except LogcodecError as exc:
            raise BadInput(400, f"the metadata does not load: {exc}") from None

    # ------------------------------------------------------------ the object

    def decode(self, data: bytes, spec, max_bytes: int) -> dict:
        """The answer of `POST /api/decode`: as a format's (`value`, `ranges`...), with `findings`
        (each disagreement of the metadata with the object, a DecodeError's JSON), `labels` (a
        line saying what each metadata entry holds) and `metadata` (its form, its entries)."""
        metadata, allow_dead = self.metadata_of(spec, max_bytes)
        extents = blocks.metadata_extents(metadata)
        self.check_reads(extents, len(data))
        findings = blocks.validate(data, metadata, allow_dead_bytes=allow_dead)
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
            raise BadInput(413, f"the metadata's {len(extents):,} entries cover {read:,} bytes of a {size:,}-byte "
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
        got = self.inspector.decode(blocks.BATCH_FORMAT, data[lo:hi], stream=rows)
        at = f"{ext.path}.{self.batch_key}"
        value = got["value"] if got["value"] is not None else got["partial_value"]
        ranges[at] = [lo, lo + got["consumed"]] if got["value"] is not None and got["consumed"] else [lo, hi]
        for path, r in got["ranges"].items():
            ranges[_under(at, path)] = [r[0] + lo, r[1] + lo] if len(r) == 2 else [r[0], r[1], _under(at, r[2])]
        texts.update((_under(at, path), text) for path, text in got["texts"].items())
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


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "logcodec-docs"
    app: DocsServer  # set on the subclass made by `make_server`
    quiet = False

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        if not self.quiet:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    # ------------------------------------------------------------ answers

    def send_json(self, status: int, obj) -> None:
        body = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def message(self, status: int, text: str) -> None:
        self.send_json(status, {"message": text})

    # ------------------------------------------------------------ methods

    def do_GET(self) -> None:
        self.guard(self.get)

    def do_HEAD(self) -> None:
        self.guard(self.get)

    def do_POST(self) -> None:
        self.guard(self.post)

    def _refuse(self) -> None:
        self.guard(lambda: self.message(405, f"{self.command} is not supported here"))

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def guard(self, action) -> None:
        """Whatever goes wrong is a JSON message, never a traceback to the client."""
        try:
            action()
        except BadInput as exc:
            self.message(exc.status, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a bug: say so, keep serving
            self.log_message("error: %r", exc)
            try:
                self.message(500, f"internal error ({type(exc).__name__}); please report it with the input")
            except OSError:
                pass

    def get(self) -> None:
        path = urlsplit(self.path).path
        if path == "/api/formats":
            app = self.app
            self.send_json(200, {"formats": app.format_info(), "max_bytes": app.max_bytes, "max_body": app.max_body})
            return
        if path.startswith("/api/"):
            self.message(404 if path != "/api/decode" else 405,
                         "POST a JSON body to /api/decode" if path == "/api/decode" else f"no API at {path}")
            return
        file = self.app.file_for(path)
        if file is None:
            self.send_response(404)
            body = b"<!DOCTYPE html><title>Not found</title><p>Not found. <a href=\"/\">The docs' index</a>.</p>\n"
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        data = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", _content_type(file))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def post(self) -> None:
        path = urlsplit(self.path).path
        if path != "/api/decode":
            raise BadInput(404, f"no API at {path}; POST to /api/decode")
        length = self.headers.get("Content-Length")
        if length is None or not length.strip().isdigit():
            self.close_connection = True
            raise BadInput(411, "a body with a Content-Length is needed")
        n = int(length)
        if n > self.app.max_body:
            self.close_connection = True
            # Read and drop a body of moderate size, so that the client, still sending it, gets the
            # message (a browser reports a connection closed mid-request as a network error);
            # beyond that the connection is closed at once. Nothing of it is kept.
            if n <= DRAIN_LIMIT:
                left = n
                while left > 0:
                    chunk = self.rfile.read(min(left, 1 << 16))
                    if not chunk:
                        break
                    left -= len(chunk)
            raise BadInput(413, f"the request is {n:,} bytes; the limit is {self.app.max_body:,} "
                                f"(inputs up to {self.app.max_bytes:,} bytes)")
        raw = self.rfile.read(n)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):  # (nesting too deep for the parser)
            raise BadInput(400, "the body is not JSON: send {\"format\": NAME, \"hex\": HEX}") from None
        self.send_json(200, self.app.decode(body))


_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".json": "application/json; charset=utf-8", ".svg": "image/svg+xml", ".ksy": "text/plain; charset=utf-8",
          ".txt": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8"}


def _content_type(path: Path) -> str:
    return _TYPES.get(path.suffix, "application/octet-stream")


def make_server(app: DocsServer, port: int = 0, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A server bound to 127.0.0.1 (never another address); port 0 picks a free one."""
    handler = type("BoundHandler", (Handler,), {"app": app, "quiet": quiet})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def titles_of(inspectors: list[Inspector]) -> dict[str, str]:
    return {name: (fmt.schema.title or name) for i in inspectors for name, fmt in i.formats.items()}


def serve_in_thread(app: DocsServer, port: int = 0, quiet: bool = True):
    """(server, base URL): a server running in a daemon thread, for tests and embedding."""
    server = make_server(app, port, quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


__all__ = ["DocsServer", "BlockWithMetadata", "BadInput", "make_server", "parse_bytes", "serve_in_thread", "MAX_BYTES", "MAX_BODY"]

"""Format docs: one static HTML page per schema, an index and a style sheet.

Everything on a page comes from the IR and the golden vectors: field tables with
offsets and sizes, bit diagrams of bit-field groups, enum tables, the `-lc-`
write-side rules, and an annotated hex dump of one vector, whose field ranges the
codec's trace variant reports as it reads them. No format is special-cased; the
wording lives in the `docs_*.html.j2` templates.
"""

from __future__ import annotations

import importlib
import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import jinja2
import markdown
from markupsafe import Markup

from logcodec import processors
from logcodec.runtime import compression, values
from logcodec.runtime.errors import KINDS

from .. import expr as E
from ..layout import primitive
from ..passes import model_of
from ..ranges import field_spans
from ..schema import Field, Schema, TypeDef
from . import diagram
from .api_pages import api_pages
from .places import anchor, enum_anchor, raw_at, type_href

HERE = Path(__file__).parent / "templates"
COLOURS = 8  # colour classes of the hex dump, c0..c7; each field's bytes are also boxed apart
MAX_DUMP = 2048  # bytes; a larger vector is never chosen for the hex dump



def instance_summary(raw: dict) -> str:
    """A value instance's expression, or where and what a positional instance reads."""
    if "pos" in raw:
        return f"at {kx(raw['pos'])}: {raw.get('type', 'bytes')}" + (f", size {kx(raw['size'])}" if "size" in raw else "")
    return kx(raw["value"])

def kx(value) -> str:
    """An expression as the schema spells it (YAML turns `true` and `2` into Python values)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _inline(text: str) -> Markup:
    """Escape, then set `backticked` words in code."""
    parts = str(text).split("`")
    return Markup("").join(Markup("<code>{}</code>" if i % 2 else "{}").format(p) for i, p in enumerate(parts))


def _paragraphs(text: str) -> Markup:
    return Markup("\n").join(Markup("<p>{}</p>").format(_inline(p)) for p in re.split(r"\n\s*\n", text.strip()) if p)


def first_sentence(text: str) -> str:
    return re.split(r"(?<=\.)\s", " ".join(text.split()), maxsplit=1)[0]


def doc_links(ref: str) -> list[tuple[str, str]]:
    """(href, text) of each doc-ref; a doc-ref that is not a list of URLs is plain text (empty href)."""
    words = ref.split()
    if words and all(w.startswith(("http://", "https://")) for w in words):
        return [(w, re.sub(r"^https?://", "", w)) for w in words]
    return [("", ref)] if ref else []


def _codec_table(name: str) -> bool:
    """Whether `process: name(...)` is a codec table (a codec id its last argument)."""
    module = processors.module_of(name)
    return module is not None and isinstance(getattr(importlib.import_module(module), name), compression.CodecTable)


TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE), undefined=jinja2.StrictUndefined, autoescape=True,
    keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
)
TEMPLATES.filters.update(paragraphs=_paragraphs, inline=_inline, kx=kx,
                         wbr=lambda s: Markup("_<wbr>").join(str(s).split("_")))
TEMPLATES.globals.update(anchor=anchor, enum_anchor=enum_anchor, type_href=type_href,
                         codec_table=_codec_table)


@dataclass(frozen=True)
class Site:
    """What a docs site holds besides its format pages, and where its files lie: this
    repository's (`logcodec generate`: the decode page, conformance, JSON Schemas and vectors by
    family), or a user's package (`logcodec compile --docs`: what was asked for, by id)."""

    generator: str = "logcodec generate"
    decode: bool = True
    conformance: bool = True
    json_schema: bool = True
    vectors_layout: bool = True  # schema/vectors.json is there
    by_family: bool = True

    def vectors_file(self, s: Schema) -> str:
        return f"vectors/{s.family}/{s.id}.json" if self.by_family else f"vectors/{s.id}.json"

    def value_schema_file(self, s: Schema) -> str:
        return f"schema/{s.family}/{s.id}.value.json" if self.by_family else f"schema/{s.id}.value.json"


TEMPLATES.globals["site"] = Site()


class Page:
    """One format page: the layout of every type, rendered through `docs_format.html.j2`."""

    def __init__(self, schema: Schema, vectors: dict | None, dump: dict | None, site: "Site | None" = None) -> None:
        self.schema, self.vectors, self.dump = schema, vectors, dump
        self.site = site or Site()
        self.model = model_of(schema)
        self.types = self.model.types
        self._layouts: dict[int, tuple[list, int | None, list]] = {}

    def layout(self, t: TypeDef) -> tuple[list, int | None, list]:
        """(rows, fixed size or None, bit groups) of a type; offsets count from the type's start."""
        if id(t) not in self._layouts:
            self._layouts[id(t)] = ([], None, [])  # a type that contains itself has no fixed size
            self._layouts[id(t)] = self._layout(t)
        return self._layouts[id(t)]

    def _layout(self, t: TypeDef):
        rows, groups, pos = [], [], 0
        for is_bits, run in itertools.groupby(t.seq, key=lambda f: f.type.kind == "bits"):
            run = list(run)
            if not is_bits:
                for f in run:
                    n, size = self.elem_size(t, f)
                    rows.append(self.row(t, f, pos, size + (" each" if f.repeat else "")))
                    pos = pos + n if pos is not None and n is not None and f.if_expr is None and not f.repeat else None
                continue
            # Consecutive bit fields share whole bytes; the first is read first (MSB with be, LSB with le).
            width, k, le = -(-sum(f.type.size for f in run) // 8) * 8, 0, run[0].type.endian == "le"
            cells = []
            for f in run:
                n = f.type.size
                lo, hi = (k, k + n - 1) if le else (width - k - n, width - 1 - k)
                label = f"bit {lo}" if n == 1 else f"bits {lo}–{hi}" if le else f"bits {hi}–{lo}"
                rows.append(self.row(t, f, None if pos is None else pos + k // 8, f"{n} bit{'s' * (n > 1)}", label))
                cells.append({"field": f, "span": n, "label": label})
                k += n
            if k < width:
                cells.append({"field": None, "span": width - k, "label": ""})
            groups.append({"bits": list(range(width)) if le else list(range(width - 1, -1, -1)), "cells": cells, "le": le})
            pos = pos + width // 8 if pos is not None and all(f.if_expr is None and not f.repeat for f in run) else None
        return rows, pos, groups

    def elem_size(self, t: TypeDef, f: Field) -> tuple[int | None, str]:
        """(bytes when fixed, what the size column says) of one element of `f`."""
        ref = f.type
        if f.contents is not None:
            return len(f.contents), str(len(f.contents))
        if ref.kind in ("int", "float"):
            return ref.size, str(ref.size)
        if isinstance(f.size, E.Num):
            return f.size.value, str(f.size.value)
        if f.size is not None:
            text = kx(raw_at(t.schema.raw, f.ypath)["size"])  # may break after a dot in the narrow column
            return None, Markup("<code>{}</code>").format(Markup(".<wbr>").join(text.split(".")))
        if f.size_eos:
            return None, "rest"
        prim = primitive(ref)
        if prim is not None:
            return None, f"1–{prim.max_bytes} (varint)"
        if ref.kind == "user" and ref.user.schema is not self.schema:
            return None, "var"  # another schema's type: its own page lays it out
        if ref.kind == "user":
            n = self.layout(ref.user)[1]
            return n, "var" if n is None else str(n)
        return None, "var"

    def row(self, t: TypeDef, f: Field, pos: int | None, size, bits: str = "") -> dict:
        """A field's row; `t` is the type that holds it (maybe from an imported schema)."""
        raw = raw_at(t.schema.raw, f.ypath)
        cases = []
        if f.type.kind == "switch":  # (key, type name, TypeDef or None) as the schema spells them
            cases = [(kx(key), str(name), c.user) for (key, name), (_, c) in zip(raw["type"]["cases"].items(), f.type.cases)]
        return {"field": f, "raw": raw, "meta": self.model.field_meta(f), "offset": "+var" if pos is None else str(pos),
                "size": size, "bits": bits, "cases": cases, "refs": doc_links(f.doc_ref)}

    def render(self) -> str:
        s = self.schema
        prims: dict[str, tuple[TypeDef, list[str]]] = {}  # primitive name -> (type, spellings used)
        for t in self.types:
            for f in t.seq:
                for ref in [c for _, c in f.type.cases] if f.type.kind == "switch" else [f.type]:
                    if ref.kind == "user" and ref.user.primitive:
                        used = prims.setdefault(ref.user.name, (ref.user, []))[1]
                        spelling = str(raw_at(s.raw, f.ypath)["type"])
                        used.extend([spelling] if spelling not in used else [])
        types = [{"t": t, "anchor": anchor(t), "rows": self.layout(t)[0], "size": self.layout(t)[1],
                  "groups": self.layout(t)[2], "refs": doc_links(t.doc_ref),
                  "instances": [(i.id, instance_summary(raw_at(s.raw, i.ypath)), i.doc) for i in t.instances],
                  "tuple_form": [f.id for f in self.model.tuple_form(t) or ()],
                  "tuple_decoded": self.model.tuple_decoded(t), "not_canonical": self.model.plan(t).not_canonical}
                 for t in self.types]
        return TEMPLATES.get_template("docs_format.html.j2").render(
            s=s, refs=doc_links(s.doc_ref), types=types, prims=[prims[k] for k in sorted(prims)],
            by_class={t.class_name: t for t in [*self.types, *(u for i in self.schema.imports
                                                                for u in self.model.used_from(i))]},
            vectors=self.vectors, dump=self.dump, diagram=diagram.render(self), ksy=f"{s.id}.ksy",
            css="../style.css", home="../index.html", root="../", up="../../", site=self.site,
        )


# ---------------------------------------------------------------- golden vectors


def vector_stats(doc: dict) -> dict:
    groups = [{"type": g["type"], "comment": g["comment"], "total": len(g["tests"]),
               "counts": [sum(t["result"] == r for t in g["tests"]) for r in ("valid", "invalid", "acceptable")]}
              for g in doc["testGroups"]]
    flags = [flag for g in doc["testGroups"] for t in g["tests"] for flag in t["flags"]]
    notes = [(name, n.get("description", ""), flags.count(name)) for name, n in doc["notes"].items()]
    return {"doc": doc, "groups": groups, "notes": notes, "total": doc["numberOfTests"]}


def value_at(value, path: str):
    """The part of a canonical JSON value at a value path; None where the value has none."""
    for name, index in re.findall(r"\.?([A-Za-z_]\w*)|\[(\d+)\]", path):
        if name:
            value = value.get(name) if isinstance(value, dict) else None
        else:
            value = value[int(index)] if isinstance(value, list) and int(index) < len(value) else None
    return value


def short(v, limit: int = 200) -> str:
    if isinstance(v, dict):
        text = ", ".join(f"{k}={short(x, 24)}" for k, x in v.items())
    else:
        text = f"[{len(v)} items]" if isinstance(v, list) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def owned_spans(schema: Schema, trace, size: int, value):
    """The field spans of a trace (`ranges.field_spans`), each byte's innermost span, the spans
    that own bytes in order, and what each span names: (IR field, canonical JSON value, value path).

    Spans come sorted by start, enclosing ones first, so the last span written over a
    byte is the innermost. Bit fields share their bytes, so those bytes go to the
    enclosing span; bits at the top of a type with no enclosing span give their
    byte to the bit field that starts it (the page's bit diagram shows the rest)."""
    spans = field_spans(schema, trace)
    fields = [(span.field, value_at(value, span.path), span.path) for span in spans]
    owner = [None] * size
    bit_spans = []
    for i, span in enumerate(spans):
        if span.field is None or span.field.type.kind != "bits":
            owner[span.start:min(span.end, size)] = [i] * (min(span.end, size) - span.start)
        else:
            bit_spans.append(i)
    for i in bit_spans:
        for b in range(spans[i].start, min(spans[i].end, size)):
            if owner[b] is None:
                owner[b] = i
    used = sorted(dict.fromkeys(o for o in owner if o is not None), key=lambda o: (spans[o].start, o))
    return spans, owner, used, fields


def hex_dump(schema: Schema, test: dict, trace) -> dict:
    """The rows and legend of a vector's annotated hex dump, as its trace read it."""
    data = bytes.fromhex(test["bytes"])
    spans, owner, used, fields = owned_spans(schema, trace, len(data), test.get("value"))
    colour = {o: f"c{k % COLOURS}" for k, o in enumerate(used)}
    # A field's bytes form one box on each row (its first and last bytes are rounded, with a gap
    # before the next field), so neighbours stand apart even where their colours repeat.
    cells = [{"hex": f"{b:02x}", "char": chr(b) if 32 <= b < 127 else "·", "offset": i,
              "cls": colour.get(owner[i], "gap") + (" fs" if i % 16 == 0 or owner[i - 1] != owner[i] else "")
              + (" fe" if i % 16 == 15 or i + 1 == len(data) or owner[i + 1] != owner[i] else ""),
              "title": "(not parsed)" if owner[i] is None else fields[owner[i]][2]}
             for i, b in enumerate(data)]
    width = max(4, len(f"{len(data):x}"))
    rows = [{"offset": f"{i:0{width}x}", "cells": cells[i:i + 16]} for i in range(0, len(data), 16)]
    legend = [{"path": fields[o][2], "offset": spans[o].start, "length": spans[o].end - spans[o].start, "cls": colour[o],
               "value": short(fields[o][1]) if fields[o][0] is not None else ""} for o in used]
    return {"test": test, "rows": rows, "legend": legend, "size": len(data)}


def choose(schema: Schema, doc: dict, traced) -> tuple[dict, object] | None:
    """The first valid vector whose byte-owning spans name the most distinct fields (the richest
    example), with its trace (`traced`: the format's trace variant)."""
    best, best_score = None, -1
    for test in (t for g in doc["testGroups"] for t in g["tests"] if t["result"] == "valid"):
        data = bytes.fromhex(test["bytes"])
        if len(data) <= MAX_DUMP:
            trace = traced.trace(data, **test.get("params", {})).trace
            spans, _, used, _ = owned_spans(schema, trace, len(data), test.get("value"))
            score = len({re.sub(r"\[\d+\]", "", spans[o].path) for o in used})
            if score > best_score:
                best, best_score = (test, trace), score
    return best


def dumps(schemas: list[Schema], traces: dict, vectors: dict[str, dict]) -> dict[str, dict]:
    """The annotated hex dump of each format that has vectors, by format name, read by its trace
    variant (`traces`, by format name)."""
    out = {}
    for s in schemas:
        if s.format_name in vectors:
            picked = choose(s, vectors[s.format_name], traces[s.format_name])
            if picked:
                out[s.format_name] = hex_dump(s, *picked)
    return out


# ---------------------------------------------------------------- entry point


def canonical_rules() -> list[str]:
    """The bullet list under "Rules" in the docstring of `logcodec.runtime.values`, the one statement of them."""
    block = values.__doc__.split("Rules", 1)[1].split("\n\n", 1)[0]
    return [" ".join(item.split()) for item in block.split("\n- ")[1:]]


def schema_copies(root: Path, schemas) -> dict[str, str]:
    """Each schema, and every schema it imports, beside its page (`docs/<family>/<id>.ksy`, as in
    `schemas/`): the pages link to them, and `logcodec docs` reads the field layout from them."""
    out, todo = {}, list(schemas)
    while todo:
        s = todo.pop()
        if f"docs/{s.path}" not in out:
            out[f"docs/{s.path}"] = s.text
            todo.extend(s.imports)
    return out


def render(root, schemas, traces, vector_files) -> dict[str, str]:
    """{path relative to generated/: text} of `docs/`; the hex dumps read by the codecs' trace
    variants (`traces`, by format name)."""
    vectors = {doc["format"]: doc for doc in (json.loads(text) for _, text in sorted(vector_files.items()))}
    hexdumps = dumps(schemas, traces, vectors)
    out = {"docs/style.css": (HERE / "docs.css").read_text(), "docs/decode.js": (HERE / "docs_decode.js").read_text()}
    out.update(schema_copies(Path(root), schemas))
    for s in schemas:
        stats = vector_stats(vectors[s.format_name]) if s.format_name in vectors else None
        out[f"docs/{s.family}/{s.id}.html"] = Page(s, stats, hexdumps.get(s.format_name)).render()
    formats = [{"s": s, "summary": first_sentence(s.doc), "href": f"{s.family}/{s.id}.html"} for s in schemas]
    api_pages_, apis = api_pages(Path(root), TEMPLATES, vectors)
    out.update(api_pages_)
    out["docs/index.html"] = TEMPLATES.get_template("docs_index.html.j2").render(
        formats=formats, rules=canonical_rules(), kinds=list(KINDS.items()), css="style.css", home="index.html",
        root="", apis=apis)
    examples = [{"format": s.format_name, "tcId": hexdumps[s.format_name]["test"]["tcId"],
                 "hex": hexdumps[s.format_name]["test"]["bytes"], "params": hexdumps[s.format_name]["test"].get("params")}
                for s in schemas if s.format_name in hexdumps]
    out["docs/decode.html"] = TEMPLATES.get_template("docs_decode.html.j2").render(
        formats=formats, examples=examples, kinds=list(KINDS.items()), css="style.css", home="index.html", root="")
    out.update(conformance_pages(Path(root), schemas))
    return out


def package_site(schemas: list[Schema], vector_files: dict[str, str], json_schemas: bool) -> dict[str, str]:
    """`logcodec compile --docs`: the pages of a user's package (`docs/` beside its modules),
    each schema's copy beside its page, and the index; no decode page or conformance here
    (`logcodec docs --schema X.ksy` serves the decode page for a user's schema)."""
    vectors = {doc["format"]: doc for doc in (json.loads(text) for _, text in sorted(vector_files.items()))}
    site = Site(generator="logcodec compile", decode=False, conformance=False, json_schema=json_schemas,
                vectors_layout=False, by_family=False)
    out = {"docs/style.css": (HERE / "docs.css").read_text()}
    for s in schemas:
        stats = vector_stats(vectors[s.format_name]) if s.format_name in vectors else None
        out[f"docs/{s.family}/{s.id}.html"] = Page(s, stats, None, site).render()
        out[f"docs/{s.family}/{s.id}.ksy"] = s.text
    formats = [{"s": s, "summary": first_sentence(s.doc), "href": f"{s.family}/{s.id}.html"} for s in schemas]
    out["docs/index.html"] = TEMPLATES.get_template("docs_index.html.j2").render(
        formats=formats, rules=canonical_rules(), kinds=list(KINDS.items()), css="style.css", home="index.html",
        root="", site=site, apis=[])
    return out


def conformance_pages(root: Path, schemas) -> dict[str, str]:
    """The testee protocol (from conformance/PROTOCOL.md) and the results matrix (from conformance/results/)."""
    conf = root / "conformance"
    if not (conf / "PROTOCOL.md").exists():
        return {}
    md = markdown.Markdown(extensions=["tables", "fenced_code"])
    examples = [(p.name, p.read_text()) for p in sorted((conf / "examples").glob("minimal_testee.*"))]
    protocol = TEMPLATES.get_template("docs_protocol.html.j2").render(
        body=Markup(md.convert((conf / "PROTOCOL.md").read_text())), examples=examples,
        schema=(conf / "protocol.schema.json").read_text(), css="../style.css", home="../index.html", root="../")
    results = [json.loads(p.read_text()) for p in sorted((conf / "results").glob("*.json"))]
    # The reference (whose output the vectors' expected values are) is no result: apart, before the judged.
    reference = [r for r in results if r.get("reference")]
    judged = [r for r in results if not r.get("reference")]
    formats = sorted({s.format_name for s in schemas})
    matrix = TEMPLATES.get_template("docs_results.html.j2").render(
        reference=reference, judged=judged, formats=formats, css="../style.css", home="../index.html", root="../")
    return {"docs/conformance/protocol.html": protocol, "docs/conformance/results.html": matrix}

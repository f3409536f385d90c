"""The docs pages: rendered from the real schemas and vectors, then read back.

They are read from `generated/`. `test_generated_tree_is_current` (tests/generator/
test_schema_errors.py, `logcodec generate --check`) renders everything afresh and holds it to
what `logcodec generate` wrote there in another process: so these pages are the render's, and the
render gives the same bytes from one process to the next, without rendering it again here.

The pages are parsed with the standard library's HTML parser, so these tests
check structure (ids, cells, attributes), not wording.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import PurePosixPath

import pytest
from logcodec.generator import build, docs
from logcodec.generator.message_specs import read_specs
from logcodec.generator.reading import Loader, load_all

from logcodec.runtime.errors import KINDS

ROOT = build.repo_root()
TOUR = ROOT / "tests" / "generator" / "schemas"


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self, tag=None, cls=None):
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and (cls is None or cls in c.attrs.get("class", "").split()):
                    yield c
                yield from c.iter(tag, cls)


class Tree(HTMLParser):
    VOID = {"meta", "link", "br", "wbr", "col", "img", "hr", "input"}

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#root", {})
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.cur)
        self.cur.children.append(node)
        if tag not in self.VOID:
            self.cur = node

    def handle_endtag(self, tag):
        node = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None, f"unmatched </{tag}>"
        self.cur = node.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def by_id(tree: Tree, ident: str) -> Node:
    found = [n for n in tree.root.iter() if n.attrs.get("id") == ident]
    assert len(found) == 1, f"{len(found)} elements with id {ident!r}"
    return found[0]


@pytest.fixture(scope="module")
def rendered() -> dict[str, bytes]:
    """Every file of `generated/`, by its path there, as `build.render_all` gives them."""
    out = ROOT / "generated"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def schemas():
    return load_all(ROOT / "schemas")


def page_of(rendered, schema) -> str:
    return rendered[f"docs/{schema.family}/{schema.id}.html"].decode()


def api_pages_expected() -> set[str]:
    """A page per request of each folder of message specs (`schemas/<family>/messages/`)."""
    return {f"docs/{folder.parent.name}/apis/{spec.name.removesuffix('Request')}.html"
            for folder in (ROOT / "schemas").glob("*/messages") for spec in read_specs(folder) if spec.kind == "request"}


def test_files(rendered, schemas):
    names = {p for p in rendered if p.startswith("docs/")}
    imported = {i.path for s in schemas for i in s.imports}
    assert names == ({"docs/index.html", "docs/style.css", "docs/conformance/protocol.html",
                      "docs/conformance/results.html", "docs/decode.html", "docs/decode.js"}
                     | {f"docs/{s.family}/{s.id}.html" for s in schemas}
                     | {f"docs/{s.path}" for s in schemas} | {f"docs/{p}" for p in imported}
                     | api_pages_expected())


def test_every_field_of_every_type_has_a_row(rendered, schemas):
    for s in schemas:
        tree = Tree(page_of(rendered, s))
        for t in s.all_types():
            if t.primitive:
                continue
            section = by_id(tree, docs.anchor(t))
            for f in t.seq:
                row = by_id(tree, f"{docs.anchor(t)}-{f.id}")
                assert row.tag == "tr" and f.id in [c.text() for c in row.iter("code", "fid")]
                assert any(n is row for n in section.iter("tr")), f"{t.name}.{f.id} outside its section"


def test_fixed_offsets_agree_with_the_hex_dump(rendered, schemas):
    """The root's offset column (the model's fixed offsets) against where the decoder found each
    field of the example (its trace variant)."""
    with_vectors = [s for s in schemas if f"vectors/{s.family}/{s.id}.json" in rendered]
    assert with_vectors
    checked = 0
    for s in with_vectors:
        tree = Tree(page_of(rendered, s))
        legend = {row[0]: int(row[1]) for row in legend_rows(tree)}
        for f in s.root.seq:
            offset = list(by_id(tree, f"{docs.anchor(s.root)}-{f.id}").iter("td"))[0].text()
            if offset.isdigit() and f.id in legend and f.type.kind != "bits":
                assert int(offset) == legend[f.id], f.id
                checked += 1
    assert checked >= 3


def legend_rows(tree: Tree):
    table = next(tree.root.iter("table", "legend"))
    for tr in list(table.iter("tr"))[1:]:
        cells = [td.text().strip() for td in tr.iter("td")]
        yield cells[1], cells[2], cells[3], cells[4]


def test_bit_diagrams_name_every_bit_field(rendered, schemas):
    for s in schemas:
        tree = Tree(page_of(rendered, s))
        for t in s.all_types():
            bit_fields = [f for f in t.seq if f.type.kind == "bits"]
            if t.primitive or not bit_fields:
                continue
            section = by_id(tree, docs.anchor(t))
            (table,) = list(section.iter("table", "bitmap"))
            numbers = [int(th.text()) for th in table.iter("th")]
            width = len(numbers)
            assert width % 8 == 0 and sorted(numbers) == list(range(width))
            assert numbers[0] == (0 if t.bit_endian == "le" else width - 1)
            cells = list(table.iter("td"))
            assert sum(int(td.attrs.get("colspan", 1)) for td in cells) == width
            named = [td.text().strip() for td in cells if "bf" in td.attrs["class"].split()]
            assert named == [f.id for f in bit_fields]
            for f in bit_fields:
                if f.enum:  # every value of an enum-typed bit field is listed next to the diagram
                    line = next(p.text() for p in section.iter("p", "bitenum") if p.text().startswith(f.id))
                    for value, name in f.enum.members.items():
                        assert f"{value} = {name}" in line.replace("\xa0", " ")


def test_attributes_diagram_of_the_record_batch(rendered, schemas):
    s = next(s for s in schemas if s.format_name == "kafka.record_batch_v2")
    table = next(by_id(Tree(page_of(rendered, s)), "type-attributes").iter("table", "bitmap"))
    assert [int(th.text()) for th in table.iter("th")] == list(range(15, -1, -1))
    spans = [(td.text().strip(), int(td.attrs["colspan"])) for td in table.iter("td")]
    assert spans == [("reserved", 9), ("has_delete_horizon", 1), ("is_control", 1), ("is_transactional", 1),
                     ("timestamp_type", 1), ("compression", 3)]


def test_hex_dump_covers_every_byte_once(rendered, schemas):
    for s in schemas:
        vectors_path = f"vectors/{s.family}/{s.id}.json"
        if vectors_path not in rendered:
            continue
        tree = Tree(page_of(rendered, s))
        section_text = by_id(tree, "hexdump").parent.text()
        tc_id = re.search(r"golden vector (\S+) from", section_text).group(1)
        vectors = json.loads(rendered[vectors_path])
        test = next(t for g in vectors["testGroups"] for t in g["tests"] if t["tcId"] == tc_id)
        assert test["result"] == "valid"
        data = bytes.fromhex(test["bytes"])
        table = next(tree.root.iter("table", "hexdump"))
        cells = [c for td in table.iter("td", "hex") for c in td.iter("span") if "data-o" in c.attrs]
        assert [int(c.attrs["data-o"]) for c in cells] == list(range(len(data)))
        assert bytes.fromhex("".join(c.text() for c in cells)) == data
        legend = list(legend_rows(tree))
        owned = sorted((int(off), int(off) + int(n)) for _, off, n, _ in legend)
        assert all(c.attrs["class"] != "gap" for c in cells), "a byte that no field holds"
        assert owned[0][0] == 0 and owned[-1][1] == len(data)
        # Neighbouring fields stand apart without hovering: a field's bytes are one box per row.
        for prev, cell in zip(cells, cells[1:]):
            starts = "fs" in cell.attrs["class"].split()
            assert starts == (prev.attrs["title"] != cell.attrs["title"] or int(cell.attrs["data-o"]) % 16 == 0)
            if starts and prev.attrs["title"] != cell.attrs["title"]:
                assert "fe" in prev.attrs["class"].split()
        titles = {c.attrs["title"] for c in cells}
        assert titles == {path for path, *_ in legend}
        # The example exercises nested types where there are any: some field paths go below the root.
        nested = any(f.type.kind in ("user", "switch") for f in s.root.seq)
        assert any("." in path for path in titles) == nested, s.id


def test_links_resolve(rendered, schemas):
    for s in schemas:
        path = f"docs/{s.family}/{s.id}.html"
        tree = Tree(page_of(rendered, s))
        ids = {n.attrs["id"] for n in tree.root.iter() if "id" in n.attrs}
        for a in tree.root.iter("a"):
            href = a.attrs["href"]
            if href.startswith("#"):
                assert href[1:] in ids, href
            elif not href.startswith("http"):
                target = PurePosixPath("generated", path).parent / href.split("#")[0]
                resolved = PurePosixPath(*_normalise(target.parts))
                rel = resolved.relative_to("generated").as_posix() if resolved.parts[0] == "generated" else None
                assert (rel in rendered) if rel else (ROOT / resolved).exists(), href
        assert "<script" not in page_of(rendered, s)
        assert [link.attrs["href"] for link in tree.root.iter("link") if link.attrs["rel"] == "stylesheet"] == ["../style.css"]


def _normalise(parts):
    out = []
    for p in parts:
        if p == "..":
            out.pop()
        elif p != ".":
            out.append(p)
    return out


def test_structure_diagrams_are_no_wider_than_the_page(rendered, schemas):
    """Wide structures continue in bands below (tests/docs/test_browser.py checks the drawing)."""
    from logcodec.generator.docs import diagram

    for s in schemas:
        width = re.search(r'<svg class="diagram"[^>]* width="(\d+)"', page_of(rendered, s)).group(1)
        assert int(width) <= diagram.MAX_WIDTH, s.format_name


def test_the_reference_stands_apart_from_the_judged_implementations(rendered):
    """logcodec's own results are the reference (the vectors' expected values are its output): the
    results page says so, and its matrix puts it under its own heading, before the judged ones."""
    tree = Tree(rendered["docs/conformance/results.html"].decode())
    assert "is the reference, not a result" in by_id(tree, "reference").text()
    groups, testees = list(next(tree.root.iter("table", "matrix")).iter("tr"))[:2]
    headings = [(th.text().strip(), th.attrs.get("colspan")) for th in groups.iter("th")]
    assert headings[2][0].startswith("Reference") and headings[3][0] == "Judged implementations"
    names = [next(th.iter("a")).text() for th in testees.iter("th")]
    classes = [th.attrs.get("class", "") for th in testees.iter("th")]
    assert names[0] == "logcodec" and classes[0] == "ref" and headings[2][1] == "1"
    assert classes[1] == "split" and "ref" not in classes[1:] and headings[3][1] == str(len(names) - 1)
    for row in list(next(tree.root.iter("table", "matrix")).iter("tr"))[2:]:
        cells = [td.attrs["class"].split() for td in row.iter("td") if "op" not in td.attrs.get("class", "")]
        assert "ref" in cells[0] and "split" in cells[1] and not any("ref" in c for c in cells[1:])


def test_index(rendered, schemas):
    html = rendered["docs/index.html"].decode()
    tree = Tree(html)
    hrefs = {a.attrs["href"] for a in tree.root.iter("a")}
    for s in schemas:
        assert f"{s.family}/{s.id}.html" in hrefs and s.title in html
    for kind in KINDS:
        assert by_id(tree, f"error-{kind}").text() == kind
    rules = by_id(tree, "canonical-json").text()
    assert rules  # the section exists; its bullets come from logcodec.runtime.values
    assert any("hex" in li.text() for li in tree.root.iter("li"))


def test_feature_tour_page():
    """A schema with little-endian bit order, contents, valid ranges, a defaulted switch, if and repeats."""
    schema = Loader(TOUR).load("demo/feature_tour.ksy")
    tree = Tree(docs.Page(schema, None, None).render())
    flags = next(by_id(tree, "type-flags").iter("table", "bitmap"))
    assert [int(th.text()) for th in flags.iter("th")] == list(range(8))
    assert [td.text().strip() for td in flags.iter("td")] == ["has_extra", "level", "reserved"]
    root = docs.anchor(schema.root)
    offsets = {f.id: list(by_id(tree, f"{root}-{f.id}").iter("td"))[0].text() for f in schema.root.seq}
    assert offsets == {"magic": "0", "flags": "2", "version": "3", "kind": "4", "len_body": "5", "body": "7",
                       "extra": "+var", "words": "+var", "tail": "+var"}
    notes = {f.id: by_id(tree, f"{root}-{f.id}").text() for f in schema.root.seq}
    assert "4c43" in notes["magic"] and "flags.has_extra" in notes["extra"] and "_ == 0" in notes["words"]
    assert "kind::small, kind::big, kind::text" in notes["kind"] and "derived on encode" in notes["len_body"]
    assert "else bytes" not in notes["body"]  # the switch has a default case


def test_text_is_escaped():
    assert str(docs._inline("a <b> & `x < y`")) == "a &lt;b&gt; &amp; <code>x &lt; y</code>"
    assert str(docs._paragraphs("one\ntwo\n\nthree")) == "<p>one\ntwo</p>\n<p>three</p>"

"""The structure diagram of a format page: an SVG drawn from the schema model.

One box per type (its fields with offsets, sizes and types, as the page's tables
give them) and an arrow from each field to the type it holds: solid for a plain
nested type, dashed with the case for a switch, labelled with the repeat for a
repeated field. Types of another schema are boxes that link to that schema's page.
Boxes stand in columns by their depth below the root, the way Kaitai's GraphViz
diagrams read from left to right. The SVG is drawn here, not by Graphviz, so it
needs no program and is the same on every machine.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup, escape

LABEL_CHAR = 6.7  # px per character of the 11 px labels
CHAR = 7.3  # px per character of the 12 px monospace font (DejaVu Sans Mono and friends)
ROW, HEAD, PAD, COL_GAP, BOX_GAP = 18, 24, 8, 96, 22


def _plain(text) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", str(text)))


def _clip(text: str, n: int = 34) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class _Box:
    def __init__(self, key, title: str, href: str, rows: list, external: bool = False) -> None:
        self.key, self.title, self.href, self.rows, self.external = key, title, href, rows, external
        self.col, self.x, self.y = 0, 0.0, 0.0
        widths = [len(title) + 2] + [0]
        self.cols = [max([len(r["off"]) for r in rows] + [3]), max([len(r["size"]) for r in rows] + [4]),
                     max([len(r["id"]) for r in rows] + [4]), max([len(r["type"]) for r in rows] + [4])]
        self.w = max(widths[0] * CHAR + 2 * PAD, (sum(self.cols) + 6) * CHAR + 2 * PAD)
        self.h = HEAD + ROW * len(rows) + (4 if rows else 0)


def render(page) -> Markup:
    """The SVG of one format page (`docs.Page`)."""
    from . import anchor, raw_at, type_href

    s = page.schema
    boxes: dict = {}
    edges: list = []  # (from box, row index, to box key, label, dashed)

    def type_text(t, f) -> str:
        ref = f.type
        if ref.kind == "switch":
            return "switch " + _plain(raw_at(t.schema.raw, f.ypath)["type"]["switch-on"])
        if ref.kind == "user":
            return str(raw_at(t.schema.raw, f.ypath)["type"]).split("(")[0]
        if ref.kind == "str":
            return "str"
        if ref.kind in ("int", "float", "bits"):
            return str(raw_at(t.schema.raw, f.ypath).get("type"))
        return "bytes" if f.contents is None else "magic"

    def repeat_label(t, f) -> str:
        raw = raw_at(t.schema.raw, f.ypath)
        if f.repeat == "expr":
            return "× " + _clip(_plain(raw["repeat-expr"]), 24)
        if f.repeat == "eos":
            return "× to end"
        if f.repeat == "until":
            return "× until " + _clip(_plain(raw["repeat-until"]), 18)
        return ""

    def box_of(t):
        key = id(t)
        if key in boxes:
            return boxes[key]
        if t.schema is not s:
            box = _Box(key, f"{t.schema.format_name} › {t.name}", type_href(t, s), [], external=True)
            boxes[key] = box
            return box
        rows = []
        box = _Box(key, t.name, "#" + anchor(t), rows)
        boxes[key] = box
        for r in page.layout(t)[0]:
            f = r["field"]
            rows.append({"off": r["offset"], "size": _clip(_plain(r["size"]).replace(" each", ""), 18),
                         "id": f.id, "type": _clip(type_text(t, f), 26), "href": f"#{anchor(t)}-{f.id}"})
            refs = []
            if f.type.kind == "user" and not f.type.user.primitive:
                refs = [(f.type.user, "")]
            elif f.type.kind == "switch":
                refs = [(c.user, kx) for kx, (_, c) in zip(raw_at(t.schema.raw, f.ypath)["type"]["cases"], f.type.cases)
                        if c.kind == "user" and not c.user.primitive]
            merged: dict = {}  # one arrow per target: cases that lead to the same type share it
            for target, case in refs:
                merged.setdefault(id(target), (target, []))[1].append(
                    "else" if str(case) == "_" else _plain(case).split("::")[-1])
            for target, cases in merged.values():
                label = repeat_label(t, f)
                if f.type.kind == "switch":  # the cases, without their enum's name
                    label = (", ".join(cases) + (f" {label}" if label else "")).strip()
                edges.append((box, len(rows) - 1, target, label, f.type.kind == "switch"))
        box.__init__(key, box.title, box.href, rows)  # sizes now that the rows are known
        return box

    # Columns: breadth first from the root; a type stays in the column where it is first met.
    order, queue = [], [(s.root, 0)]
    seen = set()
    while queue:
        t, depth = queue.pop(0)
        if id(t) in seen:
            continue
        seen.add(id(t))
        box = box_of(t)
        box.col = depth
        order.append(box)
        for src, _, target, _, _ in [e for e in edges if e[0] is box]:
            queue.append((target, depth + 1))
    for t in page.types:  # types no field reaches (a param's type, say) go last
        if id(t) not in seen:
            seen.add(id(t))
            box = box_of(t)
            box.col = max((b.col for b in order), default=0) + 1
            order.append(box)
    ncols = max(b.col for b in order) + 1
    # The gap after a column leaves room for the labels at the heads of the arrows that cross it.
    gaps = [COL_GAP] * ncols
    for box, _, target, label, _ in edges:
        if boxes[id(target)].col == box.col + 1:
            gaps[box.col] = max(gaps[box.col], len(label) * LABEL_CHAR + 48)
    xs, x = [], 10.0
    for c in range(ncols):
        xs.append(x)
        x += max(b.w for b in order if b.col == c) + gaps[c]
    width = x - gaps[-1] + 20
    heights = [10.0] * ncols
    for b in order:
        b.x, b.y = xs[b.col], heights[b.col]
        heights[b.col] += b.h + BOX_GAP
    height = max(heights) - BOX_GAP + 10

    out = [f'<svg class="diagram" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="Structure of {escape(s.format_name)}">',
           "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
           "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"dg-head\"/></marker></defs>"]
    labels = []
    for box, row, target, label, dashed in edges:
        tb = boxes[id(target)]
        y1 = box.y + HEAD + ROW * row + ROW / 2 + 2
        x1 = box.x + box.w
        if tb.col > box.col:
            x2, y2 = tb.x, tb.y + HEAD / 2
            bend = max(40.0, (x2 - x1) / 2)
            d = f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
            lx, ly = x2 - 12, y2 - 7  # by the arrow's head, where edges from one switch part
        else:  # back to an earlier column, or the same one: round the right-hand side
            x2, y2 = tb.x + tb.w, tb.y + HEAD / 2
            reach = max(x1, x2) + 50
            d = f"M{x1:.1f},{y1:.1f} C{reach:.1f},{y1:.1f} {reach:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
            lx, ly = x1 + 6, y1 - 4
        out.append(f'<path class="dg-edge{" dg-switch" if dashed else ""}" d="{d}" marker-end="url(#arrow)"/>')
        if label:
            anchor_end = ' text-anchor="end"' if tb.col > box.col else ""
            labels.append(f'<text class="dg-label" x="{lx:.1f}" y="{ly:.1f}"{anchor_end}>{escape(label)}</text>')
    for b in order:
        cls = "dg-box dg-ext" if b.external else "dg-box"
        out.append(f'<g class="{cls}"><rect x="{b.x:.1f}" y="{b.y:.1f}" width="{b.w:.1f}" height="{b.h:.1f}" rx="4"/>')
        out.append(f'<a href="{escape(b.href)}"><rect class="dg-title" x="{b.x:.1f}" y="{b.y:.1f}" width="{b.w:.1f}" '
                   f'height="{HEAD}" rx="4"/><text class="dg-name" x="{b.x + PAD:.1f}" y="{b.y + 16:.1f}">'
                   f'{escape(b.title)}</text></a>')
        cx = [b.x + PAD]
        for w in b.cols[:-1]:
            cx.append(cx[-1] + (w + 2) * CHAR)
        for k, r in enumerate(b.rows):
            y = b.y + HEAD + ROW * k + 14
            if k % 2:
                out.append(f'<rect class="dg-stripe" x="{b.x + 1:.1f}" y="{y - 13:.1f}" width="{b.w - 2:.1f}" height="{ROW}"/>')
            out.append(f'<text class="dg-off" x="{cx[0]:.1f}" y="{y:.1f}">{escape(r["off"])}</text>'
                       f'<text class="dg-size" x="{cx[1]:.1f}" y="{y:.1f}">{escape(r["size"])}</text>'
                       f'<a href="{escape(r["href"])}"><text class="dg-field" x="{cx[2]:.1f}" y="{y:.1f}">'
                       f'{escape(r["id"])}</text></a>'
                       f'<text class="dg-type" x="{cx[3]:.1f}" y="{y:.1f}">{escape(r["type"])}</text>')
        out.append("</g>")
    out.extend(labels)
    out.append("</svg>")
    return Markup("\n".join(out))

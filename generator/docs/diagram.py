"""The structure diagram of a format page: an SVG drawn from the schema model.

One box per type (its fields with offsets, sizes and types, as the page's tables
give them) and an arrow from each field to the type it holds: solid for a plain
nested type, dashed with the case for a switch, labelled with the repeat for a
repeated field. Types of another schema are boxes that link to that schema's page.
Boxes stand in columns by their depth below the root, the way Kaitai's GraphViz
diagrams read from left to right; columns that would make the diagram wider than the
page continue in a band below, and arrows keep to the space between boxes (`_Grid`).
The SVG is drawn here, not by Graphviz, so it needs no program and is the same on
every machine.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from .places import anchor, raw_at, type_href

LABEL_CHAR = 6.7  # px per character of the 11 px labels
CHAR = 7.3  # px per character of the 12 px monospace font (DejaVu Sans Mono and friends)
ROW, HEAD, PAD, COL_GAP, BOX_GAP = 18, 24, 8, 96, 22
LANE = 6  # px between arrows that run side by side
MAX_WIDTH = 1200  # px: the diagram's box holds 1,222 in a 1,400 px window (docs.css: main, .diagram-box)


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


@dataclass(eq=False)
class _Arrow:
    """An arrow from row `row` of `box` to the box of the type that field holds."""

    box: _Box
    row: int
    target: _Box
    label: str
    dashed: bool

    @property
    def trunk(self) -> tuple:
        return id(self.box), self.row  # the arrows of one field leave it together

    @property
    def forward(self) -> bool:
        """To the next column: the arrows of a tree. The others (back to a type that holds the
        field, or to a type no field reaches) go round, over the top of the boxes."""
        return self.target.col == self.box.col + 1


class _Grid:
    """Where the boxes and the arrows go.

    Boxes stand in columns by depth; the columns are packed, left to right, into bands no
    wider than MAX_WIDTH, one band below the other, so that the diagram fits the page
    rather than scrolling sideways. Arrows keep to the space between boxes, so none
    crosses a box: an arrow to the next column curves through the gap after its field's
    column; one to the next band runs down the right-hand side of its band, along the
    space below it, and down the left margin of the next; one that goes round leaves
    through the gap after its column, runs over the top of the band (and down the far
    left, between bands) and enters its type from the right. Arrows that run side by side
    keep lanes LANE apart."""

    def __init__(self, order: list[_Box], arrows: list[_Arrow]) -> None:
        self.order, self.arrows = order, arrows
        self.ncols = max(b.col for b in order) + 1
        self.col_w = [max(b.w for b in order if b.col == c) for c in range(self.ncols)]
        self.gap = [COL_GAP] * self.ncols  # room after a column for the labels at the heads of its arrows
        for a in arrows:
            if a.forward:
                self.gap[a.box.col] = max(self.gap[a.box.col], len(a.label) * LABEL_CHAR + 48)
        self.loops = [a for a in arrows if not a.forward]
        # the far left's lanes, for arrows that go round between bands (before the bands are known, for any
        # that might)
        self.left_base = 10 + LANE * sum(a.box.col != a.target.col for a in self.loops)
        self.bands = self._pack()
        self.band_of = {c: k for k, (first, last) in enumerate(self.bands) for c in range(first, last + 1)}
        self.far_left = {key: k for k, key in enumerate(
            id(a) for a in self.loops if self.band_of[a.box.col] != self.band_of[a.target.col])}
        self._place()

    # -------------------------------------------------- sizes

    def trunks_out(self, col: int) -> list[tuple]:
        """The fields of a column with arrows to the next one, lowest first (when the column ends a
        band, each leaves by its own lane, the lowest field by the innermost)."""
        stacked = {id(b): k for k, b in enumerate(self.order)}  # a column's boxes stand in this order
        trunks = dict.fromkeys(a.trunk for a in self.arrows if a.forward and a.box.col == col)
        return sorted(trunks, key=lambda trunk: (stacked[trunk[0]], trunk[1]), reverse=True)

    def side_lanes(self, col: int, band_end: bool) -> list:
        """The lanes of the space after a column: the arrows that go round leave and enter there, and at
        the end of a band the fields whose arrows go on to the next band run down it first."""
        keys = [("to next band", t) for t in self.trunks_out(col)] if band_end else []
        keys += [("out", id(a)) for a in self.loops if a.box.col == col]
        keys += [("in", id(a)) for a in self.loops if a.target.col == col]
        return keys

    def left_margin(self, first: int) -> float:
        if first == 0:
            return self.left_base
        return self.left_base + 12 + LANE * len(self.trunks_out(first - 1)) + self.gap[first - 1]

    def band_width(self, first: int, last: int) -> float:
        cols = range(first, last + 1)
        return (self.left_margin(first) + sum(self.col_w[c] for c in cols) + sum(self.gap[c] for c in cols[:-1])
                + 12 + LANE * len(self.side_lanes(last, True)) + 10)

    def _pack(self) -> list[tuple[int, int]]:
        bands, first = [], 0
        while first < self.ncols:
            last = first
            while last + 1 < self.ncols and self.band_width(first, last + 1) <= MAX_WIDTH:
                last += 1
            bands.append((first, last))
            first = last + 1
        return bands

    def top_lanes(self, band: int) -> list[int]:
        """The arrows that go round over the top of a band: those that leave it and those that enter it."""
        return list(dict.fromkeys(id(a) for a in self.loops for col in (a.box.col, a.target.col)
                                  if self.band_of[col] == band))

    def top_room(self, band: int) -> float:
        lanes = self.top_lanes(band)
        labelled = any(a.label for a in self.loops if self.band_of[a.target.col] == band)
        return (10 + LANE * len(lanes) + (14 if labelled else 0)) if lanes else 0

    # -------------------------------------------------- places

    def _place(self) -> None:
        self.col_x: list[float] = [0.0] * self.ncols
        self.band_top: list[float] = []
        self.band_bottom: list[float] = []
        y, self.width = 10.0, 0.0
        for k, (first, last) in enumerate(self.bands):
            if k:  # below the lanes of the arrows that come from the band above
                y = self.band_bottom[-1] + 24 + LANE * len(self.trunks_out(first - 1))
            top = y + self.top_room(k)
            self.band_top.append(top)
            x, bottom = self.left_margin(first), top
            for c in range(first, last + 1):
                self.col_x[c] = x
                bottom = max(bottom, self._stack(c, x, top))
                x += self.col_w[c] + self.gap[c]
            self.band_bottom.append(bottom)
            self.width = max(self.width, self.band_width(first, last))
        self.height = self.band_bottom[-1] + 10
        self.lanes = {c: self.side_lanes(c, c == self.bands[self.band_of[c]][1]) for c in range(self.ncols)}

    def _stack(self, col: int, x: float, top: float) -> float:
        """Stand a column's boxes one below the other from `top`; returns where the last ends."""
        y = top
        for b in (b for b in self.order if b.col == col):
            b.x, b.y = x, y
            y += b.h + BOX_GAP
        return y - BOX_GAP

    def col_right(self, col: int) -> float:
        return self.col_x[col] + self.col_w[col]

    def row_y(self, trunk: tuple) -> float:
        box = next(b for b in self.order if id(b) == trunk[0])
        return box.y + HEAD + ROW * trunk[1] + ROW / 2 + 2

    def side_x(self, col: int, key) -> float:
        return self.col_right(col) + 12 + LANE * self.lanes[col].index(key)

    def top_y(self, band: int, arrow: _Arrow) -> float:
        return self.band_top[band] - 10 - LANE * self.top_lanes(band).index(id(arrow))

    # -------------------------------------------------- arrows

    def route(self, a: _Arrow) -> tuple[str, tuple]:
        """(SVG path, ((x, y) of its label, whether the label ends there)) of an arrow."""
        x1, y1 = a.box.x + a.box.w, self.row_y(a.trunk)
        tb = a.target
        y2 = tb.y + HEAD / 2
        if not a.forward:
            return self._round(a, x1, y1, tb.x + tb.w, y2)
        x2, head = tb.x, ((tb.x - 12, y2 - 7), True)
        col = a.box.col
        if self.band_of[tb.col] == self.band_of[col]:
            xr = self.col_right(col)
            bend = max(40.0, (x2 - xr) / 2)
            start = f"M{x1:.1f},{y1:.1f}" + (f" H{xr:.1f}" if xr > x1 else "")
            return f"{start} C{xr + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} {x2:.1f},{y2:.1f}", head
        lane = self.lanes[col].index(("to next band", a.trunk))
        xr = self.side_x(col, ("to next band", a.trunk))
        yb = self.band_bottom[self.band_of[col]] + 12 + LANE * lane
        xl = self.left_base + 12 + LANE * lane
        return _polyline([(x1, y1), (xr, y1), (xr, yb), (xl, yb), (xl, y2), (x2, y2)]), head

    def _round(self, a: _Arrow, x1: float, y1: float, x2: float, y2: float) -> tuple[str, tuple]:
        """An arrow that goes round: out through the gap after its column, over the top of its band
        (and down the far left to the band of its type), into its type from the right."""
        src, dst = self.band_of[a.box.col], self.band_of[a.target.col]
        xout, xin = self.side_x(a.box.col, ("out", id(a))), self.side_x(a.target.col, ("in", id(a)))
        ys, yt = self.top_y(src, a), self.top_y(dst, a)
        points = [(x1, y1), (xout, y1), (xout, ys)]
        if src != dst:
            xf = 6 + LANE * self.far_left[id(a)]
            points += [(xf, ys), (xf, yt)]
        points += [(xin, yt), (xin, y2), (x2, y2)]
        return _polyline(points), ((xin + 6, yt - 4), False)


def _polyline(points: list[tuple[float, float]], radius: float = 6.0) -> str:
    """An SVG path through `points` by straight lines, its corners rounded."""
    pts = [p for k, p in enumerate(points) if k == 0 or p != points[k - 1]]
    out = [f"M{pts[0][0]:.1f},{pts[0][1]:.1f}"]
    for (ax, ay), (bx, by), (cx, cy) in zip(pts, pts[1:], pts[2:]):
        r_in = min(radius, (abs(bx - ax) + abs(by - ay)) / 2)
        r_out = min(radius, (abs(cx - bx) + abs(cy - by)) / 2)
        px, py = bx - _sign(bx - ax) * r_in, by - _sign(by - ay) * r_in
        qx, qy = bx + _sign(cx - bx) * r_out, by + _sign(cy - by) * r_out
        out.append(f"L{px:.1f},{py:.1f} Q{bx:.1f},{by:.1f} {qx:.1f},{qy:.1f}")
    out.append(f"L{pts[-1][0]:.1f},{pts[-1][1]:.1f}")
    return " ".join(out)


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def render(page) -> Markup:
    """The SVG of one format page (`docs.Page`)."""
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
    arrows = [_Arrow(box, row, boxes[id(target)], label, dashed) for box, row, target, label, dashed in edges]
    grid = _Grid(order, arrows)
    out = [f'<svg class="diagram" xmlns="http://www.w3.org/2000/svg" width="{grid.width:.0f}" '
           f'height="{grid.height:.0f}" viewBox="0 0 {grid.width:.0f} {grid.height:.0f}" role="img" '
           f'aria-label="Structure of {escape(s.format_name)}">',
           "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
           "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" class=\"dg-head\"/></marker></defs>"]
    labels = []
    for arrow in arrows:
        d, label_at = grid.route(arrow)
        out.append(f'<path class="dg-edge{" dg-switch" if arrow.dashed else ""}" d="{d}" marker-end="url(#arrow)"/>')
        if arrow.label:
            (lx, ly), end = label_at
            anchor_end = ' text-anchor="end"' if end else ""
            labels.append(f'<text class="dg-label" x="{lx:.1f}" y="{ly:.1f}"{anchor_end}>{escape(arrow.label)}</text>')
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

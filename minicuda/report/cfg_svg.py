"""`minicudac --emit=cfg-svg` and the report's CFG: a function's control-flow graph as SVG.

Each block is a box with its label, its immediate post-dominator and its instructions;
a block ending in a conditional branch that may diverge is drawn red (a uniform one
green), and a reconvergence point, the join a divergent branch's SSY/BSSY names (its
IPDOM where no marker names one), is drawn with a thick blue border.  Every box is an
SVG group with the id `cfg-FUNCTION-LABEL` and the classes `cfg-block` plus
`divergent`, `uniform`, `reconvergence` as they apply, so a page can find and
highlight it; a block's `data-lines` lists the source lines of its instructions.

The layout is graphviz's `dot` through the `graphviz` Python package when both are
installed (the `[report]` extra and the system's graphviz); else a layered layout
computed here: blocks ranked by their longest forward path from the entry, back
edges drawn as arcs on the right.
"""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from minicuda.ir import format_instr, reconvergence_joins
from minicuda.passes.cfg import EXIT, build_cfg, conditional_branch
from minicuda.passes.divergence import analyze_divergence
from minicuda.passes.postdom import ipdom_of

MAX_SHOWN = 14           # instructions shown in a box (then "... N more")
CHAR_W, LINE_H = 7.2, 14  # the fallback layout's monospace metrics
GAP_X, GAP_Y = 30, 40
FILL = {"divergent": "#fde2e2", "uniform": "#e3f5e3", "": "#ffffff"}
RECONVERGE = "#1f4fb4"
SVG_NS = "http://www.w3.org/2000/svg"
STROKE = {"divergent": "#c0392b", "uniform": "#2e7d32", "": "#555555"}


@dataclass
class BlockView:
    """One block as the picture shows it."""
    label: str
    ipdom: str | None
    kind: str                     # divergent, uniform (a conditional branch's), or ""
    reconvergence: bool
    text: list[str]
    lines: list[int]
    succs: list[str] = field(default_factory=list)

    def classes(self) -> str:
        return " ".join(["cfg-block"] + ([self.kind] if self.kind else []) + (["reconvergence"] if self.reconvergence else []))


def block_views(fn) -> list[BlockView]:
    """The blocks of `fn` with what the picture marks on them."""
    cfg = build_cfg(fn)
    ipdom = ipdom_of(cfg)
    divergence = analyze_divergence(fn)
    joins = reconvergence_joins(fn)
    views, rejoin = [], set()
    for b in fn.blocks:
        kind = ""
        if conditional_branch(b) is not None:
            kind = "uniform" if divergence.branch_is_uniform(b.label) else "divergent"
            if kind == "divergent":
                rejoin.add(joins.get(b.label) or ipdom.get(b.label))
        text = [format_instr(i, with_loc=False) for i in b.instrs]
        if len(text) > MAX_SHOWN:
            text = text[:MAX_SHOWN - 1] + [f"... {len(text) - MAX_SHOWN + 1} more"]
        lines = sorted({i.loc.line for i in b.instrs if i.loc is not None})
        views.append(BlockView(b.label, ipdom.get(b.label), kind, False, text, lines, cfg.succs(b.label)))
    for v in views:
        v.reconvergence = v.label in rejoin
    return views


def node_id(fn_name: str, label: str) -> str:
    return f"cfg-{fn_name}-{label}"


def heading(v: BlockView) -> str:
    ipdom = "exit" if v.ipdom in (None, EXIT) else v.ipdom
    marks = {"divergent": ", divergent branch", "uniform": ", uniform branch"}.get(v.kind, "")
    return f"{v.label}: ipdom {ipdom}{marks}" + (", reconvergence point" if v.reconvergence else "")


def function_svg(fn, layout: str | None = None) -> str:
    """The SVG of `fn`'s CFG; layout "dot" (graphviz), "layered" (this module's), or None:
    dot when it can be had."""
    views = block_views(fn)
    if layout is None:
        layout = "dot" if dot_available() else "layered"
    svg = _dot_svg(fn, views) if layout == "dot" else _layered_svg(fn, views)
    return svg[svg.index("<svg"):]   # no XML prolog or DOCTYPE: the SVG embeds in a page as it is


def dot_available() -> bool:
    try:
        import graphviz  # noqa: F401  (the [report] extra)
    except ImportError:
        return False
    return shutil.which("dot") is not None


def module_svg(module, layout: str | None = None) -> str:
    """`--emit=cfg-svg`: every function's CFG, one SVG stacked under the other in one SVG."""
    parts = [function_svg(fn, layout) for fn in module.functions.values() if fn.blocks]
    ET.register_namespace("", SVG_NS)
    root = ET.Element(f"{{{SVG_NS}}}svg")
    y, width = 0.0, 0.0
    for fn, part in zip([f for f in module.functions.values() if f.blocks], parts):
        inner = ET.fromstring(part)
        w, h = _size(inner)
        title = ET.SubElement(root, f"{{{SVG_NS}}}text", x="4", y=f"{y + 16:.0f}", attrib={"font-family": "monospace",
                                                                           "font-weight": "bold"})
        title.text = f"{fn.kind} {fn.name}"
        inner.set("x", "0")
        inner.set("y", f"{y + 24:.0f}")
        root.append(inner)
        y += h + 40
        width = max(width, w)
    root.set("width", f"{width:.0f}")
    root.set("height", f"{y:.0f}")
    root.set("viewBox", f"0 0 {width:.0f} {y:.0f}")
    return ET.tostring(root, encoding="unicode") + "\n"


def _size(svg: ET.Element) -> tuple[float, float]:
    def number(text: str | None) -> float:
        return float((text or "0").replace("pt", "").replace("px", ""))
    return number(svg.get("width")), number(svg.get("height"))


# ---- graphviz's dot ------------------------------------------------------------------------
def _dot_svg(fn, views: list[BlockView]) -> str:
    import graphviz   # (the [report] extra; dot_available said it is there)

    g = graphviz.Digraph(name=fn.name, graph_attr={"rankdir": "TB", "nodesep": "0.3", "ranksep": "0.35"},
                         node_attr={"shape": "box", "fontname": "monospace", "fontsize": "10"})
    for v in views:
        label = "\\l".join([heading(v)] + v.text) + "\\l"
        g.node(v.label, label=_escape(label), id=node_id(fn.name, v.label), **{"class": v.classes()},
               style="filled", fillcolor=FILL[v.kind], color=RECONVERGE if v.reconvergence else STROKE[v.kind],
               penwidth="3" if v.reconvergence else "1.2" if not v.kind else "2",
               **({"peripheries": "2"} if v.reconvergence else {}))
        for s in v.succs:
            g.edge(v.label, "EXIT" if s == EXIT else s)
    g.node("EXIT", label="exit", shape="doublecircle", id=node_id(fn.name, "EXIT"))
    svg = g.pipe(format="svg").decode()
    return _with_lines(svg, fn.name, views)


def _escape(text: str) -> str:
    return text.replace("\"", "\\\"").replace("{", "\\{").replace("}", "\\}")


def _with_lines(svg: str, fn_name: str, views: list[BlockView]) -> str:
    """dot's SVG with each block's data-lines added (dot has no attribute for it)."""
    ET.register_namespace("", "http://www.w3.org/2000/svg")
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(svg[svg.index("<svg"):])
    lines = {node_id(fn_name, v.label): " ".join(map(str, v.lines)) for v in views}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("id") in lines:
            g.set("data-lines", lines[g.get("id")])
    return ET.tostring(root, encoding="unicode")


# ---- the layered layout --------------------------------------------------------------------
def _ranks(views: list[BlockView]) -> tuple[dict[str, int], set[tuple[str, str]]]:
    """Each block's rank (the longest forward path from the entry) and the back edges (to a
    block not after it in a depth-first walk's stack)."""
    succs = {v.label: [s for s in v.succs if s != EXIT] for v in views}
    back, state = set(), {}
    order: list[str] = []

    def walk(label: str) -> None:   # iterative depth-first walk: post-order and back edges
        stack = [(label, iter(succs[label]))]
        state[label] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                order.append(node)
                stack.pop()
            elif state.get(nxt) == 1:
                back.add((node, nxt))
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(succs[nxt])))

    for v in views:
        if v.label not in state:
            walk(v.label)
    rank = {label: 0 for label in succs}
    for label in reversed(order):   # reverse post-order: every forward edge's source first
        for s in succs[label]:
            if (label, s) not in back:
                rank[s] = max(rank[s], rank[label] + 1)
    return rank, back


def _layered_svg(fn, views: list[BlockView]) -> str:
    rank, back = _ranks(views)
    boxes: dict[str, list[float]] = {}   # label -> [x, y, w, h]
    rows: dict[int, list[BlockView]] = {}
    for v in views:
        rows.setdefault(rank[v.label], []).append(v)
    y = 10.0
    width = 0.0
    for r in sorted(rows):
        x, tallest = 10.0, 0.0
        for v in rows[r]:
            w = CHAR_W * max(len(t) for t in [heading(v)] + v.text) + 16
            h = LINE_H * (len(v.text) + 1) + 12
            boxes[v.label] = [x, y, w, h]
            x += w + GAP_X
            tallest = max(tallest, h)
        width = max(width, x)
        y += tallest + GAP_Y
    boxes[EXIT] = [10.0, y, 40.0, 40.0]
    height = y + 50
    width += 60   # room for the back edges' arcs
    root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=f"{width:.0f}", height=f"{height:.0f}",
                      viewBox=f"0 0 {width:.0f} {height:.0f}")
    defs = ET.SubElement(root, "defs")
    marker = ET.SubElement(defs, "marker", id=f"arrow-{fn.name}", viewBox="0 0 10 10", refX="10", refY="5",
                           markerWidth="7", markerHeight="7", orient="auto")
    ET.SubElement(marker, "path", d="M0,0 L10,5 L0,10 z", fill="#333")
    for v in views:
        for s in v.succs:
            _edge(root, fn.name, boxes[v.label], boxes[s], (v.label, s) in back, width)
    for v in views:
        _box(root, fn.name, v, boxes[v.label])
    g = ET.SubElement(root, "g", id=node_id(fn.name, "EXIT"), attrib={"class": "cfg-exit"})
    x, y0, _, _ = boxes[EXIT]
    ET.SubElement(g, "circle", cx=f"{x + 20:.1f}", cy=f"{y0 + 20:.1f}", r="18", fill="white", stroke="#333")
    t = ET.SubElement(g, "text", x=f"{x + 20:.1f}", y=f"{y0 + 24:.1f}", attrib={"text-anchor": "middle",
                                                                              "font-family": "monospace",
                                                                              "font-size": "11"})
    t.text = "exit"
    return ET.tostring(root, encoding="unicode")


def _box(root: ET.Element, fn_name: str, v: BlockView, box: list[float]) -> None:
    x, y, w, h = box
    g = ET.SubElement(root, "g", id=node_id(fn_name, v.label), attrib={"class": v.classes(),
                                                                       "data-lines": " ".join(map(str, v.lines))})
    title = ET.SubElement(g, "title")
    title.text = v.label
    ET.SubElement(g, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{w:.1f}", height=f"{h:.1f}", fill=FILL[v.kind],
                  stroke=STROKE[v.kind], attrib={"stroke-width": "3" if v.reconvergence else "1.5"})
    if v.reconvergence:
        ET.SubElement(g, "rect", x=f"{x + 3:.1f}", y=f"{y + 3:.1f}", width=f"{w - 6:.1f}", height=f"{h - 6:.1f}",
                      fill="none", stroke=RECONVERGE, attrib={"stroke-width": "1.5"})
    for i, line in enumerate([heading(v)] + v.text):
        t = ET.SubElement(g, "text", x=f"{x + 8:.1f}", y=f"{y + 18 + i * LINE_H:.1f}",
                          attrib={"font-family": "monospace", "font-size": "11",
                                  **({"font-weight": "bold"} if i == 0 else {})})
        t.text = line


def _edge(root: ET.Element, fn_name: str, a: list[float], b: list[float], back: bool, width: float) -> None:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    if back:   # up the right side, into the target's right edge
        right = width - 20
        d = f"M{ax + aw:.1f},{ay + ah / 2:.1f} C{right:.1f},{ay + ah / 2:.1f} {right:.1f},{by + bh / 2:.1f} " \
            f"{bx + bw:.1f},{by + bh / 2:.1f}"
    else:
        d = f"M{ax + aw / 2:.1f},{ay + ah:.1f} L{bx + bw / 2:.1f},{by:.1f}"
    ET.SubElement(root, "path", d=d, fill="none", stroke="#333", attrib={"class": "cfg-edge" + (" back" if back else ""),
                                                                         "marker-end": f"url(#arrow-{fn_name})"})

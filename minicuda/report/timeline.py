"""The lane timeline of one warp as SVG: 32 rows (lanes), one column per instruction the
warp issued, in issue order.

A lane's cell is filled when the lane ran the instruction: dark when its guard held,
pale when the instruction ran for it with the guard false; empty when the lane was
not in the group.  A column's colour is its basic block's, so the two sides of a
divergent branch show as two colours, one after the other under the stack model
(pascal) and interleaved under independent thread scheduling (volta).  Columns of the
reconvergence markers (SSY/SYNC, BSSY/BSYNC) carry a tick above the grid.  Each column
is a group (its lanes' cells merged into one rectangle per run of adjacent lanes) with `data-pc`, `data-function`, `data-line` and `data-group` (the threads,
as a hexadecimal mask) so a page or a test reads it back.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from minicuda.vm.state import WARP

CELL_H = 9
WIDE, NARROW = 12, 6   # a column's width: wide for a short trace, narrow past WIDE_UNTIL columns
WIDE_UNTIL = 150
TOP, LEFT = 16, 34
MAX_COLUMNS = 3000   # a longer trace is cut (the page says how much was left out)
MARKERS = ("SSY", "SYNC", "BSSY", "BSYNC", "WARPSYNC", "BAR")
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22")


def block_colours(codes: dict) -> dict[tuple[str, str], str]:
    """(function, block label) -> colour, in block order."""
    colours, n = {}, 0
    for name, code in codes.items():
        for label in dict.fromkeys(code.block_of):
            colours[(name, label)] = PALETTE[n % len(PALETTE)]
            n += 1
    return colours


def timeline_svg(trace, codes: dict) -> str:
    """The SVG of an IssueTrace; `codes`: function name -> Code, for the instructions."""
    issues = trace.issues[:MAX_COLUMNS]
    cell_w = WIDE if len(issues) <= WIDE_UNTIL else NARROW
    colours = block_colours(codes)
    width = LEFT + cell_w * max(1, len(issues)) + 10
    height = TOP + CELL_H * WARP + 20
    root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=str(width), height=str(height),
                      viewBox=f"0 0 {width} {height}", attrib={"class": "timeline"})
    for lane in range(0, WARP, 4):
        t = ET.SubElement(root, "text", x=str(LEFT - 4), y=str(TOP + CELL_H * lane + CELL_H - 1),
                          attrib={"text-anchor": "end", "font-size": "8", "font-family": "monospace"})
        t.text = str(lane)
    for column, issue in enumerate(issues):
        code = codes[issue.function]
        ins = code.instrs[issue.pc]
        line = ins.loc.line if ins.loc is not None else 0
        colour = colours[(issue.function, code.block_of[issue.pc])]
        x = LEFT + cell_w * column
        g = ET.SubElement(root, "g", attrib={"class": "issue", "data-pc": str(issue.pc), "data-function": issue.function,
                                             "data-line": str(line), "data-group": f"{issue.group:#010x}",
                                             "data-on": f"{issue.on:#010x}"})
        title = ET.SubElement(g, "title")
        title.text = f"#{column} {issue.function} pc {issue.pc:#06x} line {line}: {ins.opcode} " \
                     f"(threads {issue.group:#010x})"
        if ins.op in MARKERS:
            ET.SubElement(g, "rect", x=str(x), y=str(TOP - 6), width=str(cell_w - 1), height="4", fill="#000",
                          attrib={"class": "marker"})
        for first, count, on in lane_runs(issue.group, issue.on):
            ET.SubElement(g, "rect", x=str(x), y=str(TOP + CELL_H * first), width=str(cell_w - 1),
                          height=str(CELL_H * count - 1), fill=colour,
                          attrib={"fill-opacity": "1" if on else "0.3", "class": "lane", "data-lanes": str(count)})
    return ET.tostring(root, encoding="unicode")


def lane_runs(group: int, on: int) -> list[tuple[int, int, bool]]:
    """(first lane, lanes, guard true) for each run of adjacent lanes in `group` alike in
    `on`: one rectangle each, so a whole warp's column is one (the page stays small)."""
    runs: list[list] = []
    for lane in range(WARP):
        if group >> lane & 1:
            lit = bool(on >> lane & 1)
            if runs and runs[-1][0] + runs[-1][1] == lane and runs[-1][2] == lit:
                runs[-1][1] += 1
            else:
                runs.append([lane, 1, lit])
    return [tuple(r) for r in runs]

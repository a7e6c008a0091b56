"""`minicuda run --source-view`: a kernel's source with each line's counters, as the
source page of Nsight Compute shows it.

One table per launch: for every line of the functions the launch ran (the kernel and
the device functions it called, from each function's first line to its last counted
one), the warp instructions, thread instructions, branches, divergent branches, branch
efficiency, average active lanes and the line's if-conversion decision, then the text.
"""
from __future__ import annotations

from minicuda.vm.profile import LineMetrics, attach_decisions

HEADER = (f"{'Line':>5}  {'Warp Inst':>9}  {'Thread Inst':>11}  {'Branches':>8}  {'Divergent':>9}  "
          f"{'Br.Eff':>7}  {'Lanes':>5}  {'Pred':<4} | Source")


def source_lines(path: str) -> list[str]:
    """The lines of a source file as the run read it; none when it cannot be read now."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def launch_lines(launch, module) -> list[LineMetrics]:
    """A profiled launch's per-line metrics, with the predication decisions marked."""
    lines = launch.profile.lines()
    attach_decisions(lines, module)
    return lines


def line_spans(profile, lines: list[LineMetrics]) -> list[tuple[str, int, int]]:
    """(file, first, last) line spans to show: each function run, from its own first line
    (its declaration) to its last line that ran, merged where they overlap."""
    spans: dict[str, list] = {}
    for name, (code, _) in profile.tables.items():
        loc = code.fn.loc
        counted = [ln.line for ln in lines if name in ln.functions and ln.file and ln.inst_executed]
        if loc is None and not counted:
            continue
        file = loc.file if loc is not None else next(ln.file for ln in lines if name in ln.functions and ln.file)
        known = ([loc.line] if loc is not None else []) + counted
        first, last = min(known), max(known)
        spans.setdefault(file, []).append([first, last])
    merged = []
    for file, ranges in spans.items():
        ranges.sort()
        out = [ranges[0]]
        for a, b in ranges[1:]:
            if a <= out[-1][1] + 1:
                out[-1][1] = max(out[-1][1], b)
            else:
                out.append([a, b])
        merged += [(file, a, b) for a, b in out]
    return merged


def format_line(n: int, m: LineMetrics | None, text: str) -> str:
    if m is None or not m.inst_executed:
        return f"{n:>5}  {'':>9}  {'':>11}  {'':>8}  {'':>9}  {'':>7}  {'':>5}  {'':<4} | {text}"
    eff = f"{m.branch_efficiency:.1f}%" if m.branch else "-"
    pred = {None: "", True: "yes", False: "no"}[m.predicated]
    return (f"{n:>5}  {m.inst_executed:>9}  {m.thread_inst_executed:>11}  {m.branch:>8}  {m.divergent_branch:>9}  "
            f"{eff:>7}  {m.active_lanes:>5.1f}  {pred:<4} | {text}")


def source_view(launch, module) -> str:
    """The annotated source of one profiled launch."""
    g, b = launch.grid, launch.block
    out = [f"==minicuda== Source view: {launch.kernel} <<<({g[0]},{g[1]},{g[2]}), ({b[0]},{b[1]},{b[2]})>>> "
           f"[{launch.arch}, {launch.sched}]"]
    lines = launch_lines(launch, module)
    by_line = {(m.file, m.line): m for m in lines}
    for file, first, last in line_spans(launch.profile, lines):
        text = source_lines(file)
        out += [f"    {file}:", "    " + HEADER]
        for n in range(first, last + 1):
            out.append("    " + format_line(n, by_line.get((file, n)), text[n - 1] if n <= len(text) else ""))
    unlocated = by_line.get(("", 0))
    if unlocated is not None:
        out.append("    " + format_line(0, unlocated, "(instructions with no source line)"))
    return "\n".join(out)

"""`minicuda run --report=html -o FILE`: one self-contained HTML page of a profiled run.

Per kernel (its launches summed): the totals; the source with per-line metrics as a
heat map; the sass-like code beside it, each instruction with its execution count,
average active lanes and source line; the predication decisions with their reasons;
the CFG (cfg_svg.py); and the lane timeline of the warp `--timeline-warp` names
(timeline.py), from the kernel's first launch, with `--compare-archs` beside the same
warp's timelines under pascal and volta (compare.py).  A click on a source line highlights
its instructions and CFG blocks; a click on an instruction, its line.  The page is
rendered by Jinja2 from the templates in this package's `templates/` folder, styles
and script inlined: nothing is fetched from the network.

Needs the `[report]` extra (jinja2; graphviz's layout when `dot` is installed too):
`MissingExtra` says what to install.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from minicuda.ir import format_instr
from minicuda.report.cfg_svg import function_svg
from minicuda.report.source_view import line_spans, source_lines
from minicuda.report.timeline import MAX_COLUMNS, timeline_svg
from minicuda.version import __version__
from minicuda.vm.metrics import kernel_totals
from minicuda.vm.profile import (BRANCH, DIVERGENT, INST, LANES, PRED_ON, THREAD, InstructionProfile,
                                 attach_decisions)

TEMPLATES = os.path.join(os.path.dirname(__file__), "templates")


class MissingExtra(Exception):
    """The report needs a package of the [report] extra that is not installed."""


@dataclass
class SourceRow:
    number: int
    text: str
    metrics: object      # LineMetrics or None
    heat: float          # 0..1: the line's share of the busiest line's warp instructions


@dataclass
class InstructionRow:
    function: str
    pc: int
    text: str
    line: int
    block: str           # the CFG node's id
    count: int
    thread: int
    pred_on: int
    branch: int
    divergent: int
    heat: float
    histogram: tuple = ()   # the warp instructions issued for 0, 1, .. 32 threads

    @property
    def active_lanes(self) -> float:
        return self.thread / self.count if self.count else 0.0

    @property
    def histogram_bars(self) -> list[tuple[int, int, float]]:
        """(lanes, warp instructions, bar height 0..1 of the tallest) for each lane count
        1..32 some execution had."""
        top = max(self.histogram[1:], default=0)
        return [(k, n, n / top) for k, n in enumerate(self.histogram) if k and n]

    @property
    def histogram_title(self) -> str:
        """The histogram as text: '32 lanes: 12, 16 lanes: 4', most lanes first."""
        return ", ".join(f"{k} lane{'s' if k != 1 else ''}: {n}" for k, n in reversed(list(enumerate(self.histogram)))
                         if n)


@dataclass
class KernelReport:
    name: str
    index: int
    launches: list
    totals: object       # vm/metrics.py's KernelTotals of its launches
    sources: list = field(default_factory=list)      # (file, [SourceRow])
    instructions: list = field(default_factory=list)  # (function, [InstructionRow])
    decisions: list = field(default_factory=list)
    cfgs: list = field(default_factory=list)          # (function, svg)
    timeline: str | None = None
    timeline_note: str = ""
    failures: list = field(default_factory=list)      # the faults of its launches that failed


def environment(what: str = "--report=html"):
    """The Jinja2 environment of the templates (the report's and the notebook's); MissingExtra
    without jinja2."""
    try:
        import jinja2   # (the [report] extra)
    except ImportError:
        raise MissingExtra(f"{what} needs jinja2, which is not installed: pip install 'minicuda[report]' "
                           "(jinja2 and graphviz; apt-get install graphviz for graphviz's layout of the CFG)") from None
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True,
                             lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["heat"] = heat_colour
    return env


def render_report(machine, title: str = "", compare=None, progress=None) -> str:
    """The HTML text of the report of a Machine's profiled run.  `compare`: compare.py's
    ArchRuns of the same program under pascal and volta (--compare-archs), or None;
    `progress(text)`: told which kernel is being drawn."""
    env = environment()
    kernels = kernel_reports(machine, progress)
    return env.get_template("report.html.j2").render(
        title=title or "minicuda report", version=__version__, kernels=kernels, arch=machine.module.arch,
        sched=machine.sched, warp=machine.interp.timeline_warp, compare=compare,
        css=_read("report.css"), script=_read("report.js"))


def write_report(machine, path: str, title: str = "", compare=None, progress=None) -> None:
    text = render_report(machine, title, compare, progress)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _read(name: str) -> str:
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as f:
        return f.read()


def kernel_reports(machine, progress=None) -> list[KernelReport]:
    """One KernelReport per kernel that ran profiled, in the order of their first launch; a
    launch that faulted (a SIMT deadlock, a memory fault) counts up to its fault."""
    by_kernel: dict[str, list] = {}
    for m in machine.launches + machine.interp.failed_launches:
        if m.profile is not None:
            by_kernel.setdefault(m.kernel, []).append(m)
    reports = []
    for i, (name, launches) in enumerate(by_kernel.items()):
        if progress is not None:
            progress(f"kernel '{name}', {i + 1} of {len(by_kernel)} kernels")
        reports.append(kernel_report(machine.module, name, i, launches))
    return reports


def merged_profile(launches: list) -> InstructionProfile:
    """The per-instruction counters of a kernel's launches, added."""
    merged = InstructionProfile()
    for m in launches:
        for name, (code, table) in m.profile.tables.items():
            merged.table(code)[:] += table
    return merged


def kernel_report(module, name: str, index: int, launches: list) -> KernelReport:
    totals = kernel_totals(launches)[0]   # (the efficiencies from the summed counts)
    report = KernelReport(name, index, launches, totals)
    report.failures = [m.failure for m in launches if m.failure]
    profile = merged_profile(launches)
    lines = profile.lines()
    attach_decisions(lines, module)
    report.sources = source_rows(profile, lines)
    report.instructions = instruction_rows(profile)
    functions = [code.fn for code, _ in profile.tables.values()]
    report.decisions = [d for fn in functions for d in fn.branch_decisions]
    report.cfgs = [(fn.name, function_svg(fn)) for fn in functions]
    traced = next((m for m in launches if m.issue_trace is not None and m.issue_trace.issues), None)
    if traced is not None:
        report.timeline, report.timeline_note = launch_timeline(traced)
    return report


def launch_timeline(launch) -> tuple[str, str]:
    """(the SVG, a note saying which warp of which launch) of a profiled launch's issue trace."""
    trace = launch.issue_trace
    codes = {n: code for n, (code, _) in launch.profile.tables.items()}
    g, b = launch.grid, launch.block
    note = (f"block {trace.block}, warp {trace.warp} of launch <<<({g[0]},{g[1]},{g[2]}), "
            f"({b[0]},{b[1]},{b[2]})>>>: {len(trace.issues)} instructions issued")
    if len(trace.issues) > MAX_COLUMNS:
        note += f" (the first {MAX_COLUMNS} drawn)"
    return timeline_svg(trace, codes), note


def source_rows(profile: InstructionProfile, lines: list) -> list:
    by_line = {(m.file, m.line): m for m in lines}
    busiest = max((m.inst_executed for m in lines), default=0) or 1
    out = []
    for file, first, last in line_spans(profile, lines):
        text = source_lines(file)
        rows = []
        for n in range(first, last + 1):
            m = by_line.get((file, n))
            rows.append(SourceRow(n, text[n - 1] if n <= len(text) else "", m,
                                  (m.inst_executed / busiest) if m is not None else 0.0))
        out.append((file, rows))
    return out


def instruction_rows(profile: InstructionProfile) -> list:
    busiest = max((int(t[:, INST].max()) for _, t in profile.tables.values() if len(t)), default=0) or 1
    out = []
    for name, (code, table) in profile.tables.items():
        rows = []
        for pc, ins in enumerate(code.instrs):
            c = table[pc]
            rows.append(InstructionRow(name, pc, format_instr(ins, with_loc=False),
                                       ins.loc.line if ins.loc is not None else 0,
                                       f"cfg-{name}-{code.block_of[pc]}", int(c[INST]), int(c[THREAD]),
                                       int(c[PRED_ON]), int(c[BRANCH]), int(c[DIVERGENT]), int(c[INST]) / busiest,
                                       tuple(int(n) for n in c[LANES:])))
        out.append((name, rows))
    return out


def heat_colour(heat: float) -> str:
    """A heat map's background: white (nothing) to a strong orange (the busiest)."""
    heat = float(np.clip(heat, 0.0, 1.0))
    return f"rgba(255, 120, 0, {0.06 + 0.44 * heat:.2f})" if heat > 0 else "transparent"

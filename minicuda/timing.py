"""`--time-report`: where a run's time goes, as clang's -ftime-report shows a compile's.

The stages of minicuda time themselves through `phase(name)` when a report was asked
for (`TIMES.on`); otherwise `phase` costs one attribute test.  Phases nest, and each
row holds a phase's own time, its nested phases' taken out: a kernel's first launch
holds its JIT compile as a phase of its own, so the kernel's row is its run alone, and
main's row ("host code") is what is left of main once its launches, copies and other
runtime calls are taken out.  Rows with one name add up (every launch of a kernel,
every cudaMemcpy, a pass over every function).

The rows run from process start to the report: Python and minicuda's imports before
minicuda's own entry are "start-up"; what no phase names is "other".  CPU time is the
process's, so a kernel whose blocks run on several cores shows more CPU than wall.
Only the thread that runs main is timed (the JIT's parallel blocks run inside a
kernel's phase).
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Row:
    wall: float = 0.0
    cpu: float = 0.0
    count: int = 0


class TimeReport:
    """The rows of one run; `on` once `start()` has been called."""

    def __init__(self):
        self.on = False
        self.rows: dict[str, Row] = {}
        self.stack: list[list] = []   # [name, wall at entry, cpu at entry, nested wall, nested cpu]
        self.thread = None
        self.begun = (0.0, 0.0)

    def start(self) -> None:
        """Time from now on; the time since the process started is its start-up row."""
        self.rows, self.stack = {}, []
        self.on, self.thread = True, threading.get_ident()
        wall, cpu = time.perf_counter(), time.process_time()
        self.begun = (wall - _process_age(), 0.0)
        self.add("start-up (Python and minicuda's imports)", wall - self.begun[0], cpu)

    def add(self, name: str, wall: float, cpu: float, count: int = 1) -> None:
        row = self.rows.get(name)
        if row is None:
            row = self.rows[name] = Row()
        row.wall += wall
        row.cpu += cpu
        row.count += count

    @contextmanager
    def phase(self, name: str):
        if not self.on or threading.get_ident() != self.thread:
            yield
            return
        entry = [name, time.perf_counter(), time.process_time(), 0.0, 0.0]
        self.stack.append(entry)
        try:
            yield
        finally:
            self.stack.pop()
            wall, cpu = time.perf_counter() - entry[1], time.process_time() - entry[2]
            self.add(name, wall - entry[3], cpu - entry[4])
            if self.stack:
                self.stack[-1][3] += wall
                self.stack[-1][4] += cpu

    def timed(self, name: str, fn):
        """`fn` with each call a phase `name` (for the runtime's methods)."""
        def call(*args):
            with self.phase(name):
                return fn(*args)
        return call

    def finish(self) -> str:
        """The report, and timing off."""
        text = self.render()
        self.on, self.rows, self.stack = False, {}, []
        return text

    def render(self) -> str:
        """The report: every row, largest first, and the total from process start."""
        total_wall = time.perf_counter() - self.begun[0]
        total_cpu = time.process_time()
        rows = dict(self.rows)
        named = sum(r.wall for r in rows.values()), sum(r.cpu for r in rows.values())
        rest = Row(max(0.0, total_wall - named[0]), max(0.0, total_cpu - named[1]), 1)
        if rest.wall >= 0.0005:
            rows["other (minicuda's own work between the phases)"] = rest
        rule = "===" + "-" * 73 + "==="
        out = [rule, "minicuda time report".center(79).rstrip(), rule,
               f"  Total: {total_wall:.4f} s wall, {total_cpu:.4f} s CPU (from process start)", "",
               f"   {'---Wall Time---':>17}  {'---CPU Time---':>17}  {'Count':>7}  Name"]
        for name, row in sorted(rows.items(), key=lambda item: -item[1].wall):
            out.append(f"   {row.wall:8.4f} ({_pct(row.wall, total_wall)})  {row.cpu:8.4f} ({_pct(row.cpu, total_cpu)})"
                       f"  {row.count:7d}  {name}")
        out.append(rule)
        return "\n".join(out)


def _pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:5.1f}%" if whole > 0 else "  -  %"


def _process_age() -> float:
    """Seconds since this process started (Linux's /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/stat") as f:
            started = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - started / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


TIMES = TimeReport()
phase = TIMES.phase

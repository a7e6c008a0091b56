"""The checking tools `minicuda run --tool NAME` adds to a run, as compute-sanitizer's do.

Out-of-bounds and misaligned accesses are faults minicuda always reports; a tool adds
checks of what the hardware lets pass.  TOOLS names each tool and what it checks; the
engines read `Interpreter.tools` (the names asked for) where they check.  A report is
written in compute-sanitizer's shape and the run goes on:

    ========= Integer division by zero
    =========     at x.cu:4:33 in 'divide'
    =========     by thread (3,0,0) in block (0,0,0)
    =========

Every tool reports through `Findings.report(tool, severity, text)`, which keeps the
text and counts the reports by tool and severity; the run ends, when a tool was asked
for, with compute-sanitizer's summary lines (`summary_lines`), and its exit status is 1
when some report was an error (`--error-exitcode 1`); warnings alone leave it 0.

INTERPRETED_TOOLS are the tools whose checks only the interpreter makes (racecheck under
the stack model): with one of them on, kernels run on the interpreter even under the JIT
engine (Machine's `kernel_engine`, the one place that decides where kernels run).
Otherwise the tools run natively: memcheck's division check, initcheck's shadow,
synccheck's and racecheck's hooks (COMPILED_TOOLS: the JIT compiles them into device
code only when the tool is asked for) hand the instructions they look at to the
interpreter, so a report is the interpreter's, word for word, on either --engine and
any --jobs.  Past KEPT_REPORTS reports, further ones are counted but not written
(`Findings` keeps the cap).

initcheck (`InitShadow`): for each cudaMalloc'd, pitched or managed allocation a byte of
flags per byte: set (by a kernel's store, a copy, a memset, a host write to managed
memory) and used; a kernel's load or atomic of a byte not set is reported, per thread, as
compute-sanitizer reports it.  Lanes of a warp making one atomic on one address are one
access (nvcc aggregates them), reported by the highest lane, as the H100 does; an atomic
other than an exchange leaves the bytes it read unset (its value derives from them), so
each warp counting into a counter nobody cleared is reported, as on the H100.  Leak
check (`leak_reports`, `--leak-check full` with memcheck): the device allocations live at
exit (or at cudaDeviceReset), each an error, with the line that made it.
"""
from __future__ import annotations

import functools
from collections import Counter

import numpy as np

TOOLS = {
    "memcheck": "also report each kernel instruction that divides an integer by zero (the GPU does not trap: "
                "the result is all ones), once per instruction; the run goes on; with --leak-check full, "
                "each device allocation not freed at exit or cudaDeviceReset",
    "racecheck": "report hazards between threads not ordered by a barrier, a warp-synchronous primitive, an "
                 "atomic or a fence and flag: in shared memory (as compute-sanitizer) and in global memory "
                 "(beyond it); under the stack model kernels run on the interpreter",
    "synccheck": "report __syncthreads() reached by divergent threads of a block, __syncwarp() masks that leave "
                 "out the calling thread or that its lanes disagree on, and shuffles and votes whose mask leaves "
                 "out the calling thread",
    "initcheck": "report each read by a kernel of cudaMalloc'd, pitched or managed memory that no kernel, copy, "
                 "memset or host write has set, per thread; with --track-unused-memory, each allocation of "
                 "which bytes were never used",
}
# checks only the interpreter makes, under the scheduling models named: racecheck's stack
# model orders the lanes of every instruction a warp runs in lockstep, so it sees them all
INTERPRETED_TOOLS = {"racecheck": ("stack",)}
COMPILED_TOOLS = frozenset({"initcheck", "racecheck", "synccheck"})   # the JIT compiles them in when asked for
KEPT_REPORTS = 10_000   # reports kept for printing; more are counted only
TRACKED = ("cudaMalloc", "cudaMallocPitch", "cudaMallocManaged", "cudaMalloc3D")   # initcheck's and leak check's
ERROR, WARNING = "error", "warning"
SEVERITIES = (ERROR, WARNING)


class Findings:
    """The reports of a run's tools, in order, counted by (tool, severity)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.counts: Counter = Counter()
        self.hidden = 0   # reports past KEPT_REPORTS: counted, not written

    def report(self, tool: str, severity: str, text=None, count: int = 1) -> None:
        """One report (`count` of them: a report may stand for several hazards) of `tool`; its
        text, when it has one, is printed at the end of the run.  `text` may be a function
        making it, called only while reports are kept (past KEPT_REPORTS they are counted)."""
        if severity not in SEVERITIES:
            raise ValueError(f"unknown severity {severity!r}")
        self.counts[tool, severity] += count
        if text is not None:
            self.report_text(text() if callable(text) and len(self.texts) < KEPT_REPORTS else text)

    def extend(self, other: Findings) -> None:
        """Add `other`'s reports after this one's (a block's, kept apart while blocks run in
        parallel, in the order a one-worker run makes them)."""
        self.counts.update(other.counts)
        for text in other.texts:
            self.report_text(text)
        self.hidden += other.hidden

    def report_text(self, text) -> None:
        """Keep a counted report's text, while fewer than KEPT_REPORTS are kept."""
        if len(self.texts) < KEPT_REPORTS:
            self.texts.append(text)
        else:
            self.hidden += 1

    def errors(self, tool: str | None = None) -> int:
        return sum(n for (t, s), n in self.counts.items() if s == ERROR and tool in (None, t))

    def warnings(self, tool: str | None = None) -> int:
        return sum(n for (t, s), n in self.counts.items() if s == WARNING and tool in (None, t))

    def summary_lines(self, tools, leaks: list[tuple[int, str]] | None = None) -> list[str]:
        """compute-sanitizer's closing lines for the tools asked for (and the leak check's)."""
        lines = [] if leaks is None else [leak_summary(leaks)]
        if "racecheck" in tools:
            e, w = self.errors("racecheck"), self.warnings("racecheck")
            lines.append(f"========= RACECHECK SUMMARY: {e + w} hazards displayed ({e} errors, {w} warnings)")
        n = self.errors()
        lines.append(f"========= ERROR SUMMARY: {n} error{'' if n == 1 else 's'}")
        return lines

    def exit_status(self) -> int:
        """1 when a tool reported an error, as compute-sanitizer --error-exitcode 1; else 0."""
        return 1 if self.errors() else 0


def interpreted(tools, sched: str) -> bool:
    """Whether a tool of `tools` makes checks only the interpreter makes, under `sched`."""
    return any(sched in INTERPRETED_TOOLS.get(tool, ()) for tool in tools)


def thread_text(w, lane: int) -> str:
    """`thread (x,y,z) in block (x,y,z)` for lane `lane` of warp `w`."""
    tid = ",".join(str(int(w.ids["SR_TID"][a][lane])) for a in "XYZ")
    bid = ",".join(str(int(w.ids["SR_CTAID"][a][lane])) for a in "XYZ")
    return f"thread ({tid}) in block ({bid})"


def sanitizer_report(what: str, w, lane: int, loc, address: int | None = None) -> str:
    """The report of `what` for thread `lane` of warp `w` (a kernel's, or a device function's call)."""
    at = f"{loc} in " if loc is not None else ""
    lines = [f"========= {what}", f"=========     at {at}'{w.code.fn.name}'", f"=========     by {thread_text(w, lane)}"]
    if address is not None:
        lines.append(f"=========     Address {address:#x}")
    return "\n".join(lines + ["========="])


def tracked(a) -> bool:
    """Whether allocation `a` is device memory the program allocated with the runtime."""
    return a.space in ("global", "managed") and a.name.split("(")[0] in TRACKED


# ---- initcheck ---------------------------------------------------------------------------------
SET, USED = 1, 2   # a shadow byte's flags: the byte was written; it was written or read


class InitShadow:
    """initcheck's shadow memory: for each tracked allocation a byte of flags (SET, USED)
    per byte.  Memory calls `allocated`, `wrote` and `read`; the reads of bytes not set
    wait in `pending` until the interpreter reports the instruction's."""

    def __init__(self) -> None:
        self.flags: dict = {}   # Allocation -> uint8 per byte
        self.pending: list[tuple[int, int, int, str]] = []   # (lane, address, size, kind)

    def allocated(self, a) -> bool:
        """Track `a` when the program allocated it with the runtime; whether it is."""
        if not tracked(a):
            return False
        a.init_flags = self.flags[a] = np.zeros(max(a.size, 1), dtype=np.uint8)[:a.size]
        a.watched = a.space == "managed"   # the host's stores set bytes too
        return True

    def wrote(self, a, offset: int, n: int) -> None:
        flags = self.flags.get(a)
        if flags is not None:
            flags[offset:offset + n] = SET | USED

    def read(self, a, offset: int, n: int, lane: int, kind: str) -> None:
        flags = self.flags.get(a)
        if flags is None:
            return
        these = flags[offset:offset + n]
        if not (these & SET).all():
            self.pending.append((int(lane), a.base + offset, n, kind))
        these |= USED

    def take_reads(self) -> list[tuple[int, int, int]]:
        """The instruction's reads of bytes not set, (lane, address, size) in lane order; an
        atomic's lanes on one address are one read, the highest lane's."""
        reads, self.pending = self.pending, []
        if reads and reads[0][3] == "atomic":
            last = {address: (lane, address, n) for lane, address, n, _ in reads}
            return sorted(last.values())
        return [(lane, address, n) for lane, address, n, _ in reads]

    def unused_reports(self) -> list[str]:
        """--track-unused-memory: each allocation with bytes never used, in address order."""
        reports = []
        for a in sorted(self.flags, key=lambda a: a.base):
            unused = (self.flags[a] & USED) == 0
            if a.size and unused.any():
                reports.append(_unused_report(a, unused))
        return reports


def _unused_report(a, unused: np.ndarray) -> str:
    edges = np.flatnonzero(np.diff(np.concatenate(([0], unused.view(np.int8), [0]))))
    lines = [f"========= Unused memory in allocation {a.base:#x} of size {a.size} bytes"]
    for start, end in zip(edges[::2], edges[1::2]):
        lines.append(f"=========     Not used {end - start} bytes at offset {start:#x} ({a.base + start:#x})")
    lines.append(f"=========     {int(unused.sum()) * 100 // a.size}% of allocation were unused.")
    return "\n".join(lines + ["========="])


def report_uninitialised(interp, w, ins) -> None:
    """The reports of the instruction `ins` just run by warp `w` reading bytes not set."""
    for lane, address, n in interp.memory.shadow.take_reads():
        interp.findings.report("initcheck", ERROR, functools.partial(
            sanitizer_report, f"Uninitialized __global__ memory read of size {n} bytes", w, lane, ins.loc, address))


# ---- leak check --------------------------------------------------------------------------------
def leak_reports(memory, reported: set) -> list[tuple[int, str]]:
    """(bytes, report) of each tracked allocation still live and not in `reported` (whose
    bases it adds), in address order."""
    leaks = []
    for a in memory.allocs:
        if not a.freed and tracked(a) and a.base not in reported:
            reported.add(a.base)
            line = f" at line {a.line}" if a.line else ""
            # compute-sanitizer groups the size's digits here (1,024), not in the summary
            leaks.append((a.size, f"========= Leaked {a.size:,} bytes at {a.base:#x}\n"
                                  f"=========     allocated by {a.name}{line}\n========="))
    return leaks


def leak_summary(leaks: list[tuple[int, str]]) -> str:
    total = sum(n for n, _ in leaks)
    return f"========= LEAK SUMMARY: {total} bytes leaked in {len(leaks)} allocations"

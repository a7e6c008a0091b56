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

INTERPRETED_TOOLS are the tools whose checks only the interpreter makes: with one of
them on, a launch runs on the interpreter even under the JIT engine.
"""
from __future__ import annotations

from collections import Counter

TOOLS = {
    "memcheck": "also report each kernel instruction that divides an integer by zero (the GPU does not trap: "
                "the result is all ones), once per instruction; the run goes on",
    "racecheck": "report hazards between threads not ordered by a barrier, a warp-synchronous primitive, an "
                 "atomic or a fence and flag: in shared memory (as compute-sanitizer) and in global memory "
                 "(beyond it); the launch runs on the interpreter",
    "synccheck": "report __syncthreads() reached by divergent threads of a block, __syncwarp() masks that leave "
                 "out the calling thread or that its lanes disagree on, and shuffles and votes whose mask leaves "
                 "out the calling thread; the launch runs on the interpreter",
}
INTERPRETED_TOOLS = frozenset({"racecheck", "synccheck"})
ERROR, WARNING = "error", "warning"
SEVERITIES = (ERROR, WARNING)


class Findings:
    """The reports of a run's tools, in order, counted by (tool, severity)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.counts: Counter = Counter()

    def report(self, tool: str, severity: str, text: str | None = None, count: int = 1) -> None:
        """One report (`count` of them: a report may stand for several hazards) of `tool`; its
        text, when it has one, is printed at the end of the run."""
        if severity not in SEVERITIES:
            raise ValueError(f"unknown severity {severity!r}")
        self.counts[tool, severity] += count
        if text is not None:
            self.texts.append(text)

    def errors(self, tool: str | None = None) -> int:
        return sum(n for (t, s), n in self.counts.items() if s == ERROR and tool in (None, t))

    def warnings(self, tool: str | None = None) -> int:
        return sum(n for (t, s), n in self.counts.items() if s == WARNING and tool in (None, t))

    def summary_lines(self, tools) -> list[str]:
        """compute-sanitizer's closing lines for the tools asked for."""
        lines = []
        if "racecheck" in tools:
            e, w = self.errors("racecheck"), self.warnings("racecheck")
            lines.append(f"========= RACECHECK SUMMARY: {e + w} hazards displayed ({e} errors, {w} warnings)")
        n = self.errors()
        lines.append(f"========= ERROR SUMMARY: {n} error{'' if n == 1 else 's'}")
        return lines

    def exit_status(self) -> int:
        """1 when a tool reported an error, as compute-sanitizer --error-exitcode 1; else 0."""
        return 1 if self.errors() else 0


def thread_text(w, lane: int) -> str:
    """`thread (x,y,z) in block (x,y,z)` for lane `lane` of warp `w`."""
    tid = ",".join(str(int(w.ids["SR_TID"][a][lane])) for a in "XYZ")
    bid = ",".join(str(int(w.ids["SR_CTAID"][a][lane])) for a in "XYZ")
    return f"thread ({tid}) in block ({bid})"


def sanitizer_report(what: str, w, lane: int, loc) -> str:
    """The report of `what` for thread `lane` of warp `w` (a kernel's, or a device function's call)."""
    at = f"{loc} in " if loc is not None else ""
    return "\n".join((f"========= {what}", f"=========     at {at}'{w.code.fn.name}'",
                      f"=========     by {thread_text(w, lane)}", "========="))

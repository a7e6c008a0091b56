"""Per-instruction counters of one launch, folded to source lines (ncu's source page).

When a run asks for them (`minicuda run --source-view`, `--report=html`), the
engine counts, for every instruction of every device function a launch runs
(the kernel and the device functions it calls), the same five things the launch's
totals count: warp instructions, thread instructions, threads whose guard held,
branches and divergent branches.  The counters are keyed by (function, pc); `lines`
folds them to (file, line) through each instruction's source location, so the lines
of a launch sum to its totals (an instruction with no location is counted under line
0).  Each instruction also keeps its active-lane histogram: how many of its warp
instructions ran for 1, 2, .. 32 threads.

The JIT compiles the counters into a profiled variant of a function's native code
(vm/jit/function.py, `profile_instruction`): per instruction the histogram, the threads
whose guard held and the divergent branches, counted natively into a table per worker
and added to the launch's counters when the launch ends (`add_native`).  An instruction
native code hands to the interpreter is counted there.  The numbers are the
interpreter's, bit for bit (tests/report/test_jit_profile.py).

A warp's issue trace (`IssueTrace`) records, for the one warp asked for, every
instruction it issued: its function, pc, the threads it ran for and those whose
guard held; the report's lane timeline draws it.  Only the interpreter records one:
under the JIT the block that holds the warp runs on the interpreter, in its turn
(vm/jit/engine.py's `interpret_block`), every other block natively.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from minicuda.vm.metrics import branch_efficiency, counts_as_branch
from minicuda.vm.state import WARP

# the columns of a function's counter table: the five counts, then the active-lane
# histogram (LANES + k: the warp instructions issued for k threads, k = 0..32)
INST, THREAD, PRED_ON, BRANCH, DIVERGENT = range(5)
LANES = 5
COLUMNS = LANES + WARP + 1

# the JIT's table (vm/jit/function.py): per instruction the histogram (k = 0..32), the
# threads whose guard held (kept for a guarded instruction only) and the divergent
# branches; the rest follows from them (`add_native`)
NATIVE_PRED_ON = WARP + 1
NATIVE_DIVERGENT = WARP + 2
NATIVE_COLUMNS = WARP + 3
_LANE_COUNTS = np.arange(WARP + 1, dtype=np.int64)


class InstructionProfile:
    """The counters of one launch: function name -> (its Code, an [instructions x 5] table)."""

    def __init__(self):
        self.tables: dict[str, tuple] = {}
        self.native: dict[str, tuple] = {}   # the JIT's tables (`native_table`), until `fold_native`

    def table(self, code) -> np.ndarray:
        entry = self.tables.get(code.fn.name)
        if entry is None:
            entry = self.tables[code.fn.name] = (code, np.zeros((len(code.instrs), COLUMNS), np.int64))
        return entry[1]

    def count(self, code, pc: int, group: np.ndarray, on: np.ndarray, branch: bool) -> None:
        """One warp instruction: code.instrs[pc] issued for `group`, its guard true for `on`."""
        row = self.table(code)[pc]
        lanes = int(group.sum())
        row[INST] += 1
        row[THREAD] += lanes
        row[LANES + lanes] += 1
        row[PRED_ON] += int(on.sum())
        if branch:
            row[BRANCH] += 1
            if on.any() and (group & ~on).any():
                row[DIVERGENT] += 1

    def native_table(self, code) -> np.ndarray:
        """The table the JIT's native code for `code` counts into ([instructions x
        NATIVE_COLUMNS]; one per launch, written under the engine's bail lock)."""
        entry = self.native.get(code.fn.name)
        if entry is None:
            entry = self.native[code.fn.name] = (code, np.zeros((len(code.instrs), NATIVE_COLUMNS), np.int64))
        return entry[1]

    def add_native(self, code, native: np.ndarray) -> None:
        """Add a table native code counted into to `code`'s counters (a JIT worker's, or
        `native_table`'s): the warp instructions are the histogram's sum, the threads its
        weighted sum, an unguarded instruction's threads all pass its guard, and every
        execution of a branch is a branch."""
        table = self.table(code)
        histogram = native[:, :WARP + 1]
        inst = histogram.sum(axis=1)
        threads = histogram @ _LANE_COUNTS
        guarded = np.array([ins.guard is not None for ins in code.instrs], bool)
        branches = np.array([counts_as_branch(ins) for ins in code.instrs], bool)
        table[:, INST] += inst
        table[:, THREAD] += threads
        table[:, PRED_ON] += np.where(guarded, native[:, NATIVE_PRED_ON], threads)
        table[:, BRANCH] += np.where(branches, inst, 0)
        table[:, DIVERGENT] += native[:, NATIVE_DIVERGENT]
        table[:, LANES:] += histogram

    def fold_native(self) -> None:
        """Add the JIT's tables (`native_table`) to the counters, and forget them."""
        for code, native in self.native.values():
            self.add_native(code, native)
        self.native.clear()

    def instructions(self):
        """(function, pc, instruction, counts) for every instruction of every function run."""
        for name, (code, table) in self.tables.items():
            for pc, ins in enumerate(code.instrs):
                yield name, pc, ins, table[pc]

    def lines(self) -> list["LineMetrics"]:
        """The counters folded to source lines, in (file, line) order."""
        by_line: dict[tuple, LineMetrics] = {}
        for name, pc, ins, counts in self.instructions():
            key = (ins.loc.file, ins.loc.line) if ins.loc is not None else ("", 0)
            line = by_line.get(key)
            if line is None:
                line = by_line[key] = LineMetrics(*key)
            line.add(name, counts)
        return [by_line[k] for k in sorted(by_line)]


@dataclass
class LineMetrics:
    """One source line's share of a launch."""
    file: str
    line: int
    inst_executed: int = 0
    thread_inst_executed: int = 0
    thread_inst_executed_pred_on: int = 0
    branch: int = 0
    divergent_branch: int = 0
    functions: list = field(default_factory=list)
    predicated: bool | None = None   # its conditional branch's if-conversion decision (None: no branch there)
    reason: str = ""

    def add(self, function: str, counts) -> None:
        self.inst_executed += int(counts[INST])
        self.thread_inst_executed += int(counts[THREAD])
        self.thread_inst_executed_pred_on += int(counts[PRED_ON])
        self.branch += int(counts[BRANCH])
        self.divergent_branch += int(counts[DIVERGENT])
        if function not in self.functions:
            self.functions.append(function)

    @property
    def branch_efficiency(self) -> float:
        return branch_efficiency(self.branch, self.divergent_branch)

    @property
    def active_lanes(self) -> float:
        """Threads per warp instruction, on average."""
        return self.thread_inst_executed / self.inst_executed if self.inst_executed else 0.0

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "functions": self.functions,
                "inst_executed": self.inst_executed, "thread_inst_executed": self.thread_inst_executed,
                "not_predicated_off_thread_inst_executed": self.thread_inst_executed_pred_on,
                "branch": self.branch, "divergent_branch": self.divergent_branch,
                "branch_efficiency": round(self.branch_efficiency, 2),
                "active_lanes": round(self.active_lanes, 2), "predicated": self.predicated,
                **({"reason": self.reason} if self.reason else {})}


def attach_decisions(lines: list[LineMetrics], module) -> None:
    """Mark each line with its conditional branch's predication decision, when it has one
    (a line with several: predicated only if all were)."""
    decisions: dict[tuple, list] = {}
    for fn in module.functions.values():
        for d in fn.branch_decisions:
            if not d.loop:
                decisions.setdefault((d.file, d.line), []).append(d)
    for line in lines:
        found = decisions.get((line.file, line.line))
        if found:
            line.predicated = all(d.predicated for d in found)
            line.reason = found[0].reason.split(": ", 1)[-1]


@dataclass
class Issue:
    """One instruction a warp issued."""
    function: str
    pc: int
    group: int     # bits: the threads it ran for
    on: int        # bits: those whose guard held


class IssueTrace:
    """The issue trace of one warp of a launch: (block's linear index, warp in the block)."""

    def __init__(self, block: int, warp: int):
        self.block, self.warp = block, warp
        self.issues: list[Issue] = []

    def wants(self, linear_block: int, warp: int) -> bool:
        return linear_block == self.block and warp == self.warp

    def record(self, function: str, pc: int, group: np.ndarray, on: np.ndarray) -> None:
        self.issues.append(Issue(function, pc, _bits(group), _bits(on)))


def _bits(mask: np.ndarray) -> int:
    return int(np.packbits(mask[:WARP].astype(np.uint8), bitorder="little").view(np.uint32)[0])

"""The metrics of one kernel launch, with the nvprof/ncu names users know.

A branch is one execution of a BRA by a warp, divergent when its active threads go to
more than one target; branch efficiency and warp execution efficiency follow from the
counts as nvprof defines them.  Both engines fill the same record.  With nested launches
(dynamic parallelism) `kernel_totals` sums a kernel's grids into one record per kernel
(`grids` of them; the efficiencies follow from the summed counts).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from minicuda.vm.state import WARP


def branch_efficiency(branch: int, divergent: int) -> float:
    """nvprof's: the percentage of branches that did not diverge (100 with none)."""
    return 100.0 * (branch - divergent) / branch if branch else 100.0


@dataclass
class LaunchMetrics:
    kernel: str
    grid: tuple
    block: tuple
    arch: str
    sched: str
    inst_executed: int = 0
    thread_inst_executed: int = 0
    thread_inst_executed_pred_on: int = 0
    branch: int = 0
    divergent_branch: int = 0
    max_stack_depth: int = 0
    max_paths: int = 0
    barriers: int = 0
    wall_s: float = 0.0   # seconds the launch took (not part of the nvprof-style report)
    depth: int = 0        # 0: launched by the host; n: by a grid of depth n - 1 (dynamic parallelism)
    parent: str = ""      # the kernel whose thread launched it (depth > 0)
    # a profiled launch's per-instruction counters and issue trace (vm/profile.py)
    profile: object = field(default=None, repr=False, compare=False)
    issue_trace: object = field(default=None, repr=False, compare=False)
    failure: str = field(default="", repr=False, compare=False)   # a profiled launch's fault, when it failed

    @property
    def branch_efficiency(self) -> float:
        return branch_efficiency(self.branch, self.divergent_branch)

    @property
    def warp_execution_efficiency(self) -> float:
        return 100.0 * self.thread_inst_executed / (WARP * self.inst_executed) if self.inst_executed else 100.0

    def as_dict(self) -> dict:
        return {"kernel": self.kernel, "grid": list(self.grid), "block": list(self.block), "arch": self.arch,
                **({"depth": self.depth, "parent": self.parent} if self.depth else {}),
                "sched": self.sched, "inst_executed": self.inst_executed,
                "thread_inst_executed": self.thread_inst_executed, "branch": self.branch,
                "divergent_branch": self.divergent_branch,
                "branch_efficiency": round(self.branch_efficiency, 2),
                "warp_execution_efficiency": round(self.warp_execution_efficiency, 2)}


@dataclass
class KernelTotals(LaunchMetrics):
    """A kernel's grids summed (counts added; the SIMT stack's high-water mark the largest)."""
    grids: int = 0

    def add(self, m: LaunchMetrics) -> None:
        self.grids += 1
        for name in SUMMED:
            setattr(self, name, getattr(self, name) + getattr(m, name))
        self.max_stack_depth = max(self.max_stack_depth, m.max_stack_depth)
        self.max_paths = max(self.max_paths, m.max_paths)

    def as_dict(self) -> dict:
        launch = super().as_dict()
        del launch["grid"], launch["block"]
        return {"kernel": self.kernel, "totals": True, "grids": self.grids, **launch}


SUMMED = ("inst_executed", "thread_inst_executed", "thread_inst_executed_pred_on", "branch", "divergent_branch",
          "barriers", "wall_s")


def has_nested(launches: list[LaunchMetrics]) -> bool:
    """Whether any grid was launched from device code."""
    return any(m.depth for m in launches)


def kernel_totals(launches: list[LaunchMetrics]) -> list[KernelTotals]:
    """One record per kernel name, in the order of their first grid: all its grids summed."""
    totals: dict[str, KernelTotals] = {}
    for m in launches:
        if m.kernel not in totals:
            totals[m.kernel] = KernelTotals(m.kernel, (), (), m.arch, m.sched)
        totals[m.kernel].add(m)
    return list(totals.values())


@dataclass(frozen=True)
class Metric:
    """One row of `minicuda run --metrics`: nvprof's name (or minicuda's own), its
    description, and its value for a launch."""
    name: str
    description: str
    value: object   # LaunchMetrics -> int | str


def _pct(x: float) -> str:
    return f"{x:.2f}%"


# what --metrics all prints, in this order (nvprof's names where nvprof has one)
METRICS = (
    Metric("inst_executed", "Instructions Executed", lambda m: m.inst_executed),
    Metric("thread_inst_executed", "Thread Instructions Executed", lambda m: m.thread_inst_executed),
    Metric("not_predicated_off_thread_inst_executed", "Not Predicated Off Thread Instructions Executed",
           lambda m: m.thread_inst_executed_pred_on),
    Metric("branch", "Branches", lambda m: m.branch),
    Metric("divergent_branch", "Divergent Branches", lambda m: m.divergent_branch),
    Metric("branch_efficiency", "Branch Efficiency", lambda m: _pct(m.branch_efficiency)),
    Metric("warp_execution_efficiency", "Warp Execution Efficiency", lambda m: _pct(m.warp_execution_efficiency)),
    Metric("max_simt_stack_depth", "Max SIMT Stack Depth / Concurrent Paths",
           lambda m: m.max_stack_depth if m.sched == "stack" else m.max_paths),
    Metric("barriers", "Barriers Executed", lambda m: m.barriers),
)

# Nsight Compute's names for the same counts, in ncu's units (.ratio: threads per warp instruction)
NCU_METRICS = (
    Metric("smsp__inst_executed.sum", "Instructions Executed", lambda m: m.inst_executed),
    Metric("smsp__thread_inst_executed.sum", "Thread Instructions Executed", lambda m: m.thread_inst_executed),
    Metric("smsp__thread_inst_executed_pred_on.sum", "Thread Instructions Executed (guard true)",
           lambda m: m.thread_inst_executed_pred_on),
    Metric("smsp__sass_branch_targets.sum", "Branches", lambda m: m.branch),
    Metric("smsp__sass_branch_targets_threads_divergent.sum", "Divergent Branches", lambda m: m.divergent_branch),
    Metric("smsp__sass_branch_targets_threads_uniform.sum", "Uniform Branches",
           lambda m: m.branch - m.divergent_branch),
    Metric("smsp__sass_average_branch_targets_threads_uniform.pct", "Branch Efficiency",
           lambda m: _pct(m.branch_efficiency)),
    Metric("smsp__thread_inst_executed_per_inst_executed.ratio", "Threads per Warp Instruction",
           lambda m: f"{m.thread_inst_executed / m.inst_executed if m.inst_executed else WARP:.2f}"),
    Metric("smsp__thread_inst_executed_per_inst_executed.pct", "Warp Execution Efficiency",
           lambda m: _pct(m.warp_execution_efficiency)),
)

# names minicuda once used, still understood (printed as asked, not listed)
ALIASES = (
    Metric("thread_inst_executed_pred_on", "Not Predicated Off Thread Instructions Executed",
           lambda m: m.thread_inst_executed_pred_on),
)

METRIC_NAMES = {m.name: m for m in METRICS + NCU_METRICS}
ALIAS_NAMES = {m.name: m for m in ALIASES}


def metrics_named(names: list[str]) -> list[Metric]:
    """The metrics that --metrics values name (each comma-separated; `all` for every
    nvprof-style one), in the order given, once each; ValueError naming an unknown one
    with the list of known names."""
    wanted: list[Metric] = []
    for name in (n.strip() for value in names for n in value.split(",") if n.strip()):
        found = list(METRICS) if name == "all" else [METRIC_NAMES.get(name, ALIAS_NAMES.get(name))]
        if found == [None]:
            raise ValueError(f"unknown metric '{name}'; known metrics: all, " + ", ".join(METRIC_NAMES))
        wanted += [m for m in found if m not in wanted]
    return wanted

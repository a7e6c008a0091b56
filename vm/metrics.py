"""The metrics of one kernel launch, with the nvprof/ncu names users know.

A branch is one execution of a BRA by a warp, divergent when its active threads go to
more than one target; branch efficiency and warp execution efficiency follow from the
counts as nvprof defines them.  Both engines fill the same record.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.vm.state import WARP


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

    @property
    def branch_efficiency(self) -> float:
        return 100.0 * (self.branch - self.divergent_branch) / self.branch if self.branch else 100.0

    @property
    def warp_execution_efficiency(self) -> float:
        return 100.0 * self.thread_inst_executed / (WARP * self.inst_executed) if self.inst_executed else 100.0

    def as_dict(self) -> dict:
        return {"kernel": self.kernel, "grid": list(self.grid), "block": list(self.block), "arch": self.arch,
                "sched": self.sched, "inst_executed": self.inst_executed,
                "thread_inst_executed": self.thread_inst_executed, "branch": self.branch,
                "divergent_branch": self.divergent_branch,
                "branch_efficiency": round(self.branch_efficiency, 2),
                "warp_execution_efficiency": round(self.warp_execution_efficiency, 2)}

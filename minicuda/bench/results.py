"""What minicuda bench's measurements give: engine runs, baselines, per-kernel results, the report.

A KernelResult holds one kernel's runs on minicuda's engines and its baselines; the
reference run (the JIT's, else the interpreter's) is what the baselines are timed
against, at its size.  `as_dict` is the --json form; the rates in it are derived
from the counts and times, never measured separately.  A measurement that cannot
be made raises Unavailable, whose message becomes a note of the report.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


class Unavailable(Exception):
    """A measurement that cannot be made here; the reason goes into the report as a note."""


@dataclass
class EngineRun:
    """One kernel launch on one of minicuda's engines."""
    engine: str
    args: list[str]
    launch: str            # the launch's name: reduceCompleteUnroll<512>
    grid: list[int]
    block: list[int]
    inst_executed: int     # warp instructions
    thread_inst_executed: int
    wall_s: float
    check: list[str]

    @property
    def warp_inst_per_s(self) -> float:
        return self.inst_executed / self.wall_s

    @property
    def thread_inst_per_s(self) -> float:
        return self.thread_inst_executed / self.wall_s

    def as_dict(self) -> dict:
        return {**asdict(self), "warp_inst_per_s": self.warp_inst_per_s, "thread_inst_per_s": self.thread_inst_per_s}


@dataclass
class Baseline:
    """A kernel timed outside minicuda (native C, PoCL): the mean seconds of `reps` timed runs."""
    args: list[str]
    wall_s: float
    reps: int
    check: list[str]


@dataclass
class KernelResult:
    sample: str
    kernel: str
    runs: dict[str, EngineRun] = field(default_factory=dict)
    native: Baseline | None = None
    pocl: Baseline | None = None

    @property
    def reference(self) -> EngineRun | None:
        """The run the baselines are measured against: the JIT's when it ran, else the interpreter's."""
        return self.runs.get("jit") or self.runs.get("interp")

    def jit_over_interp(self) -> float | None:
        if "jit" in self.runs and "interp" in self.runs:
            return self.runs["jit"].thread_inst_per_s / self.runs["interp"].thread_inst_per_s
        return None

    def checks_agree(self) -> bool:
        """Every result at the reference's size, and the engines at a common size, agree."""
        ref = self.reference
        same = [b.check for b in (self.native, self.pocl) if b is not None]
        same += [r.check for r in self.runs.values() if r.args == ref.args] if ref else []
        return all(c == same[0] for c in same)

    def as_dict(self) -> dict:
        ref = self.reference
        d = {"sample": self.sample, "kernel": self.kernel,
             "runs": {e: r.as_dict() for e, r in self.runs.items()},
             "jit_over_interp": self.jit_over_interp(),
             "reference_engine": ref.engine if ref else None, "checks_agree": self.checks_agree()}
        for name, b in (("native", self.native), ("pocl", self.pocl)):
            d[name] = None if b is None else {**asdict(b),
                                              "thread_inst_per_s_equiv": ref.thread_inst_executed / b.wall_s,
                                              "minicuda_over_baseline_time": ref.wall_s / b.wall_s}
        return d


@dataclass
class Report:
    machine: dict
    versions: dict
    settings: dict
    kernels: list[KernelResult] = field(default_factory=list)
    jit_warmup_s: dict[str, float] = field(default_factory=dict)
    numba: list[dict] = field(default_factory=list)
    end_to_end: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"machine": self.machine, "versions": self.versions, "settings": self.settings,
                "kernels": [k.as_dict() for k in self.kernels], "jit_warmup_s": self.jit_warmup_s,
                "numba_cudasim": self.numba, "end_to_end": self.end_to_end, "notes": self.notes}

    def wrong(self) -> list:
        """The results that disagree: a kernel's or a Numba run's check values, an end-to-end output."""
        wrong = [k for k in self.kernels if not k.checks_agree()] + [n for n in self.numba if not n["checks_agree"]]
        return wrong + [e for e in self.end_to_end if e.get("output_ok") is False]

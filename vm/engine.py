"""Engines: what runs kernels and functions for a Machine or a Device.

`interp` is the reference interpreter (vm/interp.py), the specification.  `jit`
(vm/jit/) compiles each function to native code with llvmlite and hands the rare
instruction it does not compile to the interpreter, so both engines give the same
memory, output and metrics.
"""
from __future__ import annotations

from minicuda.vm.callstack import NO_METRICS, run_frame_on_warp
from minicuda.vm.jit.engine import JitEngine

ENGINES = ("jit", "interp")
# the instruction budget (--max-steps) when none is given: about a minute and a half of
# work for either engine, enough for the textbook programs at their printed sizes
DEFAULT_MAX_STEPS = {"jit": 40_000_000_000, "interp": 200_000_000}


def default_max_steps(engine: str, trace=None) -> int:
    return DEFAULT_MAX_STEPS["interp" if trace is not None else engine]


class InterpEngine:
    name = "interp"

    def __init__(self, interp):
        self.interp = interp

    def launch(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch, shared_dynamic: int = 0):
        return self.interp.launch(kernel, grid, block, args, arch, shared_dynamic)

    def blocks_done(self) -> int:
        """Blocks of the launch running that have finished (read while it runs)."""
        return self.interp.blocks_done

    def prepare(self, kernel: str) -> None:
        """Nothing to compile."""

    def run_function(self, interp, w, metrics) -> str:
        run = interp.run_stack if interp.sched == "stack" else interp.run_its
        return run(w, metrics)

    def run_frame(self, interp, frame, metrics=NO_METRICS) -> str:
        """Run a call stack's top frame until it is done, at a barrier, or makes a call."""
        return run_frame_on_warp(self, interp, frame, metrics)




def make_engine(name: str, owner, jobs: int | None = None):
    """The engine `name` for `owner` (a Machine or a Device: its `interp` runs kernels)."""
    if name == "interp" or owner.interp.sched == "scalar":
        return InterpEngine(owner.interp)
    if name == "jit":
        return JitEngine(owner.interp, jobs)
    raise ValueError(f"unknown engine '{name}' (choose from {', '.join(ENGINES)})")

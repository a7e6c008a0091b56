"""`--compare-archs`: the program run again under pascal (the SIMT stack) and volta
(independent thread scheduling), for the report to show the chosen warp's lane
timeline of each kernel under both models side by side.

Each architecture's run compiles the program for it (`compile_for`, the caller's
compile: the command line's, with its diagnostics, or the Python API's), runs it
profiled (on the engine asked for, the traced warp's block on the interpreter: vm/profile.py)
with the program's arguments, its output and stdin
discarded, and keeps, per kernel, the timeline of the kernel's first launch whose
warp issued anything.  A program that does not compile or fails under one
architecture keeps what ran up to the failure, and the page says why.  A stop from
outside (--timeout, Ctrl-C) is not caught: the run as a whole stops.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

from minicuda.report.html import launch_timeline
from minicuda.vm.errors import VMError
from minicuda.vm.machine import Machine

ARCHS = (("pascal", "sm_60", "SIMT stack"), ("volta", "sm_70", "independent thread scheduling"))


@dataclass
class ArchRun:
    arch: str          # "pascal" or "volta"
    sm: str
    model: str
    timelines: dict = field(default_factory=dict)   # kernel -> (svg, note)
    failure: str = ""

    @property
    def label(self) -> str:
        return f"{self.arch} ({self.sm}, {self.model})"


def compare_archs(compile_for, argv: list[str], timeline_warp: tuple[int, int], max_steps: int | None = None,
                  attach=None, progress=None, engine: str = "jit") -> list[ArchRun]:
    """One ArchRun per architecture of ARCHS.  `compile_for(sm)`: the program compiled for
    that target, or a string saying why it did not compile; `attach(machine)`: called before
    each run (the command line's watcher); `progress(text)`: what is being done; `engine`:
    the engine that runs it (the traced warp's block is interpreted either way)."""
    out = []
    for arch, sm, model in ARCHS:
        run = ArchRun(arch, sm, model)
        out.append(run)
        if progress is not None:
            progress(f"compiling for {arch} (--compare-archs)")
        program = compile_for(sm)
        if isinstance(program, str):
            run.failure = f"It does not compile for {arch}:\n{program}"
            continue
        if progress is not None:
            progress(f"running under {arch} (--compare-archs)")
        machine = Machine(program, max_steps=max_steps, engine=engine, stdout=io.BytesIO(), stderr=io.BytesIO(),
                          stdin=io.BytesIO(b""), profile=True, timeline_warp=timeline_warp)
        if attach is not None:
            attach(machine)
        try:
            status = machine.run(argv)
            if status:
                run.failure = f"The program exited with status {status} under {arch}."
        except VMError as e:
            run.failure = f"The run failed under {arch}: {e}"
        for m in machine.launches + machine.interp.failed_launches:
            if m.kernel not in run.timelines and m.issue_trace is not None and m.issue_trace.issues:
                run.timelines[m.kernel] = launch_timeline(m)
    return out

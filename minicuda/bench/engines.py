"""minicuda's own engines under measurement: compile a suite's driver, run it, read its launches.

The driver runs whole on the VM (`interp` or `jit`); the counts and wall times come
from the Machine's per-launch metrics, the check values from the driver's output.
A failing engine or program is not a crash of the benchmark: it becomes Unavailable,
and the rest is still measured.
"""
from __future__ import annotations

import io
import time
from pathlib import Path

import minicuda
from minicuda.bench.results import EngineRun, Unavailable
from minicuda.bench.suites import NATIVE_DIR, Suite, check_lines
from minicuda.vm.machine import Machine


def compile_driver(suite: Suite, samples: Path, arch: str):
    """The suite's driver, with the sample it includes found in `samples`."""
    return minicuda.compile(str(NATIVE_DIR / f"{suite.sample}_driver.cu"), arch=arch, include_dirs=[str(samples)])


def run_program(program, engine: str, jobs: int | None, argv: list[str]):
    """Run a whole program on `engine`; returns (machine, stdout).  A failure of the engine or the
    program (the JIT not there yet, a fault, a non-zero exit) becomes Unavailable, with its reason."""
    out, err = io.BytesIO(), io.BytesIO()
    try:
        machine = Machine(program, engine=engine, jobs=jobs, stdout=out, stderr=err, time="wall")
        code = machine.run(argv)
    except Exception as e:   # the engine under test failed: report it, keep measuring the rest
        raise Unavailable(f"{engine}: {argv[0]} {' '.join(argv[1:])}: {type(e).__name__}: {e}") from None
    if code != 0:
        tail = err.getvalue().decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise Unavailable(f"{engine}: {argv[0]} {' '.join(argv[1:])} exited with status {code}: {tail[0]}")
    return machine, out.getvalue().decode(errors="replace")


def measure_engine(program, suite: Suite, kernels: list[str], engine: str, args: tuple[str, ...],
                   jobs: int | None) -> dict[str, EngineRun]:
    """One driver run on `engine` at `args`: the launches of `kernels`, by kernel."""
    machine, out = run_program(program, engine, jobs, [f"{suite.sample}_driver", *args, suite.mask(kernels)])
    checks = check_lines(out)
    runs = {}
    for lm in machine.launches:
        base = lm.kernel.split("<")[0]
        if base in kernels:
            runs[base] = EngineRun(engine, list(args), lm.kernel, list(lm.grid), list(lm.block), lm.inst_executed,
                                   lm.thread_inst_executed, lm.wall_s, checks.get(base, []))
    return runs


def warm_up_jit(program, suite: Suite, kernels: list[str], args: tuple[str, ...], jobs: int | None) -> float:
    """Compile the kernels (the JIT caches them per process) with a run of one block per kernel; its seconds."""
    start = time.perf_counter()
    run_program(program, "jit", jobs, [f"{suite.sample}_driver", *suite.warmup(*args), suite.mask(kernels)])
    return time.perf_counter() - start

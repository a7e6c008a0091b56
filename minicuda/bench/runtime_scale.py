"""minicuda bench --runtime-scaling: how the cost of runtime calls grows with their number.

Generated programs, each run whole (compiled once, then run on a fresh Machine per
size, output discarded), at sizes a factor of ten apart:

- `cudaMalloc`: N cudaMalloc calls, then N cudaFree (size: allocations);
- `malloc`: N host malloc/free pairs, each block written once (size: pairs);
- `printf`: a kernel of N/1024 blocks of 1024 threads, 64 device printfs each
  (size: printfs; past the FIFO's 33,792 records they are dropped);
- `call`: N calls of a small host function the inliner keeps a call (it has a loop;
  size: calls), the cost of a host call (issue 17's); its rows end with the calls
  per second of the largest size.

The table gives the seconds of each run and the growth from one size to the next,
the time ratio over the size ratio (1.0: constant cost per call).  Each engine's
time is measured on its own; the interpreter skips sizes it would take minutes
over (it pays for every instruction of the loops around the calls).

The cudaMalloc case also has a `run` row: the whole `minicuda run prog.cu N` (the
start of Python, the compile and the run, as a user meets it running a program again:
a first run fills the JIT's cache and the compile cache) in a subprocess, its
CPU seconds (user and system, best of 3; a busy machine inflates wall time more),
against issue 12's goal of 10^5 cudaMalloc calls under 2 s.
"""
from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from minicuda.compiler import CompiledProgram, compile_program
from minicuda.frontend import SourceText
from minicuda.vm.machine import Machine

CUDA_MALLOC = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) { int n = atoi(argv[1]); int **p = (int **)malloc(n * sizeof(int *));
  for (int i = 0; i < n; i++) cudaMalloc(&p[i], 16);
  for (int i = 0; i < n; i++) cudaFree(p[i]);
  printf("%d\n", n); return 0; }
"""
MALLOC = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) { int n = atoi(argv[1]); long s = 0;
  for (int i = 0; i < n; i++) { int *q = (int *)malloc(64); q[0] = i; s += q[0]; free(q); }
  printf("%ld\n", s); return 0; }
"""
PRINTF = r"""#include <stdio.h>
#include <stdlib.h>
__global__ void k() { for (int i = 0; i < 64; i++) printf("%d %d\n", blockIdx.x * blockDim.x + threadIdx.x, i); }
int main(int argc, char **argv) { k<<<atoi(argv[1]) / (64 * 1024), 1024>>>(); cudaDeviceSynchronize(); return 0; }
"""
CALL = r"""#include <stdio.h>
#include <stdlib.h>
int twice(int x) { int s = 0; for (int i = 0; i < 2; i++) s += x; return s; }
int main(int argc, char **argv) { int n = atoi(argv[1]); long s = 0;
  for (int i = 0; i < n; i++) s += twice(i);
  printf("%ld\n", s); return 0; }
"""
CASES = {"cudaMalloc": (CUDA_MALLOC, "allocations"), "malloc": (MALLOC, "pairs"), "printf": (PRINTF, "printfs"),
         "call": (CALL, "calls")}
SIZES = {"full": {"cudaMalloc": [1_000, 10_000, 100_000], "malloc": [1_000, 10_000, 100_000],
                  "printf": [65_536, 1_048_576, 16_777_216], "call": [1_000, 10_000, 100_000]},
         "quick": {"cudaMalloc": [100, 1_000], "malloc": [100, 1_000], "printf": [65_536, 131_072],
                   "call": [100, 1_000]}}
INTERP_MAX = {"cudaMalloc": 10_000, "malloc": 10_000, "printf": 65_536, "call": 10_000}
RATES = ("call",)   # the cases whose rows end with calls per second
WHOLE_RUN = ("cudaMalloc",)   # the cases with a `run` row (the whole minicuda run, CPU seconds)
WHOLE_RUN_REPEATS = {"full": 3, "quick": 1}
# `minicuda run` as the installed command runs it, from this interpreter
MINICUDA = [sys.executable, "-c", "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())"]


@dataclass
class RuntimeTime:
    case: str
    engine: str
    size: int
    seconds: float


def measure(program: CompiledProgram, case: str, engine: str, size: int) -> RuntimeTime:
    """One run of `case`'s program at `size` (its output checked to be there, then discarded)."""
    out = io.BytesIO()
    machine = Machine(program, engine=engine, stdout=out, stderr=io.BytesIO(), time="wall")
    start = time.perf_counter()
    status = machine.run(["bench", str(size)])
    seconds = time.perf_counter() - start
    if status != 0 or not out.getvalue():
        raise RuntimeError(f"runtime-scaling: {case} at {size} on {engine} ended with status {status}")
    return RuntimeTime(case, engine, size, seconds)


def measure_whole_run(path: str, case: str, size: int, repeats: int) -> RuntimeTime:
    """`minicuda run path size` in a subprocess, `repeats` times: the least CPU seconds
    (user and system) one took."""
    best = None
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run([*MINICUDA, "run", path, str(size)], capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0 or not r.stdout:
            raise RuntimeError(f"runtime-scaling: minicuda run of {case} at {size} ended with status {r.returncode}: "
                               f"{r.stderr.decode(errors='replace').strip()}")
        seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best = seconds if best is None else min(best, seconds)
    return RuntimeTime(case, "run", size, best)


def whole_runs(preset: str, case: str, progress=None) -> list[RuntimeTime]:
    """The `run` row of `case`: its program written to a file, run whole at each size."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"{case}.cu")
        with open(path, "w") as f:
            f.write(CASES[case][0])
        subprocess.run([*MINICUDA, "run", path, str(SIZES[preset][case][0])], capture_output=True)   # the caches warm
        results = []
        for size in SIZES[preset][case]:
            if progress is not None:
                progress(f"runtime-scaling: {case} minicuda run {size}")
            results.append(measure_whole_run(path, case, size, WHOLE_RUN_REPEATS[preset]))
        return results


def run_scaling(preset: str = "full", cases=None, engines=("jit", "interp"), progress=None) -> list[RuntimeTime]:
    results = []
    for case in cases or CASES:
        program = compile_program(SourceText(f"<{case}>", CASES[case][0]))
        for engine in engines:
            for size in SIZES[preset][case]:
                if engine == "interp" and size > INTERP_MAX[case]:
                    continue
                if progress is not None:
                    progress(f"runtime-scaling: {case} {engine} {size}")
                if engine == "jit" and size == SIZES[preset][case][0]:
                    measure(program, case, engine, size)   # compiled once, before it is timed
                results.append(measure(program, case, engine, size))
        if case in WHOLE_RUN and "jit" in engines:
            results.extend(whole_runs(preset, case, progress))
    return results


def render_scaling(results: list[RuntimeTime]) -> str:
    out = ["Runtime calls by number (seconds per run; growth: time ratio over size ratio, 1.0 = constant per call;",
           "run: the whole `minicuda run` with the JIT, start and compile included, CPU seconds)"]
    for case in dict.fromkeys(r.case for r in results):
        for engine in dict.fromkeys(r.engine for r in results if r.case == case):
            runs = [r for r in results if r.case == case and r.engine == engine]
            cells = "".join(f"{r.size:>12,}{r.seconds:>9.3f}s" for r in runs)
            growth = " ".join(f"{(b.seconds / a.seconds) / (b.size / a.size):.2f}" if a.seconds >= 0.005 else "-"
                              for a, b in zip(runs, runs[1:]))
            rate = f"   {runs[-1].size / runs[-1].seconds:,.0f} {CASES[case][1]}/s" if case in RATES else ""
            out.append(f"{case + ' (' + CASES[case][1] + ')':<26}{engine:<8}{cells}   growth {growth or '-'}{rate}")
    return "\n".join(out)


def as_dicts(results: list[RuntimeTime]) -> list[dict]:
    return [{"case": r.case, "engine": r.engine, "size": r.size, "seconds": r.seconds} for r in results]

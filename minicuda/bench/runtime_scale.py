"""minicuda bench --runtime-scaling: how the cost of runtime calls grows with their number.

Generated programs, each run whole (compiled once, then run on a fresh Machine per
size, output discarded), at sizes a factor of ten apart:

- `cudaMalloc`: N cudaMalloc calls, then N cudaFree (size: allocations);
- `malloc`: N host malloc/free pairs, each block written once (size: pairs);
- `printf`: a kernel of N/1024 blocks of 1024 threads, 64 device printfs each
  (size: printfs; past the FIFO's 33,792 records they are dropped).

The table gives the seconds of each run and the growth from one size to the next,
the time ratio over the size ratio (1.0: constant cost per call).  Each engine's
time is measured on its own; the interpreter skips sizes it would take minutes
over (it pays for every instruction of the loops around the calls).
"""
from __future__ import annotations

import io
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
CASES = {"cudaMalloc": (CUDA_MALLOC, "allocations"), "malloc": (MALLOC, "pairs"), "printf": (PRINTF, "printfs")}
SIZES = {"full": {"cudaMalloc": [1_000, 10_000, 100_000], "malloc": [1_000, 10_000, 100_000],
                  "printf": [65_536, 1_048_576, 16_777_216]},
         "quick": {"cudaMalloc": [100, 1_000], "malloc": [100, 1_000], "printf": [65_536, 131_072]}}
INTERP_MAX = {"cudaMalloc": 10_000, "malloc": 10_000, "printf": 65_536}


@dataclass
class RuntimeTime:
    case: str
    engine: str
    size: int
    seconds: float


def measure(program: CompiledProgram, case: str, engine: str, size: int) -> RuntimeTime:
    """One run of `case`'s program at `size` (its output checked to be there, then discarded)."""
    out = io.BytesIO()
    machine = Machine(program, engine=engine, stdout=out, stderr=io.BytesIO())
    start = time.perf_counter()
    status = machine.run(["bench", str(size)])
    seconds = time.perf_counter() - start
    if status != 0 or not out.getvalue():
        raise RuntimeError(f"runtime-scaling: {case} at {size} on {engine} ended with status {status}")
    return RuntimeTime(case, engine, size, seconds)


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
    return results


def render_scaling(results: list[RuntimeTime]) -> str:
    out = ["Runtime calls by number (seconds per run; growth: time ratio over size ratio, 1.0 = constant per call)"]
    for case in dict.fromkeys(r.case for r in results):
        for engine in dict.fromkeys(r.engine for r in results if r.case == case):
            runs = [r for r in results if r.case == case and r.engine == engine]
            cells = "".join(f"{r.size:>12,}{r.seconds:>9.3f}s" for r in runs)
            growth = " ".join(f"{(b.seconds / a.seconds) / (b.size / a.size):.2f}" if a.seconds >= 0.005 else "-"
                              for a, b in zip(runs, runs[1:]))
            out.append(f"{case + ' (' + CASES[case][1] + ')':<26}{engine:<8}{cells}   growth {growth or '-'}")
    return "\n".join(out)


def as_dicts(results: list[RuntimeTime]) -> list[dict]:
    return [{"case": r.case, "engine": r.engine, "size": r.size, "seconds": r.seconds} for r in results]

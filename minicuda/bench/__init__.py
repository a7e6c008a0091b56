"""minicuda bench: how fast the VM runs the samples' kernels, and against what.

Per kernel of reduceInteger.cu, sumMatrix.cu, simpleDivergence.cu and vectorAdd.cu:

- minicuda's engines (`interp`, `jit`): warp and thread instructions of the launch,
  its wall time, and the rates; the JIT/interpreter ratio of thread instructions per
  second.  The interpreter runs at small sizes, the JIT at the full ones (rates are
  what compare).  The JIT is warmed up first by a one-block-per-kernel run of the
  same program, so that launch times do not include compiling.
- a native baseline: the kernel as plain serial C (native/SAMPLE.c, loops over
  blocks and threads), built with the machine's C compiler at -O2 and timed at the
  size of the reference run (the JIT's, else the interpreter's).  Its "thread inst/s
  equivalent" is minicuda's thread instruction count for that launch over the
  native time.
- PoCL, OpenCL on the CPU, when pyopencl finds a CPU device: the kernel in OpenCL C
  (native/SAMPLE.cl), kernel time only, after a warm-up run.
- Numba's CUDA simulator, when numba is importable: sumMatrix and reduceNeighbored at
  a small size, in a subprocess, next to the interpreter at the same size.
- end-to-end targets, each in its own process with the JIT: reduceInteger.cu at 2^24
  elements and sumMatrix.cu at 2^14 x 2^14, for wall time, the geometric mean of
  thread inst/s over the launches, and the peak RSS against the program's own peak
  of live allocations.

The kernels run from small drivers (native/SAMPLE_driver.cu) that include the
sample and fill its input with a kernel, not with the host loops of the sample's
main, so that at any size the run is the launches.  Every driver, native program and
OpenCL run prints two check values per kernel (e.g. the first and the last partial
sum); bench compares them, so a translation that does different work shows.

`python -m minicuda.bench [--quick] [--engine E] [--only NAME] [--json FILE] ...`

`--compile-scaling [SHAPES]` measures something else: compile time per stage on
generated programs of growing size (compile_scale.py); `--startup` the CPU time
`minicuda run` spends before main, cold and warm (startup.py).

Where it lives: suites (what is measured), engines (minicuda's runs), baselines
(native C, Numba) and opencl (PoCL), end_to_end (the targets), compile_scale
(compile time by program size), benchmark (one run of it all), results and report
(the data and its tables), host (the machine), command (the command line).  Nothing in the compiler or the VM imports this package.
"""
import os

# numpy's OpenBLAS with one thread, as `minicuda` (minicuda/cli.py): set before the imports below load numpy,
# so that `python -m minicuda.bench` (the end-to-end targets' children) starts as `minicuda run` does
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from minicuda.bench.command import main
from minicuda.bench.suites import SUITES

__all__ = ["main", "SUITES"]

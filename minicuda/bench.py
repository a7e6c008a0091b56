"""minicuda bench: how fast the VM runs the samples' kernels, and against what.

Per kernel of reduceInteger.cu, sumMatrix.cu, simpleDivergence.cu and vectorAdd.cu:

- minicuda's engines (`interp`, `jit`): warp and thread instructions of the launch,
  its wall time, and the rates; the JIT/interpreter ratio of thread instructions per
  second.  The interpreter runs at small sizes, the JIT at the full ones (rates are
  what compare).  The JIT is warmed up first by a one-block-per-kernel run of the
  same program, so that launch times do not include compiling.
- a native baseline: the kernel as plain serial C (bench_native/SAMPLE.c, loops over
  blocks and threads), built with the machine's C compiler at -O2 and timed at the
  size of the reference run (the JIT's, else the interpreter's).  Its "thread inst/s
  equivalent" is minicuda's thread instruction count for that launch over the
  native time.
- PoCL, OpenCL on the CPU, when pyopencl finds a CPU device: the kernel in OpenCL C
  (bench_native/SAMPLE.cl), kernel time only, after a warm-up run.
- Numba's CUDA simulator, when numba is importable: sumMatrix and reduceNeighbored at
  a small size, in a subprocess, next to the interpreter at the same size.
- end-to-end targets, each in its own process with the JIT: reduceInteger.cu at 2^24
  elements and sumMatrix.cu at 2^14 x 2^14, for wall time, the geometric mean of
  thread inst/s over the launches, and the peak RSS against the program's own peak
  of live allocations.

The kernels run from small drivers (bench_native/SAMPLE_driver.cu) that include the
sample and fill its input with a kernel, not with the host loops of the sample's
main, so that at any size the run is the launches.  Every driver, native program and
OpenCL run prints two check values per kernel (e.g. the first and the last partial
sum); bench compares them, so a translation that does different work shows.

`python -m minicuda.bench [--quick] [--engine E] [--only NAME] [--json FILE] ...`
"""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import io
import json
import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

import minicuda

NATIVE_DIR = Path(__file__).resolve().parent / "bench_native"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent   # holds samples/ in a source checkout
ENGINES = ("interp", "jit")

TARGET_WALL_S = 60.0          # an end-to-end run, whole process
TARGET_THREAD_RATE = 3e8      # geometric mean of thread inst/s over a run's launches
TARGET_RSS_RATIO = 2.0        # (peak RSS - RSS after import and compile) / peak live allocations


class Unavailable(Exception):
    """A measurement that cannot be made here; the reason goes into the report as a note."""


# ---- what is measured ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Suite:
    """A sample, its driver's kernels (in the order of the driver's mask bits) and its sizes.

    `sizes` maps a preset (quick, small, full) to the driver's arguments before the
    mask; `warmup` maps arguments to the smallest run with the same block shape."""
    sample: str
    kernels: tuple[str, ...]
    sizes: dict[str, tuple[str, ...]]
    warmup: Callable[..., tuple[str, ...]]

    def mask(self, kernels) -> str:
        return str(sum(1 << i for i, k in enumerate(self.kernels) if k in kernels))


SUITES = (
    Suite("reduceInteger",
          ("reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved", "reduceUnrolling2", "reduceUnrolling4",
           "reduceUnrolling8", "reduceUnrollWarps8", "reduceCompleteUnrollWarps8", "reduceCompleteUnroll"),
          {"quick": ("64", "512"), "small": ("512", "8192"), "full": ("512", str(1 << 24))},
          lambda blocksize, size: (blocksize, str(8 * int(blocksize)))),
    Suite("sumMatrix", ("sumMatrixOnGPU2D",),
          {"quick": ("32", "32", "16", "16"), "small": ("128", "128", "32", "32"),
           "full": (str(1 << 14), str(1 << 14), "32", "32")},
          lambda nx, ny, dimx, dimy: (dimx, dimy, dimx, dimy)),
    Suite("simpleDivergence", ("warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"),
          {"quick": ("64", "64"), "small": ("64", "4096"), "full": ("64", str(1 << 22))},
          lambda blocksize, size: (blocksize, blocksize)),
    Suite("vectorAdd", ("vectorAdd",),
          {"quick": ("512",), "small": ("50000",), "full": (str(1 << 24),)},
          lambda n: ("256",)),
)

# kernel -> (sample, {preset: driver arguments}) for Numba's CUDA simulator (a Python thread per CUDA thread)
NUMBA_KERNELS = {
    "sumMatrixOnGPU2D": ("sumMatrix", {"quick": ("16", "16", "8", "8"), "small": ("128", "128", "32", "32")}),
    "reduceNeighbored": ("reduceInteger", {"quick": ("64", "128"), "small": ("64", "2048")}),
}


@dataclass(frozen=True)
class Target:
    """An end-to-end run of a whole sample with the JIT; `expect`/`reject`: output that says it worked or not."""
    sample: str
    args: tuple[str, ...]
    expect: str | None = None
    reject: str | None = None


TARGETS = (
    Target("reduceInteger", ("512", str(1 << 24)), reject="Test failed"),
    Target("sumMatrix", (str(1 << 14), str(1 << 14)), expect="Arrays match."),
)


# ---- results ------------------------------------------------------------------------------------------
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


# ---- the machine ---------------------------------------------------------------------------------------
def machine_info() -> dict:
    """Cores, CPU model and memory, from /proc where Linux has it."""
    model = platform.processor() or platform.machine()
    memory = None
    try:
        model = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name"))
        memory = int(Path("/proc/meminfo").read_text().split("MemTotal:")[1].split()[0]) * 1024
    except (OSError, StopIteration, IndexError):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu": model, "cores": os.cpu_count(), "usable_cores": usable, "memory_bytes": memory,
            "system": f"{platform.system()} {platform.release()}"}


def versions(cc: str | None) -> dict:
    """Python, minicuda, its dependencies, the C compiler and the optional baselines (not imported here)."""
    found = {"python": platform.python_version(), "minicuda": minicuda.__version__}
    for dist in ("numpy", "llvmlite", "pyopencl", "pocl-binary-distribution", "numba"):
        try:
            found[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            found[dist] = None
    found["cc"] = None
    if cc:
        result = subprocess.run([cc, "--version"], capture_output=True, text=True)
        found["cc"] = f"{cc}: {result.stdout.splitlines()[0]}" if result.returncode == 0 and result.stdout else cc
    return found


# ---- minicuda --------------------------------------------------------------------------------------------
def compile_driver(suite: Suite, samples: Path, arch: str):
    """The suite's driver, with the sample it includes found in `samples`."""
    return minicuda.compile(str(NATIVE_DIR / f"{suite.sample}_driver.cu"), arch=arch, include_dirs=[str(samples)])


def run_program(program, engine: str, jobs: int | None, argv: list[str]):
    """Run a whole program on `engine`; returns (machine, stdout).  A failure of the engine or the
    program (the JIT not there yet, a fault, a non-zero exit) becomes Unavailable, with its reason."""
    from minicuda.vm.machine import Machine
    out, err = io.BytesIO(), io.BytesIO()
    try:
        machine = Machine(program, engine=engine, jobs=jobs, stdout=out, stderr=err)
        code = machine.run(argv)
    except Exception as e:   # the engine under test failed: report it, keep measuring the rest
        raise Unavailable(f"{engine}: {argv[0]} {' '.join(argv[1:])}: {type(e).__name__}: {e}") from None
    if code != 0:
        tail = err.getvalue().decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
        raise Unavailable(f"{engine}: {argv[0]} {' '.join(argv[1:])} exited with status {code}: {tail[0]}")
    return machine, out.getvalue().decode(errors="replace")


def check_lines(text: str) -> dict[str, list[str]]:
    """The 'bench KERNEL VALUES...' lines of a driver's or baseline's output, by kernel."""
    return {parts[1]: parts[2:] for parts in (line.split() for line in text.splitlines()) if parts[:1] == ["bench"]}


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


# ---- native C ---------------------------------------------------------------------------------------------
def c_compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc")


def build_native(cc: str, suite: Suite, workdir: Path) -> Path:
    exe = workdir / suite.sample
    result = subprocess.run([cc, "-O2", "-o", str(exe), str(NATIVE_DIR / f"{suite.sample}.c")],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise Unavailable(f"native: {cc} could not build {suite.sample}.c: {result.stderr.strip()[:300]}")
    return exe


def run_native(exe: Path, suite: Suite, kernels: list[str], args: list[str], min_seconds: float) -> dict[str, Baseline]:
    """Each kernel's mean time over runs lasting min_seconds in all (at least three, after a warm-up)."""
    result = subprocess.run([str(exe), *args, suite.mask(kernels), str(min_seconds)], capture_output=True, text=True)
    if result.returncode != 0:
        raise Unavailable(f"native: {suite.sample} {' '.join(args)} failed: {result.stderr.strip()[:300]}")
    return {k: Baseline(list(args), float(v[0]), int(v[1]), v[2:]) for k, v in check_lines(result.stdout).items()}


# ---- PoCL -----------------------------------------------------------------------------------------------------
@dataclass
class CLLaunch:
    """A kernel's OpenCL launch: buffers (copied in before every run), scalars after them,
    and the check values from the buffer `output` after the run."""
    grid: tuple[int, int]
    block: tuple[int, int]
    arrays: list[np.ndarray]
    scalars: list
    output: int
    check: Callable[[np.ndarray], list[str]]


def fill_int(n: int) -> np.ndarray:
    """The drivers' integer input: (i * 37 + 11) & 0xFF."""
    i = np.arange(n, dtype=np.uint32)
    return ((i * np.uint32(37) + np.uint32(11)) & np.uint32(0xFF)).astype(np.int32)


def fill_float(n: int, mul: int, add: int) -> np.ndarray:
    """The drivers' float input: ((i * mul + add) & 0xFF) / 10."""
    i = np.arange(n, dtype=np.uint32)
    return ((i * np.uint32(mul) + np.uint32(add)) & np.uint32(0xFF)).astype(np.float32) / np.float32(10.0)


def _f3(x) -> str:
    return f"{float(x):.3f}"


def cl_launch(suite: Suite, kernel: str, args: list[str]) -> CLLaunch:
    """The OpenCL version of the driver's launch of `kernel` at `args`."""
    a = [int(x) for x in args]
    if suite.sample == "reduceInteger":
        blocksize, size = a
        fold = (1, 1, 1, 2, 4, 8, 8, 8, 8)[suite.kernels.index(kernel)]
        grid = -(-size // blocksize) // fold
        return CLLaunch((grid, 1), (blocksize, 1), [fill_int(size), np.zeros(grid, np.int32)], [np.uint32(size)], 1,
                        lambda out: [str(out[0]), str(out[grid - 1])])
    if suite.sample == "sumMatrix":
        nx, ny, dimx, dimy = a
        inputs = [fill_float(nx * ny, 37, 11), fill_float(nx * ny, 53, 7), np.zeros(nx * ny, np.float32)]
        return CLLaunch((-(-nx // dimx), -(-ny // dimy)), (dimx, dimy), inputs, [np.int32(nx), np.int32(ny)], 2,
                        lambda out: [_f3(out[0]), _f3(out[-1])])
    if suite.sample == "vectorAdd":
        (n,) = a
        inputs = [fill_float(n, 37, 11), fill_float(n, 53, 7), np.zeros(n, np.float32)]
        return CLLaunch((-(-n // 256), 1), (256, 1), inputs, [np.int32(n)], 2,
                        lambda out: [_f3(out[0]), _f3(out[n - 1])])
    blocksize, size = a   # simpleDivergence
    grid = -(-size // blocksize)
    return CLLaunch((grid, 1), (blocksize, 1), [np.zeros(grid * blocksize, np.float32)], [], 0,
                    lambda out: [_f3(out[0] + out[1]), _f3(out[size - 2] + out[size - 1])])


class OpenCL:
    """A PoCL (or other) CPU device through pyopencl, with a profiling queue."""

    def __init__(self):
        try:
            import pyopencl as cl
        except ImportError as e:
            raise Unavailable(f"pocl: pyopencl is not importable ({e}); "
                              "pip install pyopencl pocl-binary-distribution") from None
        try:
            devices = [d for p in cl.get_platforms() for d in p.get_devices(device_type=cl.device_type.CPU)]
        except cl.Error as e:
            raise Unavailable(f"pocl: no OpenCL platform ({e})") from None
        if not devices:
            raise Unavailable("pocl: OpenCL finds no CPU device")
        self.cl, self.device = cl, devices[0]
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context, properties=cl.command_queue_properties.PROFILING_ENABLE)
        self.description = (f"{self.device.platform.version}, device {self.device.name.strip()}, "
                            f"{self.device.max_compute_units} compute units")

    def build(self, suite: Suite, args: list[str]):
        options = [f"-DBLOCK_SIZE={args[0]}"] if suite.sample == "reduceInteger" else []
        source = (NATIVE_DIR / f"{suite.sample}.cl").read_text()
        try:
            return self.cl.Program(self.context, source).build(options=options)
        except self.cl.Error as e:
            raise Unavailable(f"pocl: {suite.sample}.cl does not build: {str(e)[:300]}") from None

    def time(self, program, kernel: str, launch: CLLaunch, args: list[str], min_seconds: float) -> Baseline:
        """Mean kernel time (profiling events) over runs lasting min_seconds (at least three), after a warm-up."""
        cl = self.cl
        buffers = [cl.Buffer(self.context, cl.mem_flags.READ_WRITE, a.nbytes) for a in launch.arrays]
        k = cl.Kernel(program, kernel)
        k.set_args(*buffers, *launch.scalars)
        gsize = (launch.grid[0] * launch.block[0], launch.grid[1] * launch.block[1])

        def once() -> float:
            for buffer, array in zip(buffers, launch.arrays):
                cl.enqueue_copy(self.queue, buffer, array)
            event = cl.enqueue_nd_range_kernel(self.queue, k, gsize, launch.block)
            event.wait()
            return (event.profile.end - event.profile.start) * 1e-9

        once()
        times = []
        while len(times) < 3 or sum(times) < min_seconds:
            times.append(once())
        out = np.empty_like(launch.arrays[launch.output])
        cl.enqueue_copy(self.queue, out, buffers[launch.output])
        self.queue.finish()
        return Baseline(list(args), sum(times) / len(times), len(times), launch.check(out))


# ---- Numba's CUDA simulator ------------------------------------------------------------------------------
def run_numba(kernel: str, args: tuple[str, ...], timeout: float) -> dict:
    """numba_sim.py in a subprocess with the simulator switched on (it must be before numba is imported)."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    try:
        result = subprocess.run([sys.executable, str(NATIVE_DIR / "numba_sim.py"), kernel, *args], env=env,
                                capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Unavailable(f"numba: {kernel} {' '.join(args)} ran past {timeout:.0f} s") from None
    if result.returncode != 0:
        raise Unavailable(f"numba: {kernel} failed: {result.stderr.strip().splitlines()[-1:] or ['no message']}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def numba_entry(kernel: str, args: tuple[str, ...], sim: dict, interp: EngineRun) -> dict:
    """The simulator next to the interpreter at the same launch: threads/s, thread inst/s (equivalent for Numba)."""
    threads = sim["threads"]
    minicuda_threads = math.prod(interp.grid) * math.prod(interp.block)
    return {"kernel": kernel, "args": list(args), "threads": threads, "numba_wall_s": sim["seconds"],
            "numba_threads_per_s": threads / sim["seconds"],
            "numba_thread_inst_per_s_equiv": interp.thread_inst_executed / sim["seconds"],
            "interp_wall_s": interp.wall_s, "interp_threads_per_s": minicuda_threads / interp.wall_s,
            "interp_thread_inst_per_s": interp.thread_inst_per_s,
            "checks_agree": sim["check"] == interp.check and threads == minicuda_threads}


# ---- end-to-end targets ---------------------------------------------------------------------------------
def peak_rss_bytes() -> int:
    """This process's peak RSS: Linux's VmHWM where there is one, since getrusage's ru_maxrss outlives
    exec, so that a child of a big parent would report the parent's peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)


def e2e_child(argv: list[str]) -> int:
    """In a process of its own: compile (mode 'compile': only that) or compile and run a whole sample
    with the JIT; prints one JSON line.  argv: mode, arch, jobs (0: all cores), path, program args."""
    from minicuda.vm.machine import Machine
    mode, arch, jobs, path, *program_args = argv
    start = time.perf_counter()
    program = minicuda.compile(path, arch=arch)
    result = {"compile_s": time.perf_counter() - start}
    if mode == "run":
        out, err = io.BytesIO(), io.BytesIO()
        start = time.perf_counter()
        try:
            machine = Machine(program, engine="jit", jobs=int(jobs) or None, stdout=out, stderr=err)
            result["exit_status"] = machine.run([Path(path).stem, *program_args])
        except Exception as e:   # the JIT's failure is the result
            result["error"] = f"{type(e).__name__}: {e}"
        else:
            result.update(run_s=time.perf_counter() - start, peak_live_bytes=machine.memory.peak_live_bytes,
                          output=out.getvalue().decode(errors="replace"),
                          stderr=err.getvalue().decode(errors="replace")[-2000:],
                          launches=[{"kernel": lm.kernel, "inst_executed": lm.inst_executed,
                                     "thread_inst_executed": lm.thread_inst_executed, "wall_s": lm.wall_s}
                                    for lm in machine.launches])
    result["peak_rss_bytes"] = peak_rss_bytes()
    print(json.dumps(result))
    return 0


def spawn_child(mode: str, arch: str, jobs: int | None, path: Path, args: tuple[str, ...], timeout: float) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    command = [sys.executable, "-m", "minicuda.bench", "--e2e-child", mode, arch, str(jobs or 0), str(path), *args]
    start = time.perf_counter()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"ran past the {timeout:.0f} s limit", "process_wall_s": timeout}
    if result.returncode != 0 or not result.stdout.strip():
        tail = result.stderr.strip().splitlines()[-1:] or [f"exit status {result.returncode}"]
        return {"error": tail[0], "process_wall_s": time.perf_counter() - start}
    return {**json.loads(result.stdout.strip().splitlines()[-1]), "process_wall_s": time.perf_counter() - start}


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def run_target(target: Target, samples: Path, arch: str, jobs: int | None, timeout: float) -> dict:
    """A whole sample with the JIT against the targets; RSS is net of a process that only imported and compiled."""
    path = samples / f"{target.sample}.cu"
    progress(f"end-to-end: {path.name} {' '.join(target.args)} with the JIT")
    base = spawn_child("compile", arch, jobs, path, target.args, timeout)
    run = spawn_child("run", arch, jobs, path, target.args, timeout)
    entry = {"sample": f"{target.sample}.cu", "args": list(target.args),
             "baseline_rss_bytes": base.get("peak_rss_bytes"), **{k: v for k, v in run.items() if k != "output"}}
    if "launches" not in run:
        return entry
    output = run["output"]
    rates = [lm["thread_inst_executed"] / lm["wall_s"] for lm in run["launches"] if lm["wall_s"] > 0]
    net_rss = run["peak_rss_bytes"] - (base.get("peak_rss_bytes") or 0)
    entry.update(output_tail=output.strip().splitlines()[-3:],
                 output_ok=run["exit_status"] == 0 and (target.expect is None or target.expect in output)
                 and (target.reject is None or target.reject not in output),
                 geomean_thread_inst_per_s=geomean(rates),
                 rss_over_live=net_rss / run["peak_live_bytes"] if run["peak_live_bytes"] else None)
    entry["meets"] = {"wall": entry["process_wall_s"] < TARGET_WALL_S,
                      "thread_rate": (entry["geomean_thread_inst_per_s"] or 0) >= TARGET_THREAD_RATE,
                      "rss": entry["rss_over_live"] is not None and entry["rss_over_live"] <= TARGET_RSS_RATIO}
    return entry


# ---- the benchmark ---------------------------------------------------------------------------------------
def progress(message: str) -> None:
    """What is being measured now, on stderr: a full run takes minutes."""
    print(f"bench: {message}", file=sys.stderr, flush=True)


def selected(suite: Suite, only: list[str]) -> list[str]:
    """The suite's kernels that --only names (by kernel or by sample); all when --only is not given."""
    if not only or suite.sample in only:
        return list(suite.kernels)
    return [k for k in suite.kernels if k in only]


def measure_minicuda(report: Report, suite: Suite, kernels: list[str], program, opts) -> dict[str, KernelResult]:
    results = {k: KernelResult(suite.sample, k) for k in kernels}
    for engine in opts.engines:
        args = suite.sizes[opts.sizes[engine]]
        progress(f"{suite.sample} on {engine} at {' '.join(args)}")
        try:
            if engine == "jit":
                report.jit_warmup_s[suite.sample] = warm_up_jit(program, suite, kernels, args, opts.jobs)
            runs = measure_engine(program, suite, kernels, engine, args, opts.jobs)
        except Unavailable as e:
            report.notes.append(str(e))
            continue
        for k, run in runs.items():
            results[k].runs[engine] = run
    return results


def measure_baselines(report: Report, suite: Suite, results: dict[str, KernelResult], opts, tools: dict) -> None:
    """Native and PoCL at each kernel's reference size (the reference engine ran the whole suite at one size)."""
    refs = [r.reference for r in results.values() if r.reference is not None]
    if not refs:
        return
    args, kernels = refs[0].args, [k for k, r in results.items() if r.reference is not None]
    if "native" in tools:
        progress(f"{suite.sample}, native at {' '.join(args)}")
        try:
            exe = build_native(tools["native"], suite, tools["workdir"])
            for k, b in run_native(exe, suite, kernels, args, opts.min_seconds).items():
                results[k].native = b
        except Unavailable as e:
            report.notes.append(str(e))
    if "pocl" in tools:
        ocl = tools["pocl"]
        progress(f"{suite.sample}, PoCL at {' '.join(args)}")
        try:
            program = ocl.build(suite, args)
            for k in kernels:
                results[k].pocl = ocl.time(program, k, cl_launch(suite, k, args), args, opts.min_seconds)
        except Unavailable as e:
            report.notes.append(str(e))


def baseline_tools(opts, report: Report) -> dict:
    """The baselines that this machine has (C compiler, PoCL), with a note for each missing one."""
    tools = {}
    if "native" not in opts.skip:
        cc = c_compiler()
        if cc:
            tools["native"] = cc
        else:
            report.notes.append("native: no C compiler (cc or gcc) on PATH; the native baseline is skipped")
    if "pocl" not in opts.skip:
        try:
            tools["pocl"] = OpenCL()
            report.versions["opencl"] = tools["pocl"].description
        except Unavailable as e:
            report.notes.append(str(e))
    return tools


def measure_numba(report: Report, programs: dict, opts) -> None:
    if not importlib.util.find_spec("numba"):
        report.notes.append("numba: not importable; the CUDA simulator comparison is skipped (pip install numba)")
        return
    preset = "quick" if opts.quick else "small"
    for kernel, (sample, sizes) in NUMBA_KERNELS.items():
        suite = next(s for s in SUITES if s.sample == sample)
        if sample not in programs or kernel not in selected(suite, opts.only):
            continue
        progress(f"{kernel} on Numba's CUDA simulator at {' '.join(sizes[preset])}")
        try:
            sim = run_numba(kernel, sizes[preset], opts.timeout)
            interp = measure_engine(programs[sample], suite, [kernel], "interp", sizes[preset], opts.jobs)[kernel]
        except Unavailable as e:
            report.notes.append(str(e))
            continue
        report.numba.append(numba_entry(kernel, sizes[preset], sim, interp))


def run_benchmark(opts) -> Report:
    report = Report(machine_info(), versions(c_compiler()), {
        "mode": "quick" if opts.quick else "full", "arch": opts.arch, "engines": list(opts.engines),
        "jobs": opts.jobs or os.cpu_count(), "sizes": opts.sizes, "native_flags": "-O2 on one thread",
        "min_baseline_seconds": opts.min_seconds})
    tools = baseline_tools(opts, report)
    programs = {}
    with tempfile.TemporaryDirectory(prefix="minicuda-bench-") as workdir:
        tools["workdir"] = Path(workdir)
        for suite in SUITES:
            kernels = selected(suite, opts.only)
            if not kernels:
                continue
            programs[suite.sample] = compile_driver(suite, opts.samples, opts.arch)
            results = measure_minicuda(report, suite, kernels, programs[suite.sample], opts)
            measure_baselines(report, suite, results, opts, tools)
            report.kernels.extend(results.values())
    if "numba" not in opts.skip:
        measure_numba(report, programs, opts)
    if not opts.quick and "e2e" not in opts.skip:
        if "jit" not in opts.engines:
            report.notes.append("end-to-end: the targets are for the JIT, which --engine leaves out")
        else:
            for target in TARGETS:
                if not opts.only or target.sample in opts.only:
                    report.end_to_end.append(run_target(target, opts.samples, opts.arch, opts.jobs, opts.timeout))
    return report


# ---- the human report -------------------------------------------------------------------------------------
def si(x: float | None) -> str:
    """3 significant digits with k, M, G, T: 12.3M."""
    if x is None:
        return "-"
    for scale, unit in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def secs(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 1e-3:
        return f"{x * 1e3:.3g} ms"
    return f"{x * 1e6:.3g} us"


def ratio(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}x" if x >= 100 else f"{x:.3g}x"


def table(headers: list[str], rows: list[list[str]]) -> str:
    """Left-aligned first columns of text, right-aligned numbers (any column whose header ends with ':')."""
    right = [h.endswith(":") for h in headers]
    headers = [h.rstrip(":") for h in headers]
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]
    lines = []
    for row in [headers, *rows]:
        cells = [str(c).rjust(w) if r else str(c).ljust(w) for c, w, r in zip(row, widths, right)]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def engines_table(report: Report) -> str:
    rows = []
    for k in report.kernels:
        for i, engine in enumerate(e for e in ENGINES if e in k.runs):
            r = k.runs[engine]
            rows.append([k.kernel if i == 0 else "", engine, " ".join(r.args), f"{r.inst_executed:,}",
                         f"{r.thread_inst_executed:,}", secs(r.wall_s), si(r.warp_inst_per_s), si(r.thread_inst_per_s),
                         ratio(k.jit_over_interp()) if engine == "jit" else ""])
        if not k.runs:
            rows.append([k.kernel, "-", "", "", "", "", "", "", ""])
    return table(["kernel", "engine", "size", "warp inst:", "thread inst:", "wall:", "warp inst/s:",
                  "thread inst/s:", "jit/interp:"], rows)


def baselines_table(report: Report) -> str:
    rows = []
    for k in report.kernels:
        ref = k.reference
        if ref is None:
            continue
        native, pocl = k.native, k.pocl
        rows.append([k.kernel, " ".join(ref.args), f"{ref.engine} {secs(ref.wall_s)}",
                     secs(native.wall_s) if native else "-",
                     si(ref.thread_inst_executed / native.wall_s) if native else "-",
                     ratio(ref.wall_s / native.wall_s) if native else "-",
                     secs(pocl.wall_s) if pocl else "-", ratio(ref.wall_s / pocl.wall_s) if pocl else "-",
                     "ok" if k.checks_agree() else "MISMATCH"])
    return table(["kernel", "size", "minicuda:", "native:", "native thread inst/s eq:", "minicuda/native:",
                  "PoCL:", "minicuda/PoCL:", "check"], rows)


def numba_table(report: Report) -> str:
    rows = [[n["kernel"], " ".join(n["args"]), f"{n['threads']:,}", secs(n["numba_wall_s"]),
             si(n["numba_threads_per_s"]), si(n["numba_thread_inst_per_s_equiv"]), secs(n["interp_wall_s"]),
             si(n["interp_threads_per_s"]), si(n["interp_thread_inst_per_s"]),
             "ok" if n["checks_agree"] else "MISMATCH"]
            for n in report.numba]
    return table(["kernel", "size", "threads:", "numba:", "numba threads/s:", "numba thread inst/s eq:",
                  "interp:", "interp threads/s:", "interp thread inst/s:", "check"], rows)


def e2e_table(report: Report) -> str:
    def mark(entry: dict, key: str) -> str:
        return " ok" if entry.get("meets", {}).get(key) else " MISS"
    rows = []
    for e in report.end_to_end:
        name = f"{e['sample']} {' '.join(e['args'])}"
        if "meets" not in e:
            rows.append([name, secs(e.get("process_wall_s")), "-", "-", "-", "-", "-", e.get("error", "no result")])
            continue
        rows.append([name, secs(e["process_wall_s"]) + mark(e, "wall"), secs(e["compile_s"]), secs(e["run_s"]),
                     si(e["geomean_thread_inst_per_s"]) + mark(e, "thread_rate"),
                     f"{si(e['peak_rss_bytes'])}B - {si(e['baseline_rss_bytes'])}B",
                     f"{si(e['peak_live_bytes'])}B, {ratio(e['rss_over_live'])}{mark(e, 'rss')}",
                     "ok" if e["output_ok"] else "WRONG: " + " / ".join(e["output_tail"])])
    return table(["program", "wall:", "compile:", "run:", "geomean thread inst/s:", "peak RSS - baseline:",
                  "live peak, net RSS/live:", "output"], rows)


def settings_line(s: dict) -> str:
    sizes = ", ".join(f"{e} at the {s['sizes'][e]} sizes" for e in s["engines"])
    jit = f"; JIT on {s['jobs']} threads, timed after a warm-up run (no compile time)" if "jit" in s["engines"] else ""
    return (f"arch {s['arch']}; {sizes}{jit}; native C {s['native_flags']} and PoCL on all its compute units, "
            f"each the mean of runs lasting >= {s['min_baseline_seconds']} s")


def render(report: Report) -> str:
    m, v, s = report.machine, report.versions, report.settings
    memory = f", {m['memory_bytes'] / 2**30:.1f} GiB" if m["memory_bytes"] else ""
    found = ", ".join(f"{name} {version}" for name, version in v.items() if version and name not in ("cc", "opencl"))
    parts = [f"minicuda bench ({s['mode']}) on {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable){memory}, "
             f"{m['system']}",
             f"versions: {found}; {v['cc'] or 'no C compiler'}" + (f"; OpenCL: {v['opencl']}" if "opencl" in v else ""),
             settings_line(s)]
    if report.kernels:
        parts += ["", "minicuda engines, per kernel launch", engines_table(report)]
    if report.jit_warmup_s:
        parts.append("JIT warm-up (compiling the kernels): " + ", ".join(
            f"{sample} {secs(t)}" for sample, t in report.jit_warmup_s.items()))
    if any(k.reference for k in report.kernels):
        parts += ["", "baselines at the reference run's size (the JIT's, else the interpreter's)",
                  baselines_table(report)]
    if report.numba:
        parts += ["", "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1) and the interpreter, same launch",
                  numba_table(report)]
    if report.end_to_end:
        parts += ["", f"end-to-end with the JIT, each in its own process (targets: wall < {TARGET_WALL_S:.0f} s, "
                      f"geomean >= {si(TARGET_THREAD_RATE)} thread inst/s, net RSS <= {TARGET_RSS_RATIO:g}x the live "
                      "peak; net RSS = peak RSS - that of a process that only imported minicuda and compiled)",
                  e2e_table(report)]
    if report.notes:
        parts += ["", "notes:"] + [f"  - {n}" for n in report.notes]
    return "\n".join(parts)


# ---- the command line --------------------------------------------------------------------------------------
def parse_args(argv: list[str]):
    p = argparse.ArgumentParser(prog="minicuda bench", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes for every engine, short baseline timings, no end-to-end targets (for tests)")
    p.add_argument("--engine", choices=ENGINES, help="measure one engine only")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="only these kernels or samples (repeat, or separate with commas)")
    p.add_argument("--jit-sizes", choices=["small", "full"], default="full",
                   help="the JIT's sizes: full (default) or the interpreter's small ones, for a like-for-like run")
    p.add_argument("--skip", action="append", default=[], metavar="PART",
                   help="leave out native, pocl, numba or e2e (repeat, or separate with commas)")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="the JIT's parallel blocks (default: all cores)")
    p.add_argument("--arch", default="volta", help="the architecture the samples are compiled for (default volta)")
    p.add_argument("--samples", type=Path, default=PACKAGE_ROOT / "samples", metavar="DIR",
                   help="where reduceInteger.cu and the other samples are (default: the checkout's samples/)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="limit for each subprocess: an end-to-end run, a Numba run (default 600)")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON to FILE")
    opts = p.parse_args(argv)
    opts.only = [n for item in opts.only for n in item.split(",") if n]
    opts.skip = {n for item in opts.skip for n in item.split(",") if n}
    unknown = opts.skip - {"native", "pocl", "numba", "e2e"}
    if unknown:
        p.error(f"--skip: unknown part(s) {', '.join(sorted(unknown))} (native, pocl, numba, e2e)")
    names = {s.sample for s in SUITES} | {k for s in SUITES for k in s.kernels}
    if set(opts.only) - names:
        p.error(f"--only: no kernel or sample {', '.join(sorted(set(opts.only) - names))}")
    if not (opts.samples / "reduceInteger.cu").is_file():
        p.error(f"no samples in {opts.samples} (give --samples DIR)")
    opts.engines = (opts.engine,) if opts.engine else ENGINES
    opts.sizes = {"interp": "quick", "jit": "quick"} if opts.quick else {"interp": "small", "jit": opts.jit_sizes}
    opts.min_seconds = 0.005 if opts.quick else 0.2
    return opts


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 1 when results disagree (a check value or an end-to-end output)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--e2e-child"]:
        return e2e_child(argv[1:])
    opts = parse_args(argv)
    report = run_benchmark(opts)
    print(render(report))
    if opts.json:
        Path(opts.json).write_text(json.dumps(report.as_dict(), indent=2) + "\n")
    wrong = [k for k in report.kernels if not k.checks_agree()] + [n for n in report.numba if not n["checks_agree"]]
    wrong += [e for e in report.end_to_end if e.get("output_ok") is False]
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

"""Baselines run as programs of their own: the kernels as serial C, and Numba's CUDA simulator.

Native: native/SAMPLE.c, built with the machine's C compiler at -O2, times each
kernel itself (one untimed warm-up, then runs lasting min_seconds) and prints
`bench KERNEL SECONDS REPS CHECK...`.  Numba: native/numba_sim.py runs a kernel once
in a subprocess with the simulator switched on and prints one JSON line; it is set
next to the interpreter at the same launch, a small one (the simulator runs a
Python thread per CUDA thread).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

from minicuda.bench.results import Baseline, EngineRun, Unavailable
from minicuda.bench.suites import NATIVE_DIR, Suite, check_lines


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

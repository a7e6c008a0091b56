"""The machine minicuda bench runs on: its CPU, cores and memory, and the versions of what it measures.

Read from /proc where Linux has it, and from package metadata: nothing optional
(pyopencl, numba) is imported here, so the report names what is installed even
when a part of the benchmark is skipped.
"""
from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
from pathlib import Path

import minicuda


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

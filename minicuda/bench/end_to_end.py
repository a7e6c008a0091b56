"""The end-to-end targets: a whole sample with the JIT, each in a process of its own.

Two children per target, both `python -m minicuda.bench --e2e-child ...`: one only
compiles (its peak RSS is the baseline), one compiles and runs; each prints one JSON
line.  The entry set against the targets holds the process's wall time, the
geometric mean of thread inst/s over the launches, and the peak RSS net of the
baseline against the program's own peak of live allocations.
"""
from __future__ import annotations

import io
import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import minicuda
from minicuda.bench.suites import PACKAGE_ROOT, TARGET_RSS_RATIO, TARGET_THREAD_RATE, TARGET_WALL_S, Target
from minicuda.vm.machine import Machine


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
    mode, arch, jobs, path, *program_args = argv
    start = time.perf_counter()
    program = minicuda.compile(path, arch=arch)
    result = {"compile_s": time.perf_counter() - start}
    if mode == "run":
        out, err = io.BytesIO(), io.BytesIO()
        start = time.perf_counter()
        try:
            machine = Machine(program, engine="jit", jobs=int(jobs) or None, stdout=out, stderr=err, time="wall")
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

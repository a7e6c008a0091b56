"""minicuda bench --startup: the CPU time `minicuda run prog.cu` spends before main starts.

Issue 17's compile-latency target: a second run of an unchanged program spends under
0.3 s before main.  Each program (an empty main, a hello-world kernel, and the
samples' simpleDivergence.cu) is run whole in a subprocess, as the installed command
runs it: `cold`, with an empty cache directory (the compile, and the JIT's compile of
each function), then `warm`, the same run again (the compile cache and the JIT's disk
cache filled).  The child notes its process CPU time (user and system, from the
start of Python: `time.process_time`) when main's native code is ready, the moment
main's first instruction runs, and prints it on stderr's last line (Python writes and
reads its bytecode cache, as it does for an installed package, whatever
PYTHONDONTWRITEBYTECODE says); the row gives the
least of `repeats` runs, and the whole run's CPU seconds beside it.  On a busy machine
CPU time varies less than wall time; still, compare rows of one run.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

EMPTY = "int main() { return 0; }\n"
HELLO = r"""#include <cstdio>
__global__ void hello() { printf("hello from thread %d\n", threadIdx.x); }
int main() { hello<<<1, 4>>>(); cudaDeviceSynchronize(); return 0; }
"""
PROGRAMS = {"empty main": EMPTY, "hello kernel": HELLO, "simpleDivergence": None}   # None: the sample
MARK = "minicuda-bench-before-main "
# `minicuda run` as the installed command runs it, noting the CPU time when main's native
# code is ready (the engine's first compile_function for main returns)
CHILD = f"""
import sys, time
from minicuda.cli import minicuda_main
from minicuda.vm.jit import engine
compile_function, seen = engine.compile_function, []
def noted(code, *args, **kwargs):
    compiled = compile_function(code, *args, **kwargs)
    if code.fn.name == "main" and not seen:
        seen.append(time.process_time())
    return compiled
engine.compile_function = noted
status = minicuda_main(sys.argv[1:])
print("{MARK}%.4f" % (seen[0] if seen else -1), file=sys.stderr)
sys.exit(status)
"""


@dataclass
class StartupTime:
    program: str
    cache: str            # "cold" or "warm"
    before_main: float    # CPU seconds before main's first instruction
    whole: float          # CPU seconds of the whole run


def run_once(path: str, cache_dir: str) -> tuple[float, float]:
    """(CPU seconds before main, of the whole run) of one `minicuda run path`."""
    env = dict(os.environ, MINICUDA_CACHE_DIR=cache_dir)
    # (Python's own bytecode cache, as an installed package has it: without it each run
    # compiles minicuda's sources again, 0.1-0.2 s that no user's second run spends)
    for name in ("MINICUDA_JIT_CACHE", "MINICUDA_COMPILE_CACHE", "MINICUDA_COMPILE_CACHE_DIR",
                 "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, "-c", CHILD, "run", path], env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    last = r.stderr.splitlines()[-1] if r.stderr else ""
    if r.returncode != 0 or not last.startswith(MARK):
        raise RuntimeError(f"startup: minicuda run {path} ended with status {r.returncode}: {r.stderr.strip()}")
    whole = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return float(last[len(MARK):]), whole


def measure_program(name: str, path: str, repeats: int) -> list[StartupTime]:
    """The cold and warm rows of one program, each the least of `repeats` runs."""
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache_dir:
            cold.append(run_once(path, cache_dir))
            warm.append(run_once(path, cache_dir))
    return [StartupTime(name, "cold", *min(cold)), StartupTime(name, "warm", *min(warm))]


def run_startup(samples: Path, repeats: int = 3, progress=None) -> list[StartupTime]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in PROGRAMS.items():
            if text is None:
                path = str(samples / f"{name}.cu")
            else:
                path = os.path.join(tmp, name.replace(" ", "_") + ".cu")
                Path(path).write_text(text)
            if progress is not None:
                progress(f"startup: {name}")
            results.extend(measure_program(name, path, repeats))
    return results


def render_startup(results: list[StartupTime], target: float = 0.3) -> str:
    out = [f"CPU seconds of `minicuda run` before main starts (best of the runs; cold: empty caches, "
           f"warm: the same run again; target warm < {target} s)",
           f"{'program':<20}{'cache':<7}{'before main':>12}{'whole run':>11}"]
    for r in results:
        met = "" if r.cache == "cold" else "   ok" if r.before_main < target else "   over"
        out.append(f"{r.program:<20}{r.cache:<7}{r.before_main:>11.3f}s{r.whole:>10.3f}s{met}")
    return "\n".join(out)


def as_dicts(results: list[StartupTime]) -> list[dict]:
    return [{"program": r.program, "cache": r.cache, "before_main_s": r.before_main, "whole_s": r.whole}
            for r in results]

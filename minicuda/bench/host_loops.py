"""minicuda bench --host-loops: host code's loops against the same C built with `cc -O2`.

Each case is one program in the subset C and mini-CUDA share, so the same text is run by
`minicuda run` (the JIT) and built by the machine's C compiler at -O2 (as C):

- `fill`: an array filled with `rand()`, as the samples' initialData does;
- `add`: two arrays added into a third (sumMatrixOnHost), four passes;
- `compare`: two arrays compared with `fabs` against an epsilon (checkResult), four passes;
- `helper`: a host function the inliner keeps a call (it divides) called per element.

The time per element is the difference of two runs, at N and 4N elements, over 3N: what
starting the program, compiling it and allocating cost cancels out, for minicuda and C
alike.  Each run is a subprocess, timed by its CPU seconds (user and system, the best of
`repeats`: a busy machine inflates wall time more); minicuda's caches are warmed first.
Issue 17's target: each case within 1.5x of C.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from minicuda.bench.baselines import c_compiler

TARGET_RATIO = 1.5
PROLOGUE = r"""#include <stdio.h>
#include <stdlib.h>
#include <math.h>
"""
FILL = PROLOGUE + r"""int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    float *a = (float *)malloc(n * sizeof(float));
    srand(1);
    for (int i = 0; i < n; i++) a[i] = (float)(rand() & 0xFF) / 10.0f;
    printf("%f %f\n", a[n / 2], a[n - 1]);
    return 0;
}
"""
ADD = PROLOGUE + r"""void sumOnHost(float *a, float *b, float *c, int n) {
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    float *a = (float *)malloc(n * sizeof(float));
    float *b = (float *)malloc(n * sizeof(float));
    float *c = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { a[i] = (float)(i & 7); b[i] = 1.0f; c[i] = 0.0f; }
    for (int k = 0; k < 4; k++) sumOnHost(a, b, c, n);
    printf("%f %f\n", c[n / 2], c[n - 1]);
    return 0;
}
"""
COMPARE = PROLOGUE + r"""int check(float *a, float *b, int n) {
    double eps = 1.0E-8;
    int bad = 0;
    for (int i = 0; i < n; i++) if (fabs(a[i] - b[i]) > eps) bad++;
    return bad;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    float *a = (float *)malloc(n * sizeof(float));
    float *b = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { a[i] = (float)(i & 7); b[i] = (float)(i & 7) + (i % 1000 == 0); }
    int bad = 0;
    for (int k = 0; k < 4; k++) bad += check(a, b, n);
    printf("%d\n", bad);
    return 0;
}
"""
HELPER = PROLOGUE + r"""int third(int x, int d) { return x / d + 1; }
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    long long s = 0;
    for (int i = 0; i < n; i++) s += third(i, 3 + (i & 1));
    printf("%lld\n", s);
    return 0;
}
"""
CASES = {"fill": FILL, "add": ADD, "compare": COMPARE, "helper": HELPER}
SIZES = {"full": 1 << 21, "quick": 1 << 12}   # N: runs at N and 4N elements
REPEATS = {"full": 3, "quick": 1}
MINICUDA = [sys.executable, "-c", "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())"]


@dataclass
class LoopTime:
    case: str
    minicuda_ns: float          # per element
    c_ns: float | None          # None: no C compiler

    @property
    def ratio(self) -> float | None:
        return self.minicuda_ns / self.c_ns if self.c_ns else None


def cpu_seconds(command: list[str], repeats: int) -> tuple[float, str]:
    """The least CPU seconds (user and system) `command` took over `repeats` runs, and its output."""
    best, out = None, ""
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run(command, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0 or not r.stdout:
            raise RuntimeError(f"host-loops: {' '.join(command)} ended with status {r.returncode}: {r.stderr.strip()[:300]}")
        seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        best, out = (seconds, r.stdout) if best is None or seconds < best else (best, out)
    return best, out


def per_element(command: list[str], n: int, repeats: int) -> tuple[float, str]:
    """Nanoseconds per element: the runs at 4n and n elements, their difference over 3n."""
    small, _ = cpu_seconds(command + [str(n)], repeats)
    large, out = cpu_seconds(command + [str(4 * n)], repeats)
    return max(large - small, 0.0) / (3 * n) * 1e9, out


def run_host_loops(preset: str = "full", cases=None, progress=None) -> list[LoopTime]:
    n, repeats = SIZES[preset], REPEATS[preset]
    cc = c_compiler()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases or CASES:
            source = os.path.join(tmp, f"{case}.cu")
            with open(source, "w") as f:
                f.write(CASES[case])
            if progress is not None:
                progress(f"host-loops: {case} minicuda")
            subprocess.run([*MINICUDA, "run", source, str(n)], capture_output=True)   # the caches warm
            mini, mini_out = per_element([*MINICUDA, "run", source], n, repeats)
            native = None
            if cc is not None:
                if progress is not None:
                    progress(f"host-loops: {case} {cc} -O2")
                exe = os.path.join(tmp, case)
                built = subprocess.run([cc, "-O2", "-x", "c", "-o", exe, source, "-lm"], capture_output=True, text=True)
                if built.returncode != 0:
                    raise RuntimeError(f"host-loops: {cc} could not build {case}: {built.stderr.strip()[:300]}")
                native, c_out = per_element([exe], n, repeats)
                if c_out != mini_out:
                    raise RuntimeError(f"host-loops: {case} printed {mini_out!r} with minicuda, {c_out!r} as C")
            results.append(LoopTime(case, mini, native))
    return results


def render_host_loops(results: list[LoopTime]) -> str:
    out = ["Host loops (ns per element, CPU; the difference of runs at N and 4N elements; "
           f"target: within {TARGET_RATIO}x of cc -O2)",
           f"{'case':<10}{'minicuda':>10}{'cc -O2':>10}{'ratio':>8}  target"]
    for r in results:
        c = f"{r.c_ns:>10.2f}" if r.c_ns is not None else f"{'-':>10}"
        ratio = f"{r.ratio:>8.2f}" if r.ratio is not None else f"{'-':>8}"
        met = "-" if r.ratio is None else ("met" if r.ratio <= TARGET_RATIO else "not met")
        out.append(f"{r.case:<10}{r.minicuda_ns:>10.2f}{c}{ratio}  {met}")
    return "\n".join(out)


def as_dicts(results: list[LoopTime]) -> list[dict]:
    return [{"case": r.case, "minicuda_ns": r.minicuda_ns, "c_ns": r.c_ns, "ratio": r.ratio} for r in results]

"""Host code writes back at each exit only the register rows live there (vm/jit/live_rows.py),
and checks the budget once per loop iteration (a straight run goes on through the host
thread's forward branches).  Whatever native code hands to the interpreter or the call
stack then (a runtime call in a loop, a fault, the budget, a callee) must find every value
it reads: both engines print the same, report the same faults and exit alike."""
import pytest
from helpers.run_source import run_on_both_engines

import minicuda
from minicuda.vm.code import Code
from minicuda.vm.jit.live_rows import live_rows
from minicuda.vm.machine import Machine

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
void sum(float *a, float *b, float *c, int n) {
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
long long walk(const int *p, int n, int stride) {
    long long s = 0;
    double d = 0.5;
    for (int i = 0; i < n; i++) {
        if (p[i] & 1) { s += p[i]; continue; }
        if (p[i] > 1000) break;
        for (int k = 0; k < (i & 3); k++) { s = s * 3 + k; d += p[k * stride]; }
        if ((i & 7) == 5) printf("at %d: %lld %.1f\n", i, s, d);   // a runtime call: native code leaves
    }
    return s + (long long)d;
}
double widths(const short *h, const double *d, const long long *q, int n) {   // 2- and 8-byte accesses
    double s = 0.0;
    for (int i = 0; i < n; i++) s += h[i] + d[i] + (double)q[i / 2];
    return s;
}
int main(int argc, char **argv) {
    int mode = atoi(argv[1]);
    int n = 40;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    float *c = (float *)malloc(n * sizeof(float));
    int *p = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) { a[i] = i * 0.25f; b[i] = 1.0f / (i + 1); p[i] = (i * 37) % 23; }
    sum(a, b, c, n);
    printf("%.6f %.6f %lld\n", c[3], c[n - 1], walk(p, n, 1));
    if (mode == 1) printf("%lld\n", walk(p, n, 30));     // p[k * 30] past the end, in a nested loop
    if (mode == 2) sum(a, b, c, n + 1);                   // c[n]: a store past the end
    short *h = (short *)malloc(n * sizeof(short));
    double *d = (double *)malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) { h[i] = (short)(i * 1000); d[i] = i / 8.0; }
    printf("%.3f\n", widths(h, d, (const long long *)d, n));
    if (mode == 3) printf("%.3f\n", widths(h, d, (const long long *)((char *)d + 4), n));   // misaligned
    if (mode == 4) printf("%.3f\n", widths(h + 1, d, (const long long *)d, n));   // h[n]: one past the end
    return 0;
}
"""


@pytest.mark.parametrize("mode", [0, 1, 2, 3, 4])
def test_host_loops_match_the_interpreter(tmp_path, capsys, mode):
    native = run_on_both_engines(tmp_path, capsys, PROGRAM, str(mode))
    assert native[1].startswith("at 21: 194198595 80.5\n")
    assert (native[0] == 0) == (mode == 0)
    if mode:
        assert "error:" in native[2]


@pytest.mark.parametrize("steps", [1000, 1500, 1777, 2000])
def test_the_budget_runs_out_in_a_host_loop_as_in_the_interpreter(tmp_path, capsys, steps):
    native = run_on_both_engines(tmp_path, capsys, PROGRAM, "0", options=("--max-steps", str(steps)))
    assert native[0] != 0 and "instruction budget exhausted" in native[2]


def test_a_loop_body_s_temporaries_are_dead_at_its_head():
    """sum's address halves (each IMAD.WIDE's pair) die in the body: at the loop's head only
    the parameters, the index and the bound are live, and past the end nothing is."""
    code = Code(Machine(minicuda.compile(PROGRAM)).host.code("sum").fn)
    live = live_rows(code)
    head = min(code.label_pc[i.target] for pc, i in enumerate(code.instrs)
               if i.op == "BRA" and code.label_pc[i.target] <= pc)
    params = {code.slot(p.reg) + k for p in code.fn.params for k in range(p.size // 4)}
    temporaries = {code.slot(r) for i in code.instrs if i.op == "IMAD" for r in i.dsts}
    assert params <= live[head] | params and temporaries
    assert not temporaries & live[head]
    assert live[code.end] == frozenset()

"""Host functions that only compute (no store, no call, no frame of their own) are called
natively from host code (vm/jit/host_callees.py); whatever they cannot finish there (a
division by zero, a load out of bounds, the budget, a stack overflow) is run again from the
CALL by the call stack.  The interpreter is the specification: both engines print the same,
report the same faults and exit alike."""
import pytest
from helpers.run_source import run

import minicuda
from minicuda.vm.jit.host_callees import is_native_callee
from minicuda.vm.machine import Machine

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
int third(int x, int d) { return x / d + 1; }                 // divides: not inlined
double gap(float a, float b) { return fabs((double)a - b); }
long long mix(long long a, int b) { long long s = a; for (int i = 0; i < b; i++) s = s * 31 + i; return s; }
float total(const float *p, int n) { float s = 0.0f; for (int i = 0; i < n; i++) s += p[i]; return s; }
const float *pick(const float *p, int i) { for (int k = 0; k < 2; k++) i ^= k; return p + i; }
int depth(int n, int d) {                                      // recursive: the call stack runs it
    char pad[4096];
    pad[n & 4095] = (char)n;
    if (n == 0) return 0;
    return third(n, d) + depth(n - 1, d) + pad[n & 4095];
}
int main(int argc, char **argv) {
    int mode = atoi(argv[1]);
    int n = 96;
    float *a = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) a[i] = (float)(i % 17) / 4.0f;
    long long s = 0;
    double g = 0.0;
    for (int i = 0; i < n; i++) {
        s += third(i, 3 + (i & 3));
        g += gap(a[i], a[n - 1 - i]);
        s ^= mix(s, i & 7);
    }
    printf("%lld %.6f %.3f %.3f %d\n", s, g, total(a, n), *pick(a, 7), depth(60, 7));
    if (mode == 1) printf("%d\n", third(n, mode - 1));          // SIGFPE in the callee
    if (mode == 2) printf("%.3f\n", total(a, n + 40));           // a load past the end, in the callee's loop
    if (mode == 3) printf("%.3f\n", *pick(a, -9));               // a pointer out of bounds, returned
    if (mode == 4) printf("%d\n", depth(1 << 20, 1));            // a host stack overflow, callees on the way
    return 0;
}
"""


@pytest.mark.parametrize("mode", [0, 1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_native_callees_match_the_interpreter(tmp_path, capsys, mode):
    native = run(tmp_path, capsys, "jit", PROGRAM, str(mode))
    assert native == run(tmp_path, capsys, "interp", PROGRAM, str(mode))
    assert native[1].startswith("-3822145360911845061 112.500000 183.750 1.500 2126\n")
    if mode:
        assert native[0] != 0 and "error:" in native[2]


@pytest.mark.parametrize("steps", [6000, pytest.param(3000, marks=pytest.mark.slow),
                                   pytest.param(4321, marks=pytest.mark.slow)])
def test_the_budget_runs_out_in_a_callee_as_in_the_interpreter(tmp_path, capsys, steps):
    options = ("--max-steps", str(steps))
    native = run(tmp_path, capsys, "jit", PROGRAM, "0", options=options)
    assert native == run(tmp_path, capsys, "interp", PROGRAM, "0", options=options)
    assert native[0] != 0 and "instruction budget exhausted" in native[2]


def test_which_functions_are_native_callees():
    machine = Machine(minicuda.compile(PROGRAM))
    native = {name for name in ("third", "gap", "mix", "total", "pick", "depth", "main")
              if is_native_callee(machine.host.code(name))}
    assert native == {"third", "gap", "mix", "total", "pick"}

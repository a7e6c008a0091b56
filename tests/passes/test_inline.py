"""Device functions are inlined at -O1 and above, as nvcc does; -O0 keeps the calls."""
import numpy as np

import minicuda
from minicuda.vm.launcher import Device

SRC = """
__device__ int clampAdd(int a, int b) {
    int s = a + b;
    if (s > 100) return 100;      // two returns: both reach the continuation
    return s;
}
__device__ int sumDigits(int x) {   // a local array: the callee's frame joins the caller's
    int d[12];
    int n = 0;
    while (x > 0 && n < 12) { d[n++] = x % 10; x /= 10; }
    int s = 0;
    for (int i = 0; i < n; i++) s += d[i];
    return s;
}
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }   // recursive: stays a call
__device__ void store(int *p, int v) { *p = v; }
__global__ void k(int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int keep[3];
    keep[t % 3] = t;
    store(&out[t], clampAdd(t, sumDigits(t * 37)) + keep[t % 3] + fact(t % 5));
}
"""


def calls(program, fn):
    return [i.srcs[0].name for i in program.functions[fn].instructions() if i.op == "CALL" and "RT" not in i.mods]


def expected(n):
    out = []
    for t in range(n):
        digits = sum(int(c) for c in str(t * 37)) if t * 37 > 0 else 0
        fact = 1
        for i in range(2, t % 5 + 1):
            fact *= i
        out.append(min(t + digits, 100) + t + fact)
    return out


def test_device_functions_are_inlined_except_recursive_ones():
    o3 = minicuda.compile(SRC, arch="volta")
    assert calls(o3, "k") == ["fact"]
    assert calls(o3, "fact") == ["fact"]
    o0 = minicuda.compile(SRC, arch="volta", opt=0)
    assert sorted(calls(o0, "k")) == ["clampAdd", "fact", "store", "sumDigits"]


def test_inlined_and_called_code_compute_the_same():
    for opt in (0, 3):
        for arch in ("pascal", "volta"):
            out = np.zeros(96, np.int32)
            Device(minicuda.compile(SRC, arch=arch, opt=opt)).launch("k", 3, 32, out)
            assert out.tolist() == expected(96), (opt, arch)


def test_inlined_code_keeps_its_source_lines_and_counts_in_the_kernel():
    program = minicuda.compile(SRC, arch="volta")
    lines = {i.loc.line for i in program.functions["k"].instructions() if i.loc is not None}
    assert {4, 9} <= lines    # clampAdd's and sumDigits's bodies
    decisions = [d for d in program.branch_decisions if d.function == "k"]
    assert any(d.line == 4 for d in decisions)
    out = np.zeros(32, np.int32)
    inlined = Device(program).launch("k", 1, 32, out)
    called = Device(minicuda.compile(SRC, arch="volta", opt=0)).launch("k", 1, 32, np.zeros(32, np.int32))
    # a call's instructions are not the kernel's at -O0 (nvcc -G keeps real calls)
    assert inlined.branch > 0 and inlined.inst_executed > 0 and called.inst_executed > 0


HOST_SRC = """
#include <cstdio>
__host__ __device__ unsigned lcg(unsigned &state) { state = state * 1664525u + 1013904223u; return state >> 16; }
__host__ __device__ int loud(int x) { printf("%d\\n", x); return x; }   // host printf: stays a call in device code
int square(int x) { return x * x; }                                    // small, no loop: inlined into main
int collatz(int n) { int s = 0; while (n != 1) { n = n % 2 ? 3 * n + 1 : n / 2; s++; } return s; }   // a loop
__global__ void k(unsigned *out) { unsigned s = threadIdx.x; out[threadIdx.x] = lcg(s) + loud(1); }
int main() { unsigned s = 1; return lcg(s) + square(3) + collatz(27) > 0 ? 0 : 1; }
"""


def test_host_code_inlines_small_loop_free_functions_and_device_code_its_host_device_ones():
    o3 = minicuda.compile(HOST_SRC, arch="volta")
    assert calls(o3, "k") == ["loud"]               # lcg's device copy is inlined, as nvcc does
    assert calls(o3, "main") == ["collatz"]         # lcg and square inlined; collatz keeps its frame
    o0 = minicuda.compile(HOST_SRC, arch="volta", opt=0)
    assert sorted(calls(o0, "main")) == ["collatz", "lcg", "square"]

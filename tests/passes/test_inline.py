"""Device functions are inlined at -O1 and above, as nvcc does; -O0 keeps the calls."""
import re

import numpy as np
import pytest

import minicuda
from helpers.run_source import run, run_on_both_engines
from minicuda.cli import minicudac_main
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


# A device function's own __shared__ variables and barriers: one object per block of each
# kernel that uses it (two calls in one kernel share it), as nvcc compiles it.
SHARED = """
template <int T>
__device__ __forceinline__ void rev(float *a) {
    __shared__ float s[T]; s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[T - 1 - threadIdx.x]; __syncthreads();
}
__device__ INLINE void twice(int *a) {
    __shared__ int t[32]; t[threadIdx.x] = a[threadIdx.x] * 2; __syncthreads(); a[threadIdx.x] = t[31 - threadIdx.x]; __syncthreads();
}
__global__ void k16(float *a) { rev<16>(a); }
__global__ void k32(float *a) { rev<32>(a); rev<32>(a + 32); }
__global__ void kt(int *a) { twice(a); twice(a); }
int main() {
    float *d; cudaMalloc(&d, 256); float h[64]; for (int i = 0; i < 64; i++) h[i] = i;
    cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice);
    k16<<<1, 16>>>(d); k32<<<1, 32>>>(d);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
    printf("%g %g %g %g %g\\n", h[0], h[15], h[16], h[31], h[32]);
    int *e; cudaMalloc(&e, 128); int g[32]; for (int i = 0; i < 32; i++) g[i] = i;
    cudaMemcpy(e, g, 128, cudaMemcpyHostToDevice); kt<<<1, 32>>>(e); cudaMemcpy(g, e, 128, cudaMemcpyDeviceToHost);
    printf("%d %d\\n", g[0], g[31]);
}
"""
SHARED_OUT = "31 16 0 15 63\n0 124\n"


@pytest.mark.parametrize("options", [["-O3"], ["-O0"], ["-G"]])
def test_functions_with_shared_variables_and_barriers_inline_into_each_kernel(tmp_path, capsys, options):
    source = SHARED.replace("INLINE", "__forceinline__" if options != ["-O3"] else "")
    assert run_on_both_engines(tmp_path, capsys, source, options=options) == (0, SHARED_OUT, "")


def test_a_kernels_static_shared_memory_holds_its_inlined_functions_variables(tmp_path, capsys):
    f = tmp_path / "prog.cu"
    f.write_text("#include <stdio.h>\n" + SHARED.replace("INLINE", ""))
    for opt in ("-O3", "-O0"):   # at -O0 twice stays a call: its variable is still kt's
        assert minicudac_main([str(f), opt, "--resource-usage", "-o", str(tmp_path / "prog")]) == 0
        err = capsys.readouterr().err
        smem = dict(re.findall(r"Function properties for (k\w+)\n.*\n.*Used \d+ registers, (\d+) bytes smem", err))
        assert smem == {"k16": "64", "k32": "128", "kt": "128"}, (opt, err)


@pytest.mark.parametrize("inline, why", [("", "calls are kept at -O0/-G"), ("__noinline__", "it is __noinline__")])
def test_a_barrier_in_a_function_that_stays_a_call_is_a_located_error(tmp_path, capsys, inline, why):
    source = SHARED.replace("INLINE", inline)
    for engine in ("jit", "interp"):
        code, out, err = run(tmp_path, capsys, engine, source, options=["-O0"])
        assert code == 1 and out == "31 16 0 15 63\n"
        assert f"prog.cu:12:30: error: __syncthreads() inside 'twice', called here from 'kt', is not supported in a " \
               f"function that stays a call ({why})" in err, err

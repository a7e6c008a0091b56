"""Integer division by zero on both engines: the interpreter is the specification and the
JIT must agree bit for bit (kernels: the GPU's values, -O3's .FAST32 64-bit path and -G's;
device functions; host code: SIGFPE), and in what --tool memcheck reports."""
import io

import numpy as np
import pytest

import minicuda
from minicuda.vm.errors import VMError
from minicuda.vm.launcher import Device
from minicuda.vm.machine import Machine

TYPES = {"int": np.int32, "unsigned": np.uint32, "long long": np.int64, "unsigned long long": np.uint64}

KERNELS = r"""
__device__ __noinline__ T quotient(T a, T b) { return a / b; }
__global__ void divide(const T *a, const T *b, T *q, T *r, T *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
  f[i] = quotient(a[i], b[i]);
}
int main() { return 0; }
"""


def operands(dtype, n: int = 128):
    """Random operands with zero divisors in about a third of the lanes, and the edges."""
    rng = np.random.default_rng(11)
    info = np.iinfo(dtype)
    edges = np.array([info.min, info.max, 0, 1, 7, (1 << 32) - 1 if info.bits == 64 else 3], dtype=object)
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    small = rng.integers(0, 1 << 20, n).astype(dtype)
    a[::4] = small[::4]   # upper halves zero: the .FAST32 path's case
    a[:len(edges)] = edges.astype(dtype)
    b = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    b[rng.random(n) < 0.35] = 0
    b[:len(edges)] = 0
    if info.min < 0:
        a[len(edges)], b[len(edges)] = info.min, -1
    return a, b


def divide(engine: str, ctype: str, opt: int):
    prog = minicuda.compile(f"#define T {ctype}\n" + KERNELS, arch="sm_70", opt=opt)
    dtype = TYPES[ctype]
    a, b = operands(dtype)
    dev = Device(prog, engine=engine, jobs=1)
    outs = [np.zeros_like(a) for _ in range(3)]
    dev.launch("divide", (4,), (32,), a, b, *outs)
    return outs


@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("ctype", sorted(TYPES))
def test_the_jit_divides_by_zero_as_the_interpreter_does(ctype, opt):
    interp, jit = divide("interp", ctype, opt), divide("jit", ctype, opt)
    for x, y in zip(interp, jit):
        assert x.tobytes() == y.tobytes()
    a, b = operands(TYPES[ctype])
    q, r, _ = interp
    bits = np.iinfo(TYPES[ctype]).bits
    ones = (1 << bits) - 1
    zero = b == 0
    narrow = ((a.astype(np.uint64) | b.astype(np.uint64)) >> np.uint64(32)) == 0
    want = [0xFFFFFFFF if bits == 64 and opt > 0 and n else ones for n in narrow[zero]]
    assert [int(v) & ones for v in q[zero]] == want and [int(v) & ones for v in r[zero]] == want


HOST = r"""#include <cstdio>
__device__ int dev(int a, int b) { return a / b; }
int divide(int a, int b) { return a % b; }
int main(int argc, char **argv) {
  printf("%d\n", divide(7, argc - 2));
  printf("%d\n", divide(7, argc - 1));
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_host_division_by_zero_raises_sigfpe_on_both_engines(engine):
    out = io.BytesIO()
    m = Machine(minicuda.compile(HOST, opt=3), engine=engine, stdout=out, stderr=io.BytesIO())
    with pytest.raises(VMError) as e:
        m.run(["prog"])
    assert e.value.kind == "sigfpe" and e.value.loc.line == 3
    assert str(e.value) == "integer remainder by zero in 'divide'"
    assert out.getvalue() == b"0\n"   # 7 % -1, then 7 % 0 traps


MEMCHECK = r"""
__global__ void k(const int *b, int *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 2) q[i] = 10 / b[i];
  else q[i] = 10 % b[i];
}
int main() { return 0; }
"""


@pytest.mark.parametrize("jobs", [1, 3])
def test_memcheck_reports_alike_on_both_engines(jobs):
    prog = minicuda.compile(MEMCHECK, opt=3)
    reports, results = [], []
    for engine in ("interp", "jit"):
        b = np.ones(256, np.int32)
        b[200], b[201] = 0, 0
        q = np.zeros(256, np.int32)
        dev = Device(prog, engine=engine, jobs=jobs)
        dev.interp.tools = frozenset({"memcheck"})
        dev.launch("k", (8,), (32,), b, q)
        reports.append(list(dev.interp.findings.texts))
        results.append(q.tobytes())
    assert results[0] == results[1]
    assert reports[0] == reports[1] and len(reports[0]) == 2
    assert all("by thread (8,0,0) in block (6,0,0)" in r or "by thread (9,0,0) in block (6,0,0)" in r
               for r in reports[0])

"""The allocation table: kept entry by entry (vm/memory.py), its native arrays always
what the allocations say, and read by the JIT without a rebuild per call, so
allocation and free cost the same at the 100,000th call as at the first."""
import subprocess
import time

import numpy as np
import pytest
from hypothesis import given, strategies as st

from minicuda.vm.memory import Memory

SPACES = ["global", "host", "static", "constant", "stack"]


def expected_rows(memory: Memory) -> np.ndarray:
    """Base, end and host pointer of each allocation (a freed one's storage is gone: 0)."""
    rows = [(a.base, a.base, 0) if a.freed else (a.base, a.base + a.size, a.data.ctypes.data) for a in memory.allocs]
    return np.array(rows, dtype=np.uint64).T.reshape(3, -1)


@given(st.lists(st.tuples(st.sampled_from(["alloc", "free"]), st.sampled_from(SPACES), st.integers(0, 300),
                          st.integers(0, 10**6)), max_size=120))
def test_native_table_follows_every_change(steps):
    memory = Memory(limit=1 << 30)
    live = []
    for action, space, size, pick in steps:
        if action == "alloc" or not live:
            live.append((memory.alloc(size, space, align=16), space))
        else:
            address, where = live.pop(pick % len(live))
            assert memory.free(address, where)
        n, arrays = memory.native_table()
        assert n == len(memory.allocs)
        seen = arrays[:, :n].copy()
        seen[2, seen[0] == seen[1]] = 0   # no address is inside a freed (or empty) allocation
        want = expected_rows(memory)
        want[2, want[0] == want[1]] = 0
        assert np.array_equal(seen, want)
        assert memory.native_addresses() == tuple(row.ctypes.data for row in arrays)


MIXED = r"""#include <stdio.h>
#include <stdlib.h>
__global__ void add(int *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; __shared__ int s[64];
  s[threadIdx.x] = i; __syncthreads(); if (i < n) a[i] += s[threadIdx.x]; }
int main() {
  int *keep[40]; int *h[40];
  for (int i = 0; i < 40; i++) { cudaMalloc(&keep[i], 64 * sizeof(int)); h[i] = (int *)malloc(64 * sizeof(int));
    cudaMemset(keep[i], 0, 64 * sizeof(int)); if (i % 3 == 0) { cudaFree(keep[i]); free(h[i]); keep[i] = 0; } }
  long total = 0;
  for (int i = 0; i < 40; i++) if (keep[i]) { add<<<1, 64>>>(keep[i], 64); cudaMemcpy(h[i], keep[i], 64 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int j = 0; j < 64; j++) total += h[i][j]; }
  int *late; cudaMalloc(&late, 64 * sizeof(int)); cudaMemset(late, 0, 64 * sizeof(int)); add<<<1, 64>>>(late, 64);
  printf("%ld %s\n", total, cudaGetErrorString(cudaDeviceSynchronize())); }
"""


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_kernels_see_allocations_made_and_freed_between_launches(tmp_path, engine):
    path = tmp_path / "mixed.cu"
    path.write_text(MIXED)
    r = subprocess.run(["minicuda", "run", "--engine", engine, str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{26 * sum(range(64))} no error\n"


MANY = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) { int n = atoi(argv[1]); int **p = (int **)malloc(n * sizeof(int *));
  for (int i = 0; i < n; i++) cudaMalloc(&p[i], 16);
  for (int i = 0; i < n; i++) cudaFree(p[i]);
  for (int i = 0; i < n; i++) { int *q = (int *)malloc(64); q[0] = i; free(q); }
  printf("ok\n"); return 0; }
"""


@pytest.mark.slow
def test_twenty_thousand_allocations_take_seconds_not_minutes(tmp_path):
    path = tmp_path / "many.cu"
    path.write_text(MANY)
    start = time.perf_counter()
    r = subprocess.run(["minicuda", "run", str(path), "20000"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr
    assert time.perf_counter() - start < 60   # a table rebuilt per call took about 25 minutes

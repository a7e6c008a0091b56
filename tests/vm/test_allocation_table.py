"""The allocation table: kept entry by entry (vm/memory.py), its native arrays always
what the allocations say, and read by the JIT without a rebuild per call, so
allocation and free cost the same at the 100,000th call as at the first."""
import subprocess
import time

import numpy as np
import pytest
from hypothesis import given, strategies as st

from minicuda.vm.memory import DEVICE, HOST, READ_ONLY, Memory
from minicuda.vm.tools import InitShadow

SPACES = ["global", "host", "static", "constant", "stack", "string", "pinned"]


def expected_rows(memory: Memory, side: str) -> np.ndarray:
    """Base, end, host pointer, end for stores and initcheck flags of each allocation as
    code on `side` sees it: nothing is inside one that is freed or out of the side's
    reach, and stores into a read-only one find nothing (a freed one's storage is gone: 0;
    an allocation initcheck does not track has no flags: 0)."""
    rows = []
    for a in memory.allocs:
        end = a.base if a.freed or not a.reached_from(side) else a.base + a.size
        flags = 0 if a.freed or a.init_flags is None else a.init_flags.ctypes.data
        rows.append((a.base, end, 0 if a.freed else a.data.ctypes.data, a.base if a.space in READ_ONLY else end, flags))
    return np.array(rows, dtype=np.uint64).T.reshape(5, -1)


@given(st.lists(st.tuples(st.sampled_from(["alloc", "free"]), st.sampled_from(SPACES), st.integers(0, 300),
                          st.integers(0, 10**6)), max_size=120))
def test_native_table_follows_every_change(steps):
    memory = Memory(limit=1 << 30)
    memory.shadow = InitShadow()   # (cudaMalloc's allocations have initcheck flags)
    live = []
    for action, space, size, pick in steps:
        if action == "alloc" or not live:
            name = "cudaMalloc" if space == "global" and pick % 2 else ""
            live.append((memory.alloc(size, space, name, align=16), space))
        else:
            address, where = live.pop(pick % len(live))
            assert memory.free(address, where)
        for side in (HOST, DEVICE):
            n, arrays = memory.native_table(side)
            assert n == len(memory.allocs)
            seen = arrays[:, :n].copy()
            want = expected_rows(memory, side)
            for got in (seen, want):   # a freed (or empty) allocation's pointer is never used
                got[2, [a.freed or a.size == 0 for a in memory.allocs]] = 0
            assert np.array_equal(seen, want)
            rows = memory.side_rows(side)
            assert memory.native_addresses(side) == tuple(memory.arrays[r].ctypes.data for r in rows)


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

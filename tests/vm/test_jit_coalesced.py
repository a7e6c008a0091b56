"""The JIT's coalesced-access fast path (one masked vector load or store when a warp's
active lanes touch consecutive elements) against its specification, the interpreter:
full warps, partial warps (a guard, the grid's ragged end) and accesses that are not
coalesced (a permutation, a stride, lanes reading one address) give the same memory,
the same results and the same metrics, at every access width."""
import numpy as np
import pytest

import minicuda
from minicuda.vm.launcher import Device

ACCESSES = """
__global__ void widths(const int *a, int *b, unsigned char *c, short *d, long long *e, int n, int step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {                                  // the last block's last warp is partial
        int x = a[i];                              // coalesced loads and stores of each width
        b[i] = x + 1;
        c[i] = (unsigned char)(x * 3);
        d[i] = (short)(x - 7);
        e[i] = (long long)x * 100003;
        if (i % 3 == 0)                            // a partial mask, still consecutive lanes apart
            b[i] += a[n - 1 - i];
        int j = (int)(((long long)i * step) % n);  // a permutation: a gather and a scatter
        d[j] += (short)c[i];
        if (threadIdx.x & 1)                       // every other lane: a strided store
            e[i] -= a[(i / 32) * 32];              // lanes of a warp read one address
    }
}
"""
SHARED = """
__global__ void rotate(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : -1.0f;       // a full store into shared memory
    __syncthreads();
    if (threadIdx.x < 100)                         // a partial warp reads consecutive words
        s[threadIdx.x] += s[threadIdx.x + 1];
    __syncthreads();
    if (i < n)
        out[i] = s[(threadIdx.x * 5) % blockDim.x] + s[threadIdx.x];
}
"""


def launch_both(source: str, arch: str, kernel: str, grid: int, block: int, make_args):
    module = minicuda.compile(source, arch=arch, opt=3)
    runs = []
    for engine in ("interp", "jit"):
        args = make_args()
        metrics = Device(module, engine=engine).launch(kernel, grid, block, *args)
        runs.append(([a.copy() for a in args if isinstance(a, np.ndarray)], metrics.as_dict()))
    return runs


@pytest.mark.parametrize("arch", ["pascal", "volta"])
@pytest.mark.parametrize("n", [1024, 1000, 37])
def test_accesses_of_every_width_agree_with_the_interpreter(arch, n):
    def make_args():
        a = ((np.arange(n, dtype=np.int64) * 7919) % 1013 - 500).astype(np.int32)
        return [a, np.zeros(n, np.int32), np.zeros(n, np.uint8), np.full(n, 5, np.int16),
                np.zeros(n, np.int64), np.int32(n), np.int32(7)]
    (interp_mem, interp_metrics), (jit_mem, jit_metrics) = launch_both(ACCESSES, arch, "widths", -(-n // 128), 128,
                                                                         make_args)
    assert jit_metrics == interp_metrics
    for want, got in zip(interp_mem, jit_mem):
        assert got.tobytes() == want.tobytes()
    a = interp_mem[0]
    assert list(interp_mem[1][:4]) == [a[0] + 1 + a[n - 1], a[1] + 1, a[2] + 1, a[3] + 1 + a[n - 4]]


@pytest.mark.parametrize("arch", ["pascal", "volta"])
def test_shared_memory_with_full_and_partial_warps_agrees_with_the_interpreter(arch):
    n = 700

    def make_args():
        return [np.linspace(-3, 3, n, dtype=np.float32), np.zeros(n, np.float32), np.int32(n)]
    (interp_mem, interp_metrics), (jit_mem, jit_metrics) = launch_both(SHARED, arch, "rotate", 3, 256, make_args)
    assert jit_metrics == interp_metrics
    assert jit_mem[1].tobytes() == interp_mem[1].tobytes()
    assert interp_metrics["warp_execution_efficiency"] < 100   # the partial warps did run


def test_a_coalesced_store_out_of_bounds_is_reported_as_the_interpreter_reports_it():
    source = "__global__ void over(int *b) { b[threadIdx.x + 8] = 1; }"
    module = minicuda.compile(source, arch="volta", opt=3)
    messages = []
    for engine in ("interp", "jit"):
        with pytest.raises(Exception) as info:
            Device(module, engine=engine).launch("over", 1, 32, np.zeros(32, np.int32))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "cudaErrorIllegalAddress" in messages[0] or "out of bounds" in messages[0].lower()

"""The reference interpreter: warps under the stack model and under ITS, against the H200."""
import numpy as np
import pytest

import minicuda
from helpers import GROUNDTRUTH, SAMPLES, h200_divergent_per_warp
from minicuda.vm.errors import VMError
from minicuda.vm.launcher import Device

WARPLOCK = next(p for p in SAMPLES if p.name == "warpLock.cu")

# divergent branches per warp measured on an H200 at -G (tests/data/groundtruth/h200_seed_kernels.tsv):
# mathKernel1 1, mathKernel2 0, mathKernel3 2, mathKernel4 0, addSubDivergent 1, addSubNoDivergence 0
H200_DIVERGENT_PER_WARP_AT_G = h200_divergent_per_warp("G")


def run_seed(device, kernel):
    if kernel.startswith("mathKernel"):
        c = np.zeros(64, np.float32)
        m = device.launch(kernel, 1, 64, c)
        return m, c
    n = 1 << 11
    a, b, c = np.arange(n, dtype=np.int32), np.full(n, 3, np.int32), np.zeros(n, np.int32)
    m = device.launch(kernel, n // 256, 256, a, b, c, n)
    return m, c


@pytest.mark.parametrize("arch", ["sm_60", "sm_90"])
@pytest.mark.parametrize("kernel", sorted(H200_DIVERGENT_PER_WARP_AT_G))
def test_divergent_branches_per_warp_at_O0_match_the_h200(kernel, arch, compile_once):
    device = Device(compile_once(GROUNDTRUTH, arch=arch, opt=0))
    m, c = run_seed(device, kernel)
    warps = (m.grid[0] * m.block[0]) // 32
    assert m.divergent_branch == H200_DIVERGENT_PER_WARP_AT_G[kernel] * warps
    assert m.branch > 0 and m.branch_efficiency <= 100.0


@pytest.mark.parametrize("arch", ["sm_60", "sm_90"])
def test_no_divergent_branch_at_O3_and_the_results_are_right(arch, compile_once):
    device = Device(compile_once(GROUNDTRUTH, arch=arch, opt=3))
    tid = np.arange(64)
    expect = {"mathKernel1": np.where(tid % 2 == 0, 100, 200), "mathKernel2": np.where((tid // 32) % 2 == 0, 100, 200),
              "mathKernel3": np.where(tid % 2 == 0, 100, 200), "mathKernel4": np.full(64, 200)}
    for kernel, want in expect.items():
        m, c = run_seed(device, kernel)
        assert m.divergent_branch == 0 and m.warp_execution_efficiency == 100.0
        assert np.array_equal(c, want.astype(np.float32))
    m, c = run_seed(device, "addSubDivergent")
    i = np.arange(len(c))
    assert m.divergent_branch == 0 and np.array_equal(c, np.where(i % 2 == 0, i + 3, i - 3))


def test_stack_and_its_give_identical_memory_for_race_free_kernels(compile_once):
    for opt in (0, 3):
        results = []
        for arch in ("sm_60", "sm_90"):
            device = Device(compile_once(GROUNDTRUTH, arch=arch, opt=opt))
            results.append([run_seed(device, k)[1].tobytes() for k in sorted(H200_DIVERGENT_PER_WARP_AT_G)])
        assert results[0] == results[1]


def test_intra_warp_lock_deadlocks_under_the_stack_and_completes_under_its():
    lock, counter = np.zeros(1, np.int32), np.zeros(1, np.int32)
    with pytest.raises(VMError) as e:
        Device(minicuda.compile(str(WARPLOCK), arch="pascal")).launch("spinThenEnterCounter", 1, 32, lock, counter)
    assert e.value.kind == "deadlock" and "independent thread scheduling" in str(e.value)
    assert e.value.loc.line > 0
    lock[:], counter[:] = 0, 0
    Device(minicuda.compile(str(WARPLOCK), arch="volta")).launch("spinThenEnterCounter", 1, 32, lock, counter)
    assert counter[0] == 32 and lock[0] == 0


def test_an_out_of_bounds_store_names_kernel_block_thread_address_allocation_and_line():
    src = "__global__ void k(int *p, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  p[i] = i;\n}\n"
    device = Device(minicuda.compile(src, arch="sm_90"))
    with pytest.raises(VMError) as e:
        device.launch("k", 2, 64, np.zeros(100, np.int32), 100)
    msg = str(e.value)
    assert "cudaErrorIllegalAddress" in msg and "kernel 'k'" in msg
    assert "block (1, 0, 0), thread (36, 0, 0)" in msg and "p (int32[100])" in msg
    assert e.value.loc.line == 3


def test_barrier_and_shared_memory_reduction():
    src = """__global__ void sum(int *in, int *out) {
  __shared__ int s[128];
  unsigned int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}"""
    for arch in ("sm_60", "sm_90"):
        device = Device(minicuda.compile(src, arch=arch))
        data = np.arange(512, dtype=np.int32)
        out = np.zeros(4, np.int32)
        m = device.launch("sum", 4, 128, data, out)
        assert list(out) == [int(x) for x in data.reshape(4, 128).sum(axis=1)]
        assert m.barriers > 0


def test_shuffles_votes_and_syncwarp_under_both_models():
    src = """__global__ void k(int *out) {
  int v = threadIdx.x;
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  unsigned int b = __ballot_sync(0xffffffff, threadIdx.x % 3 == 0);
  int any = __any_sync(0xffffffff, threadIdx.x == 5);
  int all = __all_sync(0xffffffff, threadIdx.x < 16);
  int x = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 1);
  int up = __shfl_up_sync(0xffffffff, (int)threadIdx.x, 2, 8);
  __syncwarp();
  if (threadIdx.x == 0) { out[0] = v; out[1] = b; out[2] = any; out[3] = all; }
  if (threadIdx.x == 3) { out[4] = x; }
  if (threadIdx.x == 9) { out[5] = up; }
  if (threadIdx.x == 17) { out[6] = __shfl_sync(0xffffffff, v, 0); }
}"""
    for arch in ("sm_60", "sm_90"):
        out = np.zeros(7, np.uint32)
        Device(minicuda.compile(src, arch=arch)).launch("k", 1, 32, out)
        ballot = sum(1 << i for i in range(32) if i % 3 == 0)
        assert list(out[:6]) == [496, ballot, 1, 0, 2, 9]  # lane 9 in its 8-wide segment: 9 - 2 < 8, so its own


def test_numba_style_launch_from_python():
    program = minicuda.compile(str(GROUNDTRUTH), arch="sm_90", opt=0)
    c = np.zeros(64, np.float32)
    stats = program.mathKernel1[1, 64](c)
    assert stats.divergent_branch == 2 and c[0] == 100.0 and c[1] == 200.0
    with pytest.raises(AttributeError):
        program.noSuchKernel

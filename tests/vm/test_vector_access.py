"""64- and 128-bit vector accesses (LDG.64/.128, STG, LDS, STS): one instruction per access
on both engines, every byte bounds-checked, and a misaligned one reported as CUDA reports it."""
import numpy as np
import pytest

import minicuda
from minicuda.vm.errors import VMError
from minicuda.vm.launcher import Device

COPY4 = """__global__ void copy4(const float4 *in, float4 *out, int offset) {
  out[threadIdx.x] = in[threadIdx.x + offset];
}
"""
SHARED2 = """__global__ void rotate(const int2 *in, int2 *out) {
  __shared__ int2 s[32];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}
"""
ENGINES = ["interp", "jit"]


def kernel_instructions(module, name: str) -> int:
    return sum(len(b.instrs) for b in module.functions[name].blocks)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_float4_copy_is_one_load_and_one_store_each_counted_once(engine):
    module = minicuda.compile(COPY4, arch="sm_90", opt=3)
    ops = [(i.op, i.mods[:1]) for b in module.functions["copy4"].blocks for i in b.instrs if i.info.kind == "mem"]
    assert ops == [("LDG", ("128",)), ("STG", ("128",))]
    data = np.arange(128, dtype=np.float32)
    out = np.zeros(128, np.float32)
    m = Device(module, engine=engine).launch("copy4", 1, 32, data, out, 0)
    assert list(out) == list(data)
    assert m.inst_executed == kernel_instructions(module, "copy4")   # one warp, no branch


@pytest.mark.parametrize("engine", ENGINES)
def test_int2_through_shared_memory_is_lds64_and_sts64(engine):
    module = minicuda.compile(SHARED2, arch="sm_90", opt=3)
    ops = [(i.op, i.mods[:1]) for b in module.functions["rotate"].blocks for i in b.instrs if i.info.kind == "mem"]
    assert ops == [("LDG", ("64",)), ("STS", ("64",)), ("LDS", ("64",)), ("STG", ("64",))]
    data = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    Device(module, engine=engine).launch("rotate", 1, 32, data, out)
    assert list(out) == list(np.roll(data.reshape(32, 2), -1, axis=0).ravel())


@pytest.mark.parametrize("engine", ENGINES)
def test_a_vector_load_past_the_end_by_some_of_its_bytes_faults(engine):
    module = minicuda.compile(COPY4, arch="sm_90", opt=3)
    data = np.zeros(30, np.float32)   # 120 bytes: the 8th float4 (112..127) is partly outside
    with pytest.raises(VMError) as e:
        Device(module, engine=engine).launch("copy4", 1, 8, data, np.zeros(32, np.float32), 0)
    msg = str(e.value)
    assert "cudaErrorIllegalAddress" in msg and "load of 16 bytes" in msg and "thread (7, 0, 0)" in msg


@pytest.mark.parametrize("engine", ENGINES)
def test_a_misaligned_vector_store_is_cudas_misaligned_address(engine):
    src = """__global__ void put(float *base) {
  float4 *p = (float4 *)(base + 2);
  p[threadIdx.x] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
}
"""
    module = minicuda.compile(src, arch="sm_90", opt=3)
    with pytest.raises(VMError) as e:
        Device(module, engine=engine).launch("put", 1, 4, np.zeros(64, np.float32))
    msg = str(e.value)
    assert "cudaErrorMisalignedAddress: misaligned address" in msg and "store of 16 bytes" in msg


@pytest.mark.parametrize("engine", ENGINES)
def test_an_int4_local_stays_aligned_in_every_threads_frame_after_inlining(engine):
    """An inlined callee's 12-byte array made the kernel's frame 28 bytes: thread 1's int4 was
    at 28, and its STL.128 faulted (each thread's frame now starts 16-aligned)."""
    src = """__device__ int pick(int i) { int a[3] = {i, i + 1, i + 2}; return a[i % 3]; }
__global__ void k(const int4 *in, int *out) {
  int4 q = in[threadIdx.x];
  out[threadIdx.x] = q.x + q.w + pick(threadIdx.x);
}
"""
    module = minicuda.compile(src, arch="sm_90", opt=3)
    assert module.functions["k"].local_bytes % 16
    data = np.arange(16, dtype=np.int32)
    out = np.zeros(4, np.int32)
    Device(module, engine=engine).launch("k", 1, 4, data, out)
    assert list(out) == [4 * t + (4 * t + 3) + t + t % 3 for t in range(4)]

"""The JIT's memory counters (vm/jit/memlog.py) equal the interpreter's (vm/memcounters.py)
launch by launch and instruction by instruction: strided, offset and AoS accesses, tiles
read by columns, 64- and 128-bit accesses to global and shared memory, local memory,
partially active warps, both scheduling models, blocks spread over workers, and a log too
small for a block (its accesses then counted by the interpreter in the hand-off).  With
the timing model, the load round trips and arithmetic chains too (vm/jit/rounds.py)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minicuda
from minicuda.vm.jit import engine as engine_module, memlog
from minicuda.vm.launcher import Device
from minicuda.vm.memcounters import count_access
from minicuda.vm.memory import SPACE_BASE
from minicuda.vm.metrics import LaunchMetrics
from helpers.kernels import statements
from helpers.memory_kernels import LOAD_ROUNDS as ROUND_KERNELS, STRIDED

KERNELS = STRIDED + """
__global__ void wide(const double *d, const float2 *f2, const float4 *f4, double *out, int stride) {
  __shared__ double sd[256];
  __shared__ float4 s4[128];
  int t = threadIdx.x;
  sd[(t * stride) % 256] = d[t * stride];
  s4[(t * stride) % 128] = f4[t];
  __syncthreads();
  float2 a = f2[(t * stride) % 64];
  float4 b = s4[(t * stride + 1) % 128];
  out[t] = sd[(t * 2) % 256] + a.x + a.y + b.x + b.w;
}
__global__ void partial(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) out[i] = in[i] + in[0] + in[(i * 7) % n];
}
"""


@pytest.fixture(scope="module", params=["sm_90", "sm_61"])
def module(request):
    return minicuda.compile(KERNELS, arch=request.param, opt=3)


def both(module, kernel, grid, block, *args, jobs=None, rounds=False):
    """The launch's metrics (as_dict) on each engine, and what each wrote."""
    out = []
    for engine in ("interp", "jit"):
        device = Device(module, engine=engine, jobs=jobs, memory_counters=True, timing_model=rounds)
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        m = device.launch(kernel, grid, block, *copies)
        assert type(device.machine.kernel_engine).__name__ == ("JitEngine" if engine == "jit" else "InterpEngine")
        out.append((m.as_dict(), [a for a in copies if isinstance(a, np.ndarray)]))
    (interp, wrote_i), (jit, wrote_j) = out
    assert interp["global_ld_requests"] + interp["shared_ld_requests"] + interp["local_ld_requests"] > 0
    assert ("alu_chain" in interp) == rounds
    for name in interp:
        assert jit[name] == interp[name], name
    assert all(np.array_equal(a, b) for a, b in zip(wrote_i, wrote_j))
    return jit


@pytest.mark.parametrize("stride, offset", [(1, 0), (2, 0), (8, 0), (1, 1), (1, 8), (3, 5)])
def test_strided_and_offset_copies(module, stride, offset):
    m = both(module, "strided", 4, 64, np.arange(256 * 8 + 16, dtype=np.float32), np.zeros(256, np.float32),
             stride, offset)
    assert m["global_ld_requests"] == 8


def test_an_array_of_structures(module):
    m = both(module, "aos", 1, 64, np.arange(128, dtype=np.float32))
    assert m["global_st_bytes"] * 2 == m["global_st_sectors"] * 32   # 50% efficient


@pytest.mark.parametrize("pad", [0, 1])
def test_a_tile_read_by_columns(module, pad):
    m = both(module, "tile", 2, (32, 32), np.zeros(1024, np.float32), pad)
    assert m["shared_ld_sectors"] - m["shared_ld_groups"] == (0 if pad else 2 * 32 * 31)


@pytest.mark.parametrize("stride", [1, 2, 3, 16])
def test_64_and_128_bit_accesses(module, stride):
    both(module, "wide", 1, 64, np.arange(64 * 16, dtype=np.float64), np.arange(128, dtype=np.float32),
         np.arange(64 * 4, dtype=np.float32), np.zeros(64, np.float64), stride)


def test_partially_active_warps(module):
    m = both(module, "partial", 3, 48, np.arange(130, dtype=np.int32), np.zeros(130, np.int32), 130)
    assert m["global_ld_bytes"] < 32 * 4 * m["global_ld_requests"]


def test_local_memory(module):
    both(module, "local_pick", 1, 64, (np.arange(64, dtype=np.int32) * 5), np.zeros(64, np.float32))


def test_blocks_spread_over_workers_and_a_log_too_small_for_a_block(module, monkeypatch):
    both(module, "tile", 6, (32, 32), np.zeros(1024, np.float32), 0, jobs=2)
    monkeypatch.setattr(memlog, "LOG_RECORDS", 5)   # most accesses find the log full
    both(module, "strided", 8, 64, np.arange(1024, dtype=np.float32), np.zeros(512, np.float32), 2, 0, jobs=2)
    both(module, "local_pick", 2, 32, np.arange(64, dtype=np.int32), np.zeros(64, np.float32))


ROUNDS = """__global__ void staged_chain(const float *a, float *out, int n) {
  __shared__ float t[64];
  t[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + 32];
  __syncthreads();
  double d = t[31 - threadIdx.x];
  for (int k = 0; k < n; k++) d = d * 1.5 + k / (threadIdx.x + 1);
  out[threadIdx.x] = d + a[threadIdx.x + 64];
}
"""


@pytest.mark.parametrize("arch", ["sm_90", "sm_61"])
def test_load_round_trips_and_chains(arch, monkeypatch):
    module = minicuda.compile(KERNELS + ROUNDS + ROUND_KERNELS, arch=arch, opt=3)
    both(module, "sum_rows", 2, 32, np.ones(32 * 40, np.float32), np.zeros(32, np.float32), 37, rounds=True)
    both(module, "chase", 2, 48, np.arange(1, 97, dtype=np.int32) % 96, np.zeros(96, np.int32), 9, rounds=True)
    both(module, "staged_chain", 3, 32, np.ones(96, np.float32), np.zeros(32, np.float32), 5, rounds=True, jobs=2)
    both(module, "tile", 2, (32, 32), np.zeros(1024, np.float32), 1, rounds=True)
    both(module, "partial", 3, 48, np.arange(130, dtype=np.int32), np.zeros(130, np.int32), 130, rounds=True)
    both(module, "local_pick", 1, 64, np.arange(64, dtype=np.int32), np.zeros(64, np.float32), rounds=True)
    monkeypatch.setattr(memlog, "LOG_RECORDS", 5)   # hand-offs step the state native code keeps
    both(module, "sum_rows", 1, 32, np.ones(32 * 40, np.float32), np.zeros(32, np.float32), 20, rounds=True)
    both(module, "staged_chain", 2, 32, np.ones(96, np.float32), np.zeros(32, np.float32), 3, rounds=True)


def test_the_log_counts_single_accesses_as_count_access_does():
    """Random accesses of every width to each space, some lanes off: the log's records,
    counted at once, give count_access's counts, one by one."""
    rng = np.random.default_rng(7)
    sites = [(size, op, f"a.cu:{k}:1 X") for k, (size, op) in
             enumerate((s, op) for s in (1, 2, 4, 8, 16) for op in ("ld", "st"))]
    records, expected, frame = [], LaunchMetrics("k", (1, 1, 1), (32, 1, 1), "sm_90", "its", counted_memory=True), \
        np.uint64(SPACE_BASE["local"]) + np.arange(32, dtype=np.uint64) * np.uint64(64)
    for k in range(600):
        pc = int(rng.integers(len(sites)))
        size, op, site = sites[pc]
        space = ("global", "shared", "local")[k % 3]
        lanes = rng.random(32) < rng.choice([0.2, 0.7, 1.0])
        lanes[int(rng.integers(32))] = True
        spread = int(rng.choice([1, 2, 4, 32, 1024]))
        elements = rng.integers(0, spread, 32).astype(np.uint64) if k % 5 else np.arange(32, dtype=np.uint64)
        if space == "local":
            addresses = frame + (elements % np.uint64(16)) * np.uint64(max(size, 4))
        else:
            base = SPACE_BASE["shared"] if space == "shared" else 1 << 30
            addresses = np.uint64(base) + elements * np.uint64(size)
        mask = int(np.dot(lanes.astype(np.int64), 1 << np.arange(32, dtype=np.int64)))
        header = int(np.uint64(pc | (mask << 32)).astype(np.int64))
        records.append([header, 0, int(space == "local")] + list(addresses.view(np.int64)))
        if space == "local":
            records.append([-1, 0, memlog.FRAMES] + list(frame.view(np.int64)))
        count_access(expected, addresses, frame, {1: "U8", 2: "U16", 4: "32", 8: "64", 16: "128"}[size],
                     lanes, op, site)
    got = LaunchMetrics("k", (1, 1, 1), (32, 1, 1), "sm_90", "its", counted_memory=True)
    pairs = memlog.count_records(got, np.array(records, np.int64), sites)   # one block's loads
    got.global_ld_block_sectors = len(np.unique(np.concatenate(pairs), axis=0))
    for name in ("global_ld_sectors", "shared_st_sectors", "local_ld_sectors", "global_lines", "global_footprint"):
        assert getattr(got, name) == getattr(expected, name) > 0, name
    assert got.as_dict() == expected.as_dict()


CALLS = """__device__ __noinline__ float pick(const float *in, int i) { return in[i * 2] + in[i + 1]; }
__global__ void k(const float *in, float *out) { float a = in[threadIdx.x + 64]; out[threadIdx.x] = pick(in, threadIdx.x) + a; }
__device__ __noinline__ float step(const float *in, float *tile, int i, int k) {
  tile[(i * k) % 64] = in[(i * 3 + k) % 160];
  float s = tile[(i + k) % 64] + pick(in, (i + k) % 48);
  float spill[4];
  for (int j = 0; j < 4; j++) spill[j] = in[(i + j * 32) % 160];
  return s + spill[(i + k) & 3];
}
__global__ void looped(const float *in, float *out, int n) {
  __shared__ float tile[64];
  float s = 0.0f;
  for (int k = 0; k < n; k++) {
    s += step(in, tile, threadIdx.x, k);
    if (threadIdx.x % 3 == 0) s += pick(in, threadIdx.x + k);   // a call under divergence
  }
  out[threadIdx.x] = s;
}
"""


@pytest.mark.parametrize("sched", ["stack", "its"])
def test_called_device_functions_count_natively_as_on_the_interpreter(sched, monkeypatch):
    """A kernel's calls (-O0 keeps them): the callees run natively with the counters and
    count what the interpreter counts, field for field (a callee's global and shared
    accesses and its frame's array, calls in a loop, a call under divergence, a callee calling another), with the
    round trips and chains; and with a callee's log too small, its hand-offs too."""
    arch = "sm_90" if sched == "its" else "sm_61"
    module = minicuda.compile(CALLS, arch=arch, opt=0)
    m = both(module, "k", 1, 64, np.zeros(160, np.float32), np.zeros(64, np.float32), rounds=True)
    assert m["global_ld_requests"] == 6 and m["global_ld_rounds"] > 2
    device = Device(module, engine="jit", memory_counters=True, timing_model=True)
    device.launch("looped", 2, 64, np.arange(160, dtype=np.float32), np.zeros(64, np.float32), 3)
    logged = device.machine.kernel_engine.call_logs
    assert {code.fn.name for code in logged} >= {"step", "pick"}   # the callees ran natively
    inputs = (np.arange(160, dtype=np.float32), np.zeros(64, np.float32), 3)
    m = both(module, "looped", 2, 64, *inputs, rounds=True, jobs=2)
    assert m["shared_ld_requests"] > 0 and m["global_ld_rounds"] > 0 and m["alu_chain"] > 0
    monkeypatch.setattr(engine_module, "CALL_LOG_RECORDS", 3)   # most of a callee's accesses hand over
    both(module, "looped", 1, 64, *inputs, rounds=True)


MEMORY_OPS = ["a += in[(t * {k}) % 96];", "b ^= in[(a & 63) + {k}];", "out[(t * {k}) % 80] = b;",
              "s[(threadIdx.x * {k}) % 64] = a; __syncthreads(); b += s[threadIdx.x % 64]; __syncthreads();",
              "if (t % {k} == 0) a += in[t + {k}];", "for (int i = 0; i < {k}; i++) b += in[(b & 31) + i];"]


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.lists(statements(), min_size=1, max_size=3),
       extra=st.lists(st.tuples(st.sampled_from(MEMORY_OPS), st.integers(1, 9)), min_size=1, max_size=4))
def test_generated_kernels_count_alike(body, extra):
    """Generated kernels with loads and stores at data-dependent addresses, in branches and
    loops, and shared memory with barriers: every counter and round trip alike, both models."""
    lines = body + [op.format(k=k) for op, k in extra]
    src = ("__global__ void k(const int *in, int *out, int n) {\n  __shared__ int s[64];\n"
           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  int a = t, b = n - t;\n  "
           + "\n  ".join(lines) + "\n  out[t] += a ^ (b << 1);\n}\n")
    for arch in ("sm_61", "sm_90"):
        both(minicuda.compile(src, arch=arch, opt=3), "k", 2, 40, np.arange(128, dtype=np.int32),
             np.zeros(80, np.int32), 77, jobs=2, rounds=True)

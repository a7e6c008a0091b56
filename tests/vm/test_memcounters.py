"""The memory counters (vm/memcounters.py): the rules measured on an H100, on small kernels
and on single accesses, and the engine a counting Device runs kernels on."""
import numpy as np
import pytest

import minicuda
from minicuda.vm.launcher import Device
from minicuda.vm.memcounters import global_sectors, local_sectors, shared_wavefronts
from minicuda.vm.memory import SPACE_BASE
from helpers.memory_kernels import STRIDED

LANES = np.arange(32)
SHARED = SPACE_BASE["shared"]



@pytest.fixture(scope="module")
def module():
    return minicuda.compile(STRIDED, arch="sm_90", opt=3)


def counting(module, engine="jit"):
    return Device(module, engine=engine, memory_counters=True)


@pytest.mark.parametrize("stride, efficiency", [(1, 100.0), (2, 50.0), (4, 25.0), (8, 12.5)])
def test_a_strided_float_copy_loads_at_the_gpus_efficiency(module, stride, efficiency):
    m = counting(module).launch("strided", 2, 64, np.zeros(128 * 8, np.float32), np.zeros(128, np.float32),
                                stride, 0)
    assert m.global_ld_requests == 4 and m.efficiency("global", "ld") == efficiency
    assert m.per_request("global", "ld") == 4 * stride and m.efficiency("global", "st") == 100.0


def test_an_offset_of_one_float_touches_five_sectors(module):
    m = counting(module).launch("strided", 1, 32, np.zeros(64, np.float32), np.zeros(32, np.float32), 1, 1)
    assert (m.global_ld_sectors, m.efficiency("global", "ld")) == (5, 80.0)


def test_an_array_of_structures_is_half_efficient(module):
    m = counting(module).launch("aos", 1, 32, np.zeros(64, np.float32))
    assert m.efficiency("global", "ld") == m.efficiency("global", "st") == 50.0


@pytest.mark.parametrize("pad, conflicts", [(0, 31), (1, 0)])
def test_a_tile_read_by_columns_conflicts_31_ways_unless_padded(module, pad, conflicts):
    m = counting(module).launch("tile", 1, (32, 32), np.zeros(1024, np.float32), pad)
    assert m.shared_ld_requests == 32 and m.bank_conflicts("ld") == 32 * conflicts
    assert m.bank_conflicts("st") == 0


@pytest.mark.parametrize("stride", [1, 2, 4, 8, 16, 32])
def test_a_shared_stride_of_n_words_costs_n_minus_one_wavefronts(module, stride):
    m = counting(module).launch("stride_words", 1, 32, np.zeros(32, np.float32), stride)
    assert m.shared_ld_sectors == stride and m.bank_conflicts("ld") == stride - 1


def test_local_memory_is_counted_as_the_hardware_interleaves_it(module):
    m = counting(module).launch("local_pick", 1, 32, np.arange(32, dtype=np.int32), np.zeros(32, np.float32))
    assert m.local_st_requests == 8 and m.local_st_sectors == 32     # 4 sectors per same-offset store
    assert m.local_ld_requests == 1 and m.local_ld_sectors == 32     # 32 lanes, 8 offsets: 8 words x 4 sectors


def test_both_engines_count_the_same_and_a_plain_device_counts_nothing(module):
    args = (np.zeros(64 * 8 + 8, np.float32), np.zeros(128, np.float32), 2, 0)
    jit, interp = (counting(module, e).launch("strided", 2, 64, *args) for e in ("jit", "interp"))
    assert jit.as_dict() == interp.as_dict() and jit.global_ld_sectors == 32
    plain = Device(module).launch("strided", 2, 64, *args)
    assert not plain.counted_memory and plain.global_ld_sectors == 0 and "global_ld_sectors" not in plain.as_dict()


def test_vector_shared_accesses_are_served_by_half_and_quarter_warps():
    def wavefronts(elements, size):
        return shared_wavefronts(np.uint64(SHARED) + np.asarray(elements, np.uint64) * np.uint64(size), LANES, size)
    assert wavefronts(LANES, 8) == (2, 2) and wavefronts(LANES, 16) == (4, 4)
    assert wavefronts(LANES % 16, 8) == (2, 2) and wavefronts(LANES % 8, 16) == (4, 4)
    assert wavefronts(LANES * 0, 8) == (1, 1) and wavefronts(LANES * 0, 16) == (2, 2)
    assert wavefronts(LANES * 2 % 64, 8) == (4, 2) and wavefronts(LANES * 2 % 64, 16) == (8, 4)
    # each half-warp, each quarter-warp, each pair of lanes one element; lanes 0-15 one, the rest their own
    for elements in (LANES // 16, LANES // 8, LANES // 2):
        assert wavefronts(elements, 8) == (1, 1) and wavefronts(elements, 16) == (2, 2)
    assert wavefronts(np.where(LANES < 16, 0, LANES), 8) == (2, 2)
    assert wavefronts(np.where(LANES < 16, 0, LANES), 16) == (4, 4)


def test_sectors_of_single_accesses():
    base = np.uint64(1 << 20)
    assert global_sectors(base + np.zeros(32, np.uint64), 4) == 1                   # a broadcast
    assert global_sectors(base + LANES.astype(np.uint64) * np.uint64(16), 16) == 16  # a float4 warp
    assert local_sectors(np.zeros(32, np.uint64), LANES, 8) == 8                     # two words per lane


def test_each_instruction_has_its_own_counts(module):
    m = counting(module).launch("tile", 1, (32, 32), np.zeros(1024, np.float32), 0)
    rows = m.site_rows()
    assert [(r["space"], r["op"], r["site"].split()[-1]) for r in rows] == [
        ("shared", "st", "STS"), ("global", "st", "STG"), ("shared", "ld", "LDS")]
    assert [r["site"].split(":")[1] for r in rows] == ["10", "12", "12"]   # tile's lines in STRIDED
    assert rows[2]["requests"] == 32 and rows[2]["bank_conflicts"] == 32 * 31
    assert m.as_dict()["memory_per_instruction"] == rows


def test_a_called_functions_accesses_count_for_the_launch():
    module = minicuda.compile("""__device__ __noinline__ float pick(const float *in, int i) { return in[i * 2]; }
__global__ void k(const float *in, float *out) { out[threadIdx.x] = pick(in, threadIdx.x); }
""", arch="sm_90", opt=0)   # -O0 keeps the call
    assert any(i.op == "CALL" for b in module.functions["k"].blocks for i in b.instrs)
    m = counting(module).launch("k", 1, 64, np.zeros(128, np.float32), np.zeros(64, np.float32))
    assert (m.global_ld_requests, m.global_ld_sectors, m.global_st_sectors) == (2, 16, 8)


def test_the_footprint_counts_distinct_sectors_across_spaces_and_growth():
    """The launch footprint's set (a byte per sector over each space's span seen) grows down
    and up, keeps apart sectors of different address spaces, and counts each sector once."""
    from minicuda.vm.metrics import SectorSet
    rng = np.random.default_rng(5)
    base = np.uint64(SPACE_BASE["global"] // 32)
    static = np.uint64(SPACE_BASE["static"] // 32)
    batches = [base + np.uint64(1000) + rng.integers(0, 50, 40).astype(np.uint64),
               base + rng.integers(0, 3000, 200).astype(np.uint64),          # below the first span
               base + np.uint64(10**6) + np.arange(64, dtype=np.uint64),      # far above it
               np.concatenate([static + np.arange(8, dtype=np.uint64), base + np.arange(4, dtype=np.uint64)]),
               np.zeros(0, np.uint64)]
    sectors = SectorSet()
    for batch in batches:
        sectors.add(batch)
    assert sectors.count() == np.unique(np.concatenate(batches)).size
    assert len(sectors.spans) == 2

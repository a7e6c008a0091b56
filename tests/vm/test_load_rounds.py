"""A warp's load round trips and dependent arithmetic (vm/load_rounds.py), which the timing
model reads: independent loads share round trips, 16 at most; a load whose address another
load gives, a barrier, or a store of a loaded value waits for the loads in flight; a warp that
exits after a store waits for it (one more round trip); a loop's arithmetic chain is its
steps, not its instructions."""
import numpy as np
import pytest

import minicuda
from minicuda.vm.launcher import Device
from helpers.memory_kernels import LOAD_ROUNDS

KERNELS = LOAD_ROUNDS


@pytest.fixture(scope="module")
def device():
    return Device(minicuda.compile(KERNELS, arch="sm_90", opt=3), engine="jit", memory_counters=True, timing_model=True)


@pytest.mark.parametrize("n, rounds", [(1, 1), (16, 1), (17, 2), (40, 3)])
def test_independent_loads_share_round_trips_sixteen_at_a_time(device, n, rounds):
    m = device.launch("sum_rows", 1, 32, np.ones(32 * 40, np.float32), np.zeros(32, np.float32), n)
    assert (m.global_ld_requests, m.global_ld_rounds) == (n, rounds + 1)   # and the store's at the exit


def test_each_load_of_a_chain_is_a_round_trip(device):
    m = device.launch("chase", 2, 32, np.arange(1, 65, dtype=np.int32) % 64, np.zeros(64, np.int32), 10)
    assert (m.global_ld_requests, m.global_ld_rounds) == (20, 22)   # two warps, ten each, and their stores


def test_a_barrier_and_a_stored_load_wait_for_the_loads_in_flight(device):
    m = device.launch("staged", 1, 32, np.ones(96, np.float32), np.zeros(32, np.float32))
    # a[i], a[i + 32] together; STS of their sum waits; after the barrier a[i + 64] and the
    # LDS; the store at the end
    assert (m.global_ld_requests, m.global_ld_rounds, m.shared_ld_rounds) == (3, 3, 1)
    m = device.launch("copy_loop", 1, 32, np.ones(32 * 5, np.float32), 5)
    assert (m.global_ld_requests, m.global_ld_rounds) == (5, 6)   # each load's sum is stored before the next


@pytest.mark.parametrize("n", [10, 40])
def test_a_loops_arithmetic_chain_is_its_steps(device, n):
    m = device.launch("fma_chain", 1, 32, np.zeros(32, np.float32), n)
    assert n <= m.alu_chain <= n + 6 < m.inst_executed / 2

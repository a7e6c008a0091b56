"""Work done inside a called __device__ function counts in its launch's metrics, as the
GPU counts it: at -O0 (-G, where the function is called) as at -O3 (where it is inlined),
on both engines alike, under the stack model and ITS.  Host code stays uncounted."""
import io

import pytest

import minicuda
from minicuda.vm.machine import Machine

ITERATIONS = 100
SOURCE = r"""
__device__ int work(int x) {
    int s = 0;
    #pragma unroll 1
    for (int i = 0; i < ITERATIONS; i++) s += i ^ x;   // (-O3 would unroll it whole, as nvcc does)
    return s;
}
__global__ void all_lanes(int *out) { out[threadIdx.x] = work(threadIdx.x); }
__global__ void eight_lanes(int *out) { if (threadIdx.x < 8) out[threadIdx.x] = work(threadIdx.x); }
int main() {
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    all_lanes<<<1, 32>>>(d);
    eight_lanes<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
""".replace("ITERATIONS", str(ITERATIONS))


def launches(opt: int, engine: str, sched: str) -> list[dict]:
    prog = minicuda.compile(SOURCE, opt=opt, sched=sched)
    m = Machine(prog, engine=engine, stdout=io.BytesIO(), stderr=io.BytesIO())
    assert m.run(["prog"]) == 0
    return [dict(l.as_dict(), on=l.thread_inst_executed_pred_on) for l in m.launches]


@pytest.mark.parametrize("opt", [0, 3])
def test_a_called_functions_loop_is_counted_at_every_level(opt):
    all_lanes, eight_lanes = launches(opt, "interp", "its")
    # each iteration runs at least its add, its xor, its increment, its test and its branch back
    assert all_lanes["inst_executed"] >= 5 * ITERATIONS
    assert all_lanes["branch"] >= ITERATIONS
    assert all_lanes["thread_inst_executed"] == 32 * all_lanes["inst_executed"]
    # the eight lanes that call it run its loop; the warp's other lanes are not counted there
    loop_threads = 8 * (all_lanes["inst_executed"] - 7)
    assert loop_threads <= eight_lanes["thread_inst_executed"] < loop_threads + 32 * 20


@pytest.mark.slow
@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("sched", ["stack", "its"])
def test_the_engines_count_a_call_alike(opt, sched):
    assert launches(opt, "jit", sched) == launches(opt, "interp", sched)

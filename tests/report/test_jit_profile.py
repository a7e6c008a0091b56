"""The JIT's per-instruction counters (vm/profile.py, vm/jit/function.py's
`profile_instruction`) against the interpreter's: for every launch, every instruction of
every function it ran, the warp and thread instructions, the threads whose guard held,
the branches, the divergent branches and the active-lane histogram, bit for bit, under
both architectures and at -O0 and -O3; the warp a timeline traces is recorded alike;
and a plain run's native code is not the profiled variant."""
import io

import numpy as np
import pytest

import minicuda
from minicuda.vm.jit.engine import code_description
from minicuda.vm.machine import Machine
from minicuda.vm.profile import INST, LANES, THREAD

# a divergent branch in a device function, a loop with a data-dependent trip count,
# guarded (if-converted at -O3) instructions, shared memory and barriers, a warp vote
KERNELS = """\
__device__ int pick(int i) {
    if (i % 4 == 0)
        return i * 2;
    return i + 1;
}
__global__ void calls(int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = pick(i);
}
__global__ void loops(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = 0;
    for (int k = 0; k < i % 7; k++)
        s += k * a[i];
    if (i < n)
        a[i] = s > 10 ? s : -s;
}
__global__ void reduce(int *a, int *out) {
    __shared__ int buf[64];
    unsigned t = threadIdx.x;
    buf[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0)
            buf[t] += buf[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
    if (__any_sync(0xffffffff, buf[t] > 100) && t % 3 == 1)
        a[t] = 0;
}
int main() {
    int *d, *o;
    cudaMalloc(&d, 192 * sizeof(int));
    cudaMalloc(&o, 3 * sizeof(int));
    cudaMemset(d, 1, 192 * sizeof(int));
    calls<<<3, 48>>>(d);
    loops<<<2, 80>>>(d, 150);
    reduce<<<3, 64>>>(d, o);
    cudaDeviceSynchronize();
    return 0;
}
"""


def profiled_run(program, engine: str, **options) -> Machine:
    machine = Machine(program, engine=engine, profile=True, **options)
    assert machine.run(["kernels"]) == 0
    assert machine.engine.name == engine
    return machine


def tables(machine: Machine) -> list:
    """Per launch: function -> its counter table."""
    return [{name: table for name, (_, table) in m.profile.tables.items()} for m in machine.launches]


@pytest.mark.parametrize("arch", ["sm_60", "sm_70"])
@pytest.mark.parametrize("opt", [0, 3])
def test_the_jit_counts_each_instruction_as_the_interpreter_does(arch, opt):
    program = minicuda.compile(KERNELS, arch=arch, opt=opt)
    interpreted, native = (tables(profiled_run(program, e)) for e in ("interp", "jit"))
    assert len(interpreted) == len(native) == 3
    for theirs, ours in zip(interpreted, native):
        assert sorted(theirs) == sorted(ours)
        for name in theirs:
            assert np.array_equal(theirs[name], ours[name]), name
    calls = interpreted[0]
    if opt == 0:
        assert "pick" in calls   # the device function's own table, counted in its native code
    for table in (t for launch in interpreted for t in launch.values()):
        histogram = table[:, LANES:]
        assert (histogram.sum(axis=1) == table[:, INST]).all()
        assert (histogram @ np.arange(33) == table[:, THREAD]).all()
    assert any(t[:, LANES + 16].any() for t in calls.values())   # pick's half-warp paths


def test_the_profiled_launch_ran_natively():
    program = minicuda.compile(KERNELS, arch="sm_70", opt=0)
    machine = profiled_run(program, "jit")
    kernel = machine.interp.code("loops")
    assert [v for v in kernel.native if v[4]] and all(v[4] for v in kernel.native)   # the profiled variant alone (v[4])
    plain = Machine(minicuda.compile(KERNELS, arch="sm_70", opt=0), engine="jit")
    assert plain.run(["kernels"]) == 0
    assert not any(v[4] for v in plain.interp.code("loops").native)
    assert plain.launches[0].profile is None
    assert [(m.inst_executed, m.thread_inst_executed, m.branch, m.divergent_branch) for m in plain.launches] == \
        [(m.inst_executed, m.thread_inst_executed, m.branch, m.divergent_branch) for m in machine.launches]


def test_the_compile_cache_keys_the_profiled_variant_apart():
    program = minicuda.compile(KERNELS, arch="sm_70", opt=0)
    code = Machine(program).interp.code("loops")
    plain = code_description(code, "its", 32, [], True, False)
    assert code_description(code, "its", 32, [], True, False, profiled=True) != plain


@pytest.mark.parametrize("arch", ["sm_60", "sm_70"])
def test_the_traced_warp_is_recorded_alike(arch):
    program = minicuda.compile(KERNELS, arch=arch, opt=0)
    runs = [profiled_run(program, e, timeline_warp=(1, 1)) for e in ("interp", "jit")]
    traces = [[(i.function, i.pc, i.group, i.on) for i in m.issue_trace.issues] for m in runs[0].launches], \
        [[(i.function, i.pc, i.group, i.on) for i in m.issue_trace.issues] for m in runs[1].launches]
    assert traces[0] == traces[1] and all(traces[0])
    for theirs, ours in zip(tables(runs[0]), tables(runs[1])):
        assert all(np.array_equal(theirs[name], ours[name]) for name in theirs)


PRINTS = """\
#include <cstdio>
__global__ void hello(int *a) {
    if (threadIdx.x % 32 == 0)
        printf("block %d warp %d\\n", blockIdx.x, threadIdx.x / 32);
    atomicAdd(a, threadIdx.x);
}
int main() {
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    cudaMemcpy(d, &h, sizeof(int), cudaMemcpyHostToDevice);
    hello<<<4, 64>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d\\n", h);
    return 0;
}
"""


def test_the_interpreted_block_keeps_its_place_in_the_output():
    program = minicuda.compile(PRINTS, arch="sm_70", opt=3)
    outputs = []
    for options in ({}, {"profile": True, "timeline_warp": (2, 1)}):
        out = io.BytesIO()
        machine = Machine(program, engine="jit", stdout=out, **options)
        assert machine.run(["prints"]) == 0
        outputs.append(out.getvalue().decode())
    assert outputs[0] == outputs[1]
    assert outputs[1].splitlines()[4:6] == ["block 2 warp 0", "block 2 warp 1"] and outputs[1].endswith("8064\n")
    assert [i.pc for i in machine.launches[0].issue_trace.issues]   # block 2's warp 1, interpreted

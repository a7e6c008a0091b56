"""__syncthreads_count/_and/_or (BAR.RED), __trap (TRAP), a device-side assert and MATCH on
both engines: the values worked out here by hand, the two engines word for word alike,
under the stack model and ITS, at -O0 and -O3."""
import dataclasses
import io
import re

import numpy as np
import pytest

import minicuda
from minicuda.vm.errors import VMError
from minicuda.vm.launcher import Device
from minicuda.vm.machine import Machine

ARCHS = {"pascal": "sm_60", "volta": "sm_70"}
MATRIX = pytest.mark.parametrize("arch,engine,opt", [(a, e, o) for a in ARCHS for e in ("interp", "jit")
                                                     for o in (0, 3)])
_PROGRAMS: dict = {}


def program(source: str, arch: str, opt: int):
    key = (source, arch, opt)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = minicuda.compile(source, arch=ARCHS[arch], opt=opt)
    return _PROGRAMS[key]


def run(prog, engine: str, jobs: int = 1) -> dict:
    """A whole program: its status (exit code or error), output, metrics, warnings."""
    out = io.BytesIO()
    m = Machine(prog, engine=engine, jobs=jobs, stdout=out, stderr=io.BytesIO())
    try:
        status = m.run(["prog"])
    except VMError as e:
        status = (e.kind, str(e), e.loc.line if e.loc else None)
    if m.faults:   # a launch failed: CUDA's error sticks and the program ran on
        e = m.faults[0]
        status = (e.kind, str(e), e.loc.line if e.loc else None)
    metrics = [dict(l.as_dict(), on=l.thread_inst_executed_pred_on, barriers=l.barriers, depth=l.max_stack_depth,
                    paths=l.max_paths) for l in m.launches]
    return {"status": status, "stdout": out.getvalue(), "metrics": metrics, "warnings": list(m.interp.warnings)}


# ---- BAR.RED -----------------------------------------------------------------------------------
REDUCTIONS = r"""
__global__ void reductions(int *out, const int *pred) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = pred[i];
    int count = __syncthreads_count(p);
    int all = __syncthreads_and(p);
    int any = __syncthreads_or(p);
    out[3 * i] = count;
    out[3 * i + 1] = all;
    out[3 * i + 2] = any;
}
"""
BLOCK = 80   # two full warps and a partial one


def predicates() -> np.ndarray:
    """One block each: every third thread (values 0, 2, 4, 6: 20 are non-zero), all of them,
    none, only the last thread (in the partial warp), all but thread 33."""
    t = np.arange(BLOCK)
    blocks = [np.where(t % 3 == 0, t & 6, 0), t + 1, np.zeros(BLOCK), t == BLOCK - 1, np.where(t == 33, 0, -7)]
    return np.concatenate(blocks).astype(np.int32)


def expected(pred: np.ndarray) -> np.ndarray:
    out = []
    for block in pred.reshape(-1, BLOCK):
        count = sum(1 for p in block if p != 0)
        out += [count, int(count == BLOCK), int(count > 0)] * BLOCK
    return np.array(out, np.int32)


def test_the_predicates_cover_every_case():
    assert expected(predicates()).reshape(-1, BLOCK, 3)[:, 0].tolist() == \
        [[20, 0, 1], [80, 1, 1], [0, 0, 0], [1, 0, 1], [79, 0, 1]]


@MATRIX
def test_every_thread_receives_the_blocks_reduction(arch, engine, opt):
    pred = predicates()
    out = np.zeros(3 * len(pred), np.int32)
    device = Device(program(REDUCTIONS, arch, opt), engine=engine)
    metrics = device.launch("reductions", len(pred) // BLOCK, BLOCK, out, pred)
    assert np.array_equal(out, expected(pred))
    assert metrics.barriers == 3 * 3 * len(pred) // BLOCK   # three barriers, three warps, per block


LOOP = r"""
#include <cstdio>
__global__ void rounds(int *out) {
    int t = threadIdx.x;
    int sum = 0;
    for (int k = 1; k <= 6; k++) {
        sum = sum * 3 + __syncthreads_count(t % k == 0);   // a warp that runs ahead waits for the rest
        if (t % 7 == 0) sum += 1;                               // diverge between the barriers
    }
    out[blockIdx.x * blockDim.x + t] = sum;
}
int main() {
    int n = 2 * 96;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    rounds<<<2, 96>>>(d);
    int *h = (int *)malloc(n * sizeof(int));
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i += 7) printf("%d %d\n", i, h[i]);
    return 0;
}
"""


def loop_expected() -> bytes:
    lines = []
    for i in range(0, 2 * 96, 7):
        t, total = i % 96, 0
        for k in range(1, 7):
            total = total * 3 + sum(1 for u in range(96) if u % k == 0) + (1 if t % 7 == 0 else 0)
        lines.append(f"{i} {total}\n")
    return "".join(lines).encode()


@MATRIX
def test_barriers_in_a_loop_give_each_round_its_own_count(arch, engine, opt):
    result = run(program(LOOP, arch, opt), engine)
    assert result["status"] == 0
    assert result["stdout"] == loop_expected()


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("opt", [0, 3])
def test_the_engines_agree_on_block_reductions_word_for_word(arch, opt):
    prog = program(LOOP, arch, opt)
    interp, jit = run(prog, "interp"), run(prog, "jit")
    assert interp == jit
    assert interp["metrics"][0]["barriers"] == 6 * 3 * 2


EARLY_EXIT = r"""
__global__ void early(int *out) {
    int t = threadIdx.x;
    if (t >= 70) return;
    out[t] = __syncthreads_count(t < 50);
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("opt", [0, 3])
def test_threads_that_exited_take_no_part(engine, opt):
    out = np.full(96, -1, np.int32)
    device = Device(program(EARLY_EXIT, "volta", opt), engine=engine)
    device.launch("early", 1, 96, out)
    assert out.tolist() == [50] * 70 + [-1] * 26
    assert any("completed with only part of the block" in w for w in device.interp.warnings)


# ---- TRAP --------------------------------------------------------------------------------------
TRAP = r"""
#include <cstdio>
__global__ void guarded(int *out, int n, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == n) __trap();
    if (i == m) __trap();
    out[i] = i;
}
int main() {
    int *d;
    cudaMalloc(&d, 200 * 32 * sizeof(int));
    printf("before\n");
    guarded<<<200, 32>>>(d, TRAP_AT, TRAP_AT);
    cudaDeviceSynchronize();
    guarded<<<200, 32>>>(d, SECOND, FIRST);
    cudaDeviceSynchronize();
    printf("after\n");
    return 0;
}
"""


def trap_program(arch, opt, first=2253, second=4813, once=-1):
    source = TRAP.replace("TRAP_AT", str(once)).replace("FIRST", str(first)).replace("SECOND", str(second))
    return program(source, arch, opt)


@MATRIX
def test_a_trap_fails_the_launch_naming_kernel_block_thread_and_line(arch, engine, opt):
    result = run(trap_program(arch, opt), engine)
    kind, message, line = result["status"]
    # the lowest trapping block is reported (2253 = block 70, thread 13; 4813 = block 150)
    assert (kind, line) == ("trap", 6)
    assert message == ("cudaErrorLaunchFailure: unspecified launch failure in kernel 'guarded', block (70, 0, 0), "
                       "thread (13, 0, 0): the thread executed a trap instruction (__trap())")
    assert result["stdout"] == b"before\nafter\n"   # the error sticks, and the program runs on


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("jobs", [1, 3])
def test_the_jit_reports_the_trap_the_interpreter_reports(arch, jobs):
    prog = trap_program(arch, 3)
    assert run(prog, "jit", jobs)["status"] == run(prog, "interp")["status"]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("opt", [0, 3])
def test_no_trap_when_no_thread_reaches_it(arch, opt):
    prog = trap_program(arch, opt, first=-1, second=-5)
    interp, jit = run(prog, "interp"), run(prog, "jit")
    assert interp["status"] == 0 and interp["stdout"] == b"before\nafter\n"
    assert interp == jit


def test_a_predicated_trap_is_what_if_conversion_makes_of_it():
    source = "__global__ void k(int *out, int n) { int i = threadIdx.x; if (i == n) __trap(); out[i] = i; }"
    assert re.search(r"@P\d+ TRAP", minicuda.compile(source, arch="sm_70", opt=3).sass())
    assert not re.search(r"@P\d+ TRAP", minicuda.compile(source, arch="sm_70", opt=0).sass())


# ---- assert --------------------------------------------------------------------------------------
ASSERT = r"""
#include <assert.h>
__global__ void checked(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < 40);
    out[i] = i;
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    checked<<<2, 32>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
"""


@MATRIX
def test_a_failed_device_assert_fails_the_launch_as_cuda_does(arch, engine, opt):
    kind, message, line = run(program(ASSERT, arch, opt), engine)["status"]
    assert (kind, line) == ("assert", 5)
    assert message.startswith("cudaErrorAssert: device-side assert triggered in kernel 'checked', "
                              "block (1, 0, 0), thread (8, 0, 0): ")
    assert message.endswith(":5: void checked(int *): block: [1,0,0], thread: [8,0,0] Assertion `i < 40` failed.")


# ---- MATCH: the ballot's VOTE rewritten (a mask without lane 0) -----------------------------------
BALLOT = r"""
__global__ void ballot(unsigned *out, const int *v) {
    int i = threadIdx.x;
    out[i] = __ballot_sync(0xfffffffe, v[i]);
}
"""


def with_match(prog, mode: str):
    fn = prog.module.functions["ballot"]
    for block in fn.blocks:
        block.instrs = [dataclasses.replace(i, op="MATCH", mods=(mode,)) if i.op == "VOTE" else i for i in block.instrs]
    return prog


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("arch", ARCHS)
def test_match_any_and_all(engine, arch):
    v = (np.arange(32) % 3).astype(np.int32)
    want_any = [0] + [sum(1 << u for u in range(1, 32) if v[u] == v[t]) for t in range(1, 32)]
    for mode, values, want in (("ANY", v, want_any), ("ALL", v, [0] + [0] * 31),
                               ("ALL", np.full(32, 5, np.int32), [0] + [0xFFFFFFFE] * 31)):
        prog = with_match(minicuda.compile(BALLOT, arch=ARCHS[arch], opt=3), mode)
        out = np.zeros(32, np.uint32)
        Device(prog, engine=engine).launch("ballot", 1, 32, out, values)
        assert out.tolist()[1:] == want[1:]

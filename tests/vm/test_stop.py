"""Stopping a runaway program from outside: the stop flag both engines poll, the report of
where each warp and the host were, the watchdog's cudaErrorLaunchTimeout and its sticky error."""
import io
import threading
import time

import pytest

import minicuda
from minicuda.vm.machine import Machine
from minicuda.vm.stop import INTERRUPT, SHOWN_WARPS, TIMEOUT, StopFlag, Stopped, WarpPosition, report_lines
from minicuda.vm.watch import Watcher
from helpers.runaway import HOST_SPIN

# a kernel that writes memory on every turn of a loop it never leaves (so no deadlock or
# no-progress report ends it); the endless host loop is helpers.runaway.HOST_SPIN
SPIN = """#include <cstdio>
__global__ void spin(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (out[i] >= 0) {
        out[i] = (out[i] + 1) & 0xffff;
    }
}

int main()
{
    int *d;
    cudaMalloc(&d, 256 * sizeof(int));
    printf("launching\\n");
    spin<<<4, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\\n", cudaGetErrorString(e));
    int *p;
    printf("malloc: %d\\n", (int)cudaMalloc(&p, 16));
    spin<<<1, 32>>>(d);
    printf("last: %s\\n", cudaGetErrorName(cudaGetLastError()));
    printf("again: %s\\n", cudaGetErrorName(cudaGetLastError()));
    return 3;
}
"""
LOOP_LINES = range(2, 9)   # a line of the kernel: on a loaded machine a warp may be stopped at its first instruction
LAUNCH_LINE = 15


# budgets that end a run the stop flag failed to stop (as a budget error, not a hang)
BUDGET = {"jit": 3_000_000_000, "interp": 400_000}


def machine(source: str, engine: str, arch: str = "sm_70"):
    out, err = io.BytesIO(), io.BytesIO()
    m = Machine(minicuda.compile(source, arch=arch), engine=engine, stdout=out, stderr=err,
                max_steps=BUDGET[engine], jobs=2)
    return m, out, err


def stop_when(m: Machine, ready, reason: int) -> None:
    """Set m's stop flag a moment after `ready(m)` holds (whatever compiling took)."""
    def wait():
        deadline = time.monotonic() + 60
        while not ready(m) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)
        m.stop.request(reason)
    threading.Thread(target=wait, daemon=True).start()


def kernel_running(m: Machine) -> bool:
    if m.engine.name == "jit":
        return any(w.begin is not None for w in m.engine.workers)
    return m.interp.steps > 0


def host_started(out: io.BytesIO):
    return lambda m: b"start" in out.getvalue()


@pytest.mark.parametrize("engine", ["jit", "interp"])
@pytest.mark.parametrize("arch", ["sm_70", "pascal"])
def test_a_stop_ends_a_spinning_kernel_and_names_each_warps_line(engine, arch):
    m, out, _ = machine(SPIN, engine, arch)
    stop_when(m, kernel_running, TIMEOUT)
    with pytest.raises(Stopped) as e:
        m.run(["spin"])
    stop = e.value
    assert stop.reason == TIMEOUT
    assert stop.kernel[0] == "spin" and stop.blocks_done[1] == 4 and stop.blocks_done[0] < 4
    assert stop.warps, "the warps in flight are named"
    first = stop.warps[0]
    assert first.block == (0, 0, 0) and first.warp == 0
    assert first.places[0][0].line in LOOP_LINES and first.places[0][1] == 32
    assert [f.function for f in stop.host] == ["main"] and stop.host[0].loc.line == LAUNCH_LINE
    lines = report_lines(stop, "timed out after 1 s (--timeout)")
    assert "kernel 'spin'" in lines[0] and "error: timed out" in lines[0]
    assert any(f":{LAUNCH_LINE}:" in line and "launching 'spin'" in line for line in lines)


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_a_stop_ends_a_host_loop_and_gives_the_host_backtrace(engine):
    m, out, _ = machine(HOST_SPIN, engine)
    stop_when(m, host_started(out), INTERRUPT)
    with pytest.raises(Stopped) as e:
        m.run(["hostspin"])
    stop = e.value
    assert stop.reason == INTERRUPT and stop.kernel is None
    assert [f.function for f in stop.host] == ["collatz", "main"]
    assert 2 <= stop.host[0].loc.line <= 10 and stop.host[1].loc.line == 15   # in collatz, called at 15
    lines = report_lines(stop, "interrupted")
    assert lines[0].endswith("error: interrupted in host code")
    assert "called from main()" in lines[-1]


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_the_watchdog_fails_the_launch_with_a_sticky_launch_timeout_and_the_program_runs_on(engine):
    m, out, err = machine(SPIN, engine)
    watcher = Watcher(StopFlag(), watchdog=0.4).start()
    try:
        watcher.attach(m)
        assert m.run(["spin"]) == 3
    finally:
        watcher.close()
    text = out.getvalue().decode()
    assert "sync: the launch timed out and was terminated" in text
    assert "malloc: 702" in text   # every CUDA call returns the sticky error
    assert "last: cudaErrorLaunchTimeout\nagain: cudaErrorLaunchTimeout" in text   # and it is not reset
    report = err.getvalue().decode().splitlines()
    assert "error: cudaErrorLaunchTimeout: the launch timed out and was terminated in kernel 'spin', " \
           "block (0,0,0), thread (0,0,0)" in report[0]
    assert any("block (0,0,0), warp 0: 32 threads here" in line for line in report)
    assert len(m.launches) == 0 and m.stop.reason == 0


def test_a_launch_that_ends_in_time_is_not_failed_by_the_watchdog():
    src = "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n" \
          "int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d);\n" \
          "  return (int)cudaDeviceSynchronize(); }\n"
    m, _, err = machine(src, "jit")
    watcher = Watcher(StopFlag(), watchdog=5).start()
    try:
        watcher.attach(m)
        assert m.run(["k"]) == 0
    finally:
        watcher.close()
    assert err.getvalue() == b"" and len(m.launches) == 1


def test_a_report_of_many_warps_names_a_few_and_counts_the_rest_per_line():
    class Loc:
        def __init__(self, line):
            self.line = line

        def __str__(self):
            return f"k.cu:{self.line}:3"
    stop = Stopped(TIMEOUT)
    stop.note_warps([WarpPosition((b, 0, 0), w, places=[(Loc(7 if w % 4 else 9), 32)])
                     for b in range(100) for w in range(8)])
    stop.note_kernel("k", (100, 1, 1), (256, 1, 1), 0, 100)
    lines = report_lines(stop, "timed out after 1 s (--timeout)")
    assert len(lines) == 1 + SHOWN_WARPS + 2
    assert "800 warps unfinished" in lines[0]
    assert "k.cu:7:3: note: and 594 more warps here" in lines
    assert "k.cu:9:3: note: and 198 more warps here" in lines


def test_a_stop_noted_twice_for_a_warp_keeps_the_innermost_place():
    stop = Stopped(TIMEOUT)
    stop.note_warps([WarpPosition((0, 0, 0), 1, places=[("inner", 32)])])
    stop.note_warps([WarpPosition((0, 0, 0), 1, places=[("outer", 32)]), WarpPosition((0, 0, 0), 2)])
    assert [p.places for p in stop.warps] == [[("inner", 32)], []]


def test_a_weaker_reason_does_not_replace_a_stronger_one():
    flag = StopFlag()
    assert flag.request(3) and flag.request(TIMEOUT) and not flag.request(3) and not flag.request(INTERRUPT)
    flag.clear_watchdog()
    assert flag.reason == TIMEOUT



BARRIER_SPIN = """__global__ void rounds(int *out)
{
    int i = threadIdx.x;
    while (out[0] >= 0) {
        out[i + 1] = out[i + 1] + 1;
        __syncthreads();
    }
}

int main()
{
    int *d;
    cudaMalloc(&d, 256 * sizeof(int));
    rounds<<<1, 128>>>(d);
    return cudaDeviceSynchronize();
}
"""


@pytest.mark.parametrize("arch", ["sm_70", "pascal"])
def test_a_stop_ends_a_kernel_whose_warps_meet_at_a_barrier_forever(arch):
    """Each warp's run ends at the barrier, long before its next read of the flag: the block
    loop reads it between rounds."""
    m, _, _ = machine(BARRIER_SPIN, "jit", arch)
    stop_when(m, kernel_running, TIMEOUT)
    with pytest.raises(Stopped) as e:
        m.run(["rounds"])
    stop = e.value
    assert stop.kernel[0] == "rounds" and len(stop.warps) == 4
    assert all(loc.line in (4, 5, 6) for p in stop.warps for loc, _ in p.places)

"""Calls on the explicit call stack (vm/callstack.py): host recursion as deep as an 8 MiB
stack allows, then SIGSEGV; device recursion bounded by cudaLimitStackSize with CUDA's
fault (the H100's behaviour in tests/data/groundtruth/faults/); both engines alike."""
import io

import pytest

import minicuda
from helpers import GROUNDTRUTH_DIR
from minicuda.vm.callstack import HOST_STACK_BYTES, frame_bytes
from minicuda.vm.errors import VMError
from minicuda.vm.machine import Machine

STACK_CU = (GROUNDTRUTH_DIR / "faults" / "stack.cu").read_text()
# the H100's recorded runs recurse a hundred calls deep and more on 32 threads: seconds under the interpreter
ENGINES_DEEP = [pytest.param("interp", marks=pytest.mark.slow), "jit"]


def run(source: str, argv: list[str], engine: str, opt: int = 3):
    """(status or (kind, message, line), stdout) of a whole program."""
    out = io.BytesIO()
    m = Machine(minicuda.compile(source, opt=opt), engine=engine, stdout=out, stderr=io.BytesIO())
    try:
        status = m.run(["prog"] + argv)
    except VMError as e:
        status = (e.kind, str(e), e.loc.line if e.loc else None)
    if m.faults:   # a launch failed: CUDA's error sticks and the program ran on
        e = m.faults[0]
        status = (e.kind, str(e), e.loc.line if e.loc else None)
    return status, out.getvalue().decode()


HOSTREC = r"""#include <cstdio>
#include <cstdlib>
int hostrec(int n) { return n == 0 ? 0 : 1 + hostrec(n - 1); }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv) {
  printf("%d %d\n", hostrec(atoi(argv[1])), fib(atoi(argv[2])));
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_host_recursion_deeper_than_pythons_limit_runs_alike_on_both_engines(engine):
    assert run(HOSTREC, ["1500", "12"], engine) == (0, "1500 144\n")   # Python's limit was 1000


@pytest.mark.slow
def test_host_recursion_100000_deep_runs():
    assert run(HOSTREC, ["100000", "2"], "jit") == (0, "100000 1\n")


BIGFRAME = r"""#include <cstdio>
int deep(int n) {
  char buf[100000];
  buf[n % 1000] = (char)n;
  return n == 0 ? 0 : deep(n - 1) + buf[n % 1000] - (char)n + 1;
}
int main() { printf("%d\n", deep(60)); printf("%d\n", deep(100)); return 0; }
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_host_stack_overflow_is_a_segmentation_fault(engine):
    fn = minicuda.compile(BIGFRAME).module.functions["deep"]
    frame = frame_bytes(fn)
    assert 100000 + 16 <= frame < 100000 + 16 + 64
    main_frame = frame_bytes(minicuda.compile(BIGFRAME).module.functions["main"])
    depth = (HOST_STACK_BYTES - main_frame) // frame + 2   # the call that does not fit, main being 1
    status, out = run(BIGFRAME, [], engine)
    assert out == "60\n"
    assert status == ("sigsegv", f"host stack overflow in 'deep': the call at depth {depth} needs {frame} bytes "
                                 f"more of the 8 MiB stack", 5)


def test_host_frames_are_modelled_as_x86_64_at_O0():
    fn = minicuda.compile(HOSTREC).module.functions["hostrec"]
    assert fn.local_bytes == 0 and frame_bytes(fn) == 32   # gcc -O0: push rbp, sub rsp 16, the return address


def test_device_frame_model_against_ptxas():
    """ptxas -v gives rec() a 136-byte frame at -O3 (104 at -G); the model gives 96: the return
    address, the 64-byte local array and its 6 registers saved (n, src's pair, a loaded value
    and an address's pair: the fill loop fully unrolled, its indices folded to constants)."""
    fn = minicuda.compile(STACK_CU).module.functions["rec"]
    assert fn.local_bytes == 64 and fn.registers == 6
    assert frame_bytes(fn) == 8 + 64 + 4 * fn.registers == 96


@pytest.mark.parametrize("engine", ENGINES_DEEP)
def test_device_recursion_within_the_stack_limit_runs(engine):
    status, out = run(STACK_CU, ["5"], engine)
    assert status == 0
    assert out == ("default stack limit 1024\nlaunch: cudaSuccess no error\nsync: cudaSuccess no error\n"
                   "result 5\nafter: cudaSuccess\n")
    status, out = run(STACK_CU, ["100", "16384"], engine)
    assert status == 0 and "set 16384: no error\nnow 16384\n" in out and "result 100\n" in out


@pytest.mark.parametrize("engine", ENGINES_DEEP)
@pytest.mark.parametrize("opt,error", [(3, "cudaErrorIllegalAddress: an illegal memory access was encountered"),
                                       (0, "cudaErrorLaunchFailure: unspecified launch failure")])
def test_device_stack_overflow_faults_the_launch_as_cuda_does(engine, opt, error):
    frame = frame_bytes(minicuda.compile(STACK_CU, opt=opt).module.functions["rec"])
    depth = 1024 // frame + 1
    status, out = run(STACK_CU, ["10"], engine, opt)
    name, text = error.split(": ")   # the program runs on, every CUDA call failing, as on the H100
    assert out == (f"default stack limit 1024\nlaunch: cudaSuccess no error\nsync: {name} {text}\nresult -1\n"
                   f"after: {name}\n")
    assert status == ("stack", f"{error} in kernel 'k', block (0, 0, 0), thread (0, 0, 0): stack overflow: the call "
                               f"of 'rec' at depth {depth} needs {frame} bytes more, {(depth - 1) * frame} of the "
                               f"thread's 1024 (cudaLimitStackSize) in use", 7)
    status, _ = run(STACK_CU, ["1000", "16384"], engine, opt)
    assert status[0] == "stack" and "of the thread's 16384 (cudaLimitStackSize)" in status[1]


LIMITS = r"""#include <cstdio>
int main() {
  size_t v = 0;
  printf("%d", (int)cudaDeviceGetLimit(&v, cudaLimitStackSize)); printf(" %zu\n", v);
  cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize); printf("%zu\n", v);
  cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize); printf("%zu\n", v);
  printf("%d\n", (int)cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  cudaDeviceGetLimit(&v, cudaLimitStackSize); printf("%zu\n", v);
  printf("%d %d\n", (int)cudaDeviceSetLimit((cudaLimit)42, 1), (int)cudaGetLastError());
  return 0;
}
"""


def test_device_limits_read_and_set():
    # the printf FIFO's default is what an H100 reports under CUDA 13 (tests/data/groundtruth/issue12/out/fifo_0_0_1.txt)
    assert run(LIMITS, [], "jit") == (0, "0 1024\n8650752\n8388608\n0\n4096\n215 215\n")


BIG_LOCALS = r"""#include <cstdio>
__device__ int sum(int n) { int a[600]; for (int i = 0; i < 600; i++) a[i] = i; return a[n] + a[599 - n]; }
__device__ int twice(int n) { return sum(n) + sum(n + 1); }
__global__ void k(int *out) { out[threadIdx.x] = twice(threadIdx.x); }
int main() {
  int *o; cudaMalloc(&o, 128); k<<<1, 32>>>(o);
  int h[32]; cudaMemcpy(h, o, 128, cudaMemcpyDeviceToHost); printf("%d %d\n", h[0], h[31]);
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_call_chain_without_recursion_gets_the_stack_it_needs(engine):
    """-G keeps the calls: 2,400 bytes of locals beyond the 1 KiB limit, as the driver allows."""
    assert run(BIG_LOCALS, [], engine, opt=0) == (0, "1198 1198\n")

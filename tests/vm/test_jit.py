"""The JIT against its specification, the interpreter: on the samples and on generated
kernels both engines give the same memory, the same output and the same metrics,
whatever the scheduling model, the optimisation level and the number of workers;
faults, deadlocks and budget reports are word for word the same."""
import io
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minicuda
from helpers import ROOT
from helpers.kernels import statements
from minicuda.vm.errors import VMError
from minicuda.vm.jit.engine import compile_function
from minicuda.vm.launcher import Device
from minicuda.vm.machine import Machine

SAMPLES = ROOT / "samples"
_PROGRAMS: dict = {}


def program(source, arch: str, opt: int = 3):
    key = (str(source), arch, opt)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = minicuda.compile(source, arch=arch, opt=opt)
    return _PROGRAMS[key]


def run(prog, args: list[str], engine: str, jobs: int = 1, seed=None, max_steps: int = 200_000_000) -> dict:
    out, err = io.BytesIO(), io.BytesIO()
    m = Machine(prog, engine=engine, jobs=jobs, stdout=out, stderr=err, seed=seed, max_steps=max_steps)
    try:
        status = m.run(["prog"] + args)
    except VMError as e:
        status = (e.kind, str(e), e.loc.line if e.loc else None)
    if m.faults:   # a launch failed: CUDA's error sticks and the program ran on
        e = m.faults[0]
        status = (e.kind, str(e), e.loc.line if e.loc else None)
    # timings differ from run to run; everything else must not
    text = re.sub(rb"\d+\.\d+ sec", b"T sec", out.getvalue())
    memory = {(a.space, a.name): a.data.tobytes() for a in m.memory.allocs if a.space in ("global", "host")}
    metrics = [dict(l.as_dict(), depth=l.max_stack_depth, paths=l.max_paths, on=l.thread_inst_executed_pred_on,
                    barriers=l.barriers) for l in m.launches]
    return {"status": status, "stdout": text, "memory": memory, "metrics": metrics,
            "warnings": list(m.interp.warnings)}


def same(a: dict, b: dict) -> None:
    assert a["status"] == b["status"]
    assert a["stdout"] == b["stdout"]
    assert a["metrics"] == b["metrics"]
    assert a["warnings"] == b["warnings"]
    assert a["memory"].keys() == b["memory"].keys()
    for key in a["memory"]:
        assert a["memory"][key] == b["memory"][key], key


@pytest.mark.parametrize("arch", ["pascal", "volta"])
@pytest.mark.parametrize("sample,args", [("simpleDivergence.cu", ["64", "256"]),
                                         ("reduceInteger.cu", ["32", "1024"]),
                                         ("sumMatrix.cu", ["32", "16", "16", "8"]),
                                         ("warpLock.cu", [])])
def test_samples_agree_with_the_interpreter(sample, args, arch):
    prog = program(SAMPLES / sample, arch)
    same(run(prog, args, "interp"), run(prog, args, "jit"))


@pytest.mark.parametrize("arch", ["pascal", "volta"])
def test_samples_agree_at_O0(arch):
    prog = program(SAMPLES / "simpleDivergence.cu", arch, opt=0)
    reference = run(prog, ["64", "128"], "interp")
    assert reference["metrics"][1]["divergent_branch"] > 0
    same(reference, run(prog, ["64", "128"], "jit"))


def test_results_and_metrics_do_not_depend_on_the_number_of_workers():
    prog = program(SAMPLES / "reduceInteger.cu", "volta")
    one = run(prog, ["64", "16384"], "jit", jobs=1)
    assert b"Test PASSED" in one["stdout"] or b"gpu_sum" in one["stdout"]
    for jobs in (2, 5):
        same(one, run(prog, ["64", "16384"], "jit", jobs=jobs))


def test_atomics_are_atomic_across_parallel_blocks():
    src = """__global__ void count(int *c, unsigned long long *sum, float *f) {
        atomicAdd(c, 1); atomicAdd(sum, (unsigned long long)(threadIdx.x + 1)); atomicAdd(f, 0.5f);
        atomicMax(c + 1, blockIdx.x); atomicMin(c + 2, -(int)blockIdx.x); }"""
    prog = minicuda.compile(src, arch="volta")
    c, s, f = np.zeros(3, np.int32), np.zeros(1, np.uint64), np.zeros(1, np.float32)
    Device(prog, jobs=4).launch("count", 640, 128, c, s, f)
    assert c.tolist() == [640 * 128, 639, -639]
    assert int(s[0]) == 640 * (128 * 129 // 2)
    assert f[0] == 640 * 128 * 0.5


@pytest.mark.parametrize("arch", ["pascal", "volta"])
def test_a_fault_is_reported_word_for_word(arch):
    src = """__global__ void k(int *a, int n) {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        if (t % 97 == 3) a[t + n] = t; }
        int main() { int *d; cudaMalloc(&d, 256 * sizeof(int)); k<<<4, 64>>>(d, 256);
        cudaDeviceSynchronize(); return 0; }"""
    prog = minicuda.compile(src, arch=arch)
    ref, jit = run(prog, [], "interp"), run(prog, [], "jit", jobs=3)
    assert ref["status"][0] == "memory" and "block (0, 0, 0), thread (3, 0, 0)" in ref["status"][1]
    same(ref, jit)


@pytest.mark.slow
def test_the_simt_deadlock_and_the_budget_are_reported_alike():
    prog = program(SAMPLES / "warpLock.cu", "pascal")
    ref = run(prog, [], "interp")
    assert ref["status"][0] == "deadlock"
    same(ref, run(prog, [], "jit"))
    prog = program(SAMPLES / "reduceInteger.cu", "volta")
    ref = run(prog, ["64", "4096"], "interp", max_steps=30_000)
    assert ref["status"][0] == "budget"
    same(ref, run(prog, ["64", "4096"], "jit", max_steps=30_000))


@pytest.mark.parametrize("seed", [1, 7])
def test_seeded_its_schedules_are_the_same(seed):
    prog = program(SAMPLES / "warpLock.cu", "volta")
    ref = run(prog, [], "interp", seed=seed)
    assert b"counter = 32" in ref["stdout"]
    same(ref, run(prog, [], "jit", seed=seed, jobs=2))


def test_compiled_code_is_cached_per_function_and_arch():
    prog = program(SAMPLES / "reduceInteger.cu", "volta")
    from minicuda.vm.code import Code
    code = Code(prog.functions["reduceNeighbored"])
    assert compile_function(code, "its", 32, True) is compile_function(Code(prog.functions["reduceNeighbored"]), "its", 32, True)
    other = Code(program(SAMPLES / "reduceInteger.cu", "pascal").functions["reduceNeighbored"])
    assert compile_function(other, "stack", 32, True) is not compile_function(code, "its", 32, True)


def test_functions_alike_but_for_their_strings_each_print_their_own():
    src = """#include <stdio.h>
    void first(int v) { printf("first %d\\n", v); }
    void second(int v) { printf("second %d\\n", v); }
    __global__ void k1(int v) { printf("k1 %d\\n", v); }
    __global__ void k2(int v) { printf("k2 %d\\n", v); }
    int main() {
        first(1); second(2); first(3);
        k1<<<1, 1>>>(4); cudaDeviceSynchronize(); k2<<<1, 1>>>(5); cudaDeviceSynchronize();
        return 0;
    }"""
    prog = minicuda.compile(src, arch="volta")
    ref = run(prog, [], "interp")
    assert ref["stdout"] == b"first 1\nsecond 2\nfirst 3\nk1 4\nk2 5\n"
    same(ref, run(prog, [], "jit"))


WARP_OPS = ["a = __shfl_xor_sync(0xffffffff, a, {k});", "b = __shfl_down_sync(0xffffffff, b, {k});",
            "a += __ballot_sync(0xffffffff, (b & {k}) != 0);", "b ^= __any_sync(0xffffffff, a > {k});",
            "atomicAdd(&out[(t * {k}) % 80], a);", "atomicMax(&out[{k}], b);", "s[threadIdx.x] = a; __syncthreads();"
            " a += s[(threadIdx.x + {k}) % blockDim.x]; __syncthreads();"]


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.lists(statements(), min_size=1, max_size=4),
       extra=st.lists(st.tuples(st.sampled_from(WARP_OPS), st.integers(1, 9)), max_size=3))
def test_generated_kernels_agree_with_the_interpreter(body, extra):
    """Generated kernels: nested branches and loops on thread ids, warp shuffles and
    votes, atomics, shared memory with barriers, under both models and both -O levels."""
    lines = body + [op.format(k=k) for op, k in extra]
    src = ("__global__ void k(int *out, int n) {\n  __shared__ int s[64];\n"
           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  int a = t, b = n - t;\n  "
           + "\n  ".join(lines) + "\n  out[t] += a ^ (b << 1);\n}\n")
    for opt in (0, 3):
        for arch in ("pascal", "volta"):
            prog = minicuda.compile(src, arch=arch, opt=opt)
            results = []
            for engine in ("interp", "jit"):
                out = np.zeros(80, np.int32)
                try:
                    m = Device(prog, engine=engine, jobs=2).launch("k", 2, 40, out, 77)
                    metrics = (m.as_dict(), m.max_stack_depth, m.max_paths, m.thread_inst_executed_pred_on)
                except VMError as e:
                    metrics = (e.kind, str(e))
                results.append((out.tobytes(), metrics))
            assert results[0] == results[1], src


def test_host_memory_functions_and_rand_run_natively_and_fault_alike():
    src = """#include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    int main() {
        int n = 1000;
        int *a = (int *)malloc(n * sizeof(int)); int *b = (int *)malloc(n * sizeof(int));
        for (int i = 0; i < n; i++) a[i] = rand() % 1000;
        long s = 0;
        for (int r = 0; r < 500; r++) { memcpy(b, a, n * sizeof(int)); memset(b, r & 1, 8); s += b[r % n] + b[0]; }
        memmove(a + 1, a, 10 * sizeof(int));
        printf("%ld %d %d %d\\n", s, a[1], a[10], rand());
        memcpy(b, a, (n + 1) * sizeof(int));
        return 0;
    }"""
    prog = minicuda.compile(src, arch="volta")
    ref = run(prog, [], "interp")
    assert ref["status"][0] == "sigsegv" and "segmentation fault in memcpy()" in ref["status"][1]
    same(ref, run(prog, [], "jit"))


@pytest.mark.slow
def test_compiled_objects_are_kept_on_disk_between_runs(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, MINICUDA_CACHE_DIR=str(tmp_path))
    cmd = [sys.executable, "-c", "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())",
           "run", str(SAMPLES / "simpleDivergence.cu"), "32", "64"]
    first = subprocess.run(cmd, env=env, capture_output=True, cwd=ROOT)
    objects = sorted(p.name for p in (tmp_path / "jit").iterdir())
    assert first.returncode == 0 and objects
    second = subprocess.run(cmd, env=env, capture_output=True, cwd=ROOT)
    assert second.returncode == 0 and second.stdout.split(b"\n")[0] == first.stdout.split(b"\n")[0]
    assert sorted(p.name for p in (tmp_path / "jit").iterdir()) == objects   # found, not made again


@pytest.mark.parametrize("arch", ["pascal", "volta"])
def test_a_block_waiting_for_a_later_block_is_reported_not_hung(arch, monkeypatch):
    """Blocks run one after another, so block 0 spinning on a flag that block 1 sets
    can never finish: both models report it once its state is seen to repeat with
    memory unchanged (vm/cycles.py), both engines alike."""
    src = """__global__ void k(volatile int *flag) {
        if (blockIdx.x == 1) flag[0] = 1;
        while (flag[0] == 0) { }
    }
    int main() { int *f; cudaMalloc(&f, 4); cudaMemset(f, 0, 4); k<<<2, 32>>>(f);
                 cudaDeviceSynchronize(); return 0; }"""
    prog = minicuda.compile(src, arch=arch)
    ref = run(prog, [], "interp")
    assert ref["status"][0] == "deadlock" and "makes no progress" in ref["status"][1]
    assert "block (0, 0, 0)" in ref["status"][1]
    same(ref, run(prog, [], "jit"))


def test_device_printf_comes_out_in_block_order_whatever_the_workers():
    src = """#include <stdio.h>
    __global__ void hello(int n) {
        if (threadIdx.x % 16 == 0) printf("block %d thread %d of %d\\n", blockIdx.x, threadIdx.x, n);
    }
    int main() { hello<<<300, 64>>>(7); cudaDeviceSynchronize(); printf("done\\n"); return 0; }"""
    prog = minicuda.compile(src, arch="volta")
    ref = run(prog, [], "interp")
    assert ref["stdout"].count(b"\n") == 300 * 4 + 1
    for jobs in (1, 3):
        same(ref, run(prog, [], "jit", jobs=jobs))


def test_a_full_printf_fifo_drops_the_same_records_and_counts_the_same_metrics():
    src = """#include <stdio.h>
    __global__ void hello(int n) { for (int i = 0; i < n; i++) printf("%d %d\\n", blockIdx.x * blockDim.x + threadIdx.x, i); }
    int main() { cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4096); hello<<<40, 64>>>(3); hello<<<2, 32>>>(1);
                 cudaDeviceSynchronize(); hello<<<3, 32>>>(1); return 0; }"""
    prog = minicuda.compile(src, arch="volta")
    ref = run(prog, [], "interp")
    assert ref["stdout"].count(b"\n") == 2048 + 96   # 524288 bytes of 256-byte records, then a new FIFO
    for jobs in (1, 3):
        same(ref, run(prog, [], "jit", jobs=jobs))


@pytest.mark.parametrize("arch", ["pascal", "volta"])
def test_vector_add_agrees_with_the_interpreter(arch):
    """vectorAdd.cu's size is fixed in its main (50,000 elements, minutes for the
    interpreter), so its kernel is compared through the Python API instead."""
    prog = program(SAMPLES / "vectorAdd.cu", arch)
    rng = np.random.default_rng(5)
    a, b = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    results = []
    for engine in ("interp", "jit"):
        c = np.zeros(1000, np.float32)
        m = Device(prog, engine=engine).launch("vectorAdd", 4, 256, a, b, c, 1000)
        results.append((c.tobytes(), m.as_dict(), m.thread_inst_executed_pred_on, m.max_stack_depth, m.max_paths))
    assert results[0] == results[1]
    assert np.array_equal(np.frombuffer(results[1][0], np.float32), a + b)


def test_functions_that_differ_only_in_their_strings_print_their_own(tmp_path):
    """Two host functions whose code is one text but for the string each prints share
    native code; each still reads its own symbols (it printed the other's string)."""
    source = tmp_path / "strings.cu"
    source.write_text('#include <cstdio>\n'
                      'void hello(const int *p) { printf("hello %d\\n", *p); }\n'
                      'void bye(const int *p) { printf("bye %d\\n", *p); }\n'
                      'int main() { int a = 1, b = 2; hello(&a); bye(&b); return 0; }\n')
    prog = minicuda.compile(str(source), arch="volta", opt=0)
    jit = run(prog, [], "jit")
    assert jit["stdout"] == b"hello 1\nbye 2\n"
    same(jit, run(prog, [], "interp"))


# ---- SASS's address forms at -O3 (passes/fuse_address.py): 32-bit shared addresses
# (`[R5.U32]`), an address formed from another (`IMAD.U32 b, y, 4, a`), IMAD.WIDE and a select
# of the operand an if-else's arms differ in; the results are the C program's, also where the
# 32-bit index wraps.
ADDRESS_FORMS = r"""
#include <cstdio>
__global__ void step(int *out, unsigned back, int mode) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = t * 3 + 1;
  __syncthreads();
  int v = 0;
  if (t > 0) v = s[t] + s[t + back];          // back = 0xffffffff: s[t - 1], the index wraps
  float x = (float)v;
  if (mode > 0) x = x + 1.0f; else x = x - 1.0f;
  out[t] = (int)x;
}
int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  step<<<1, 64>>>(d, 0xffffffffu, 1);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 64; t++)
    if (h[t] != (t > 0 ? (t * 3 + 1) + ((t - 1) * 3 + 1) : 0) + 1) bad++;
  printf("%d bad\n", bad);
  return bad;
}
"""


def test_sass_address_forms_are_emitted():
    sass = minicuda.compile(ADDRESS_FORMS, arch="sm_90").sass()
    assert "LDS" in sass and ".U32]" in sass          # a 32-bit shared address
    assert "FSEL" in sass and "FSUB" not in sass      # x + 1 / x - 1: a select of 1.0 / -1.0, one FADD


def test_the_engines_agree_and_the_wrapping_index_is_exact():
    prog = minicuda.compile(ADDRESS_FORMS, arch="sm_90")
    reference = run(prog, [], "interp")
    assert reference["stdout"] == b"0 bad\n" and reference["status"] == 0
    same(reference, run(prog, [], "jit"))

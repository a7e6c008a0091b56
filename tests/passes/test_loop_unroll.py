"""loop-unroll on whole programs: what nvcc -O3 does to loops (docs/fidelity.md), the
branches the unrolled code executes per warp, its results on both engines for every trip
count around the unrolling's boundaries, #pragma unroll [N], and the report's loop section."""
import json
from pathlib import Path

import pytest

import minicuda
from minicuda.ir import Imm
from minicuda.cli import minicuda_main, minicudac_main

# out[t] = sum of i * t for i < t % 38 (trip counts 0..37 across the 64 threads), a data
# dependent early exit in a second kernel, and the host's check of both.
PROGRAM = """\
#include <stdio.h>
__global__ void varying(int *out) {
  int t = threadIdx.x;
  int s = 0;
  PRAGMA
  for (int i = 0; i < t % 38; i++) s += i * t + 1;
  out[t] = s;
}
int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof(h));
  varying<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    int s = 0;
    for (int i = 0; i < t % 38; i++) s += i * t + 1;
    if (h[t] != s) bad++;
  }
  printf("%s\\n", bad ? "FAIL" : "OK");
  return bad;
}
"""


def run(tmp_path, capsys, engine: str, pragma: str = "") -> dict:
    f = tmp_path / "k.cu"
    f.write_text(PROGRAM.replace("PRAGMA", pragma))
    metrics = tmp_path / "m.json"
    code = minicuda_main(["run", str(f), "-arch", "sm_90", "--engine", engine, "-q", "--metrics-json", str(metrics)])
    assert (code, capsys.readouterr().out) == (0, "OK\n")
    return json.loads(metrics.read_text())[0]


def report(tmp_path, capsys, source: str, *options) -> list[str]:
    f = tmp_path / "r.cu"
    f.write_text(source)
    assert minicudac_main([str(f), "--report=predication", "-arch", "sm_90", *options]) == 0
    lines = capsys.readouterr().out.splitlines()
    return [line.replace(str(f), "r.cu") for line in lines[lines.index("loops:") + 1:]]


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_unknown_trip_count_unrolled_by_4_then_by_4_again(tmp_path, capsys, engine):
    """Warp 0 runs 0..31 iterations, warp 1 32..37 then 0..25: the branches of nvcc's
    shape (guard, few-iterations test, ptxas's tests around the 16-, 8- and 4-iteration
    bodies, the remainder loop), counted by hand from it."""
    m = run(tmp_path, capsys, engine)
    # warp 0 as loop_varying on the GPU (12 branches, 8 divergent); warp 1 (trip counts 0..25
    # and 32..37): guard (divergent: t = 38 runs none), n-1 < 3 (divergent), m > 0, m > 12
    # (divergent), the by-16 back edge twice (32..37 go round again: divergent once), tail8
    # (divergent), join (divergent), by-4 back edge once, remainder test (divergent), 3
    # remainder back edges (2 divergent): 13 and 9
    assert (m["branch"], m["divergent_branch"]) == (12 + 13, 8 + 9)


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_pragma_unroll_1_keeps_a_rotated_loop(tmp_path, capsys, engine):
    """One guard, then the test at the bottom: a warp runs as many branches as its
    longest thread's trip count, plus the guard; the test after iteration k diverges where
    some thread's trip count is k and another's is larger (warp 1: not for 26..31)."""
    m = run(tmp_path, capsys, engine, "#pragma unroll 1")
    assert (m["branch"], m["divergent_branch"]) == ((1 + 31) + (1 + 37), (1 + 30) + (1 + 25 + 5))


def test_pragma_unroll_2_unrolls_by_2_without_ptxas_again(tmp_path, capsys):
    m = run(tmp_path, capsys, "interp", "#pragma unroll 2")
    # per warp: guard, n-1 < 1, the by-2 back edge (16 and 18 times at most), remainder test and loop
    assert m["branch"] < 2 * (1 + 37)
    text = report(tmp_path, capsys, PROGRAM.replace("PRAGMA", "#pragma unroll 2"))
    assert text == ["r.cu:6:19: varying: divergent exit, trip count unknown, unrolled by 2 with a remainder loop"]


def test_small_constant_loops_are_fully_unrolled(tmp_path, capsys):
    source = """__global__ void k(int *o, int n) {
  int t = threadIdx.x, s = 0;
  for (int i = 0; i < 8; i++) { s += o[(t + i) % n]; if (s > 20) { o[t] = -i; return; } }
  #pragma unroll
  for (int i = 0; i < 16; i++) s += i & t;
  #pragma unroll 1
  for (int i = 0; i < 16; i++) s += i | t;
  o[t] = s;
}
"""
    fn = minicuda.compile(source, arch=90).functions["k"]
    # 8 copies of the early exit, the kept loop's back edge (no guard: its trip count is 16)
    assert len([i for i in fn.instructions() if i.op == "BRA" and i.guard is not None]) == 8 + 1
    assert [line.split(": ")[0] + ": " + line.split(" exit, ")[1] for line in report(tmp_path, capsys, source)] == [
        "r.cu:3:19: trip count 8, fully unrolled",
        "r.cu:5:19: trip count 16, fully unrolled",
        "r.cu:7:19: trip count 16, not unrolled (#pragma unroll 1)"]


def test_nothing_unrolls_at_O0(tmp_path, capsys):
    source = "__global__ void k(int *o) {\n  for (int i = 0; i < 4; i++) o[i] = i;\n}\n"
    assert report(tmp_path, capsys, source, "-G") == ["r.cu:2:19: k: uniform exit, trip count 4, not unrolled"]


def test_a_loop_with_a_barrier_is_unrolled_by_4_without_ptxas_again(tmp_path, capsys):
    """nvcc 13 unrolls it by 4 with a remainder loop and ptxas leaves the by-4 loop alone
    (unroll2/summary.tsv: for_unknown_syncthreads, 5 branches, 2 back edges)."""
    source = """__global__ void k(int *o, int n) {
  __shared__ int s[64];
  for (int i = 0; i < n; i++) { s[threadIdx.x] = i; __syncthreads(); o[i] = s[63 - threadIdx.x]; }
}
"""
    (line,) = report(tmp_path, capsys, source)
    assert line == "r.cu:3:19: k: uniform exit, trip count unknown, unrolled by 4 with a remainder loop"
    fn = minicuda.compile(source, arch=90).functions["k"]
    back_edges = [i for b in fn.blocks for i in b.instrs if i.op == "BRA" and i.guard is not None
                  and [x.label for x in fn.blocks].index(i.target) <= [x.label for x in fn.blocks].index(b.label)]
    assert len(back_edges) == 2          # the by-4 loop and the remainder loop: no by-16 loop
    assert sum(i.op == "BAR" for i in fn.instructions()) == 5


# nvcc's shapes for loops it had not been tuned on (tests/data/groundtruth/fidelity/unroll2).
SHAPES = """\
#include <stdio.h>
__global__ void shapes(int *in, int *out) {
  int t = threadIdx.x, v = in[t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  out[t] = v;
  int x = in[t] % 40 + 1, steps = 0;
  do {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    steps++;
  } while (x != 1 && steps < 100);
  out[64 + t] = steps;
  int y = in[t] - 20, s = 0;
  while (y > 0) { s += y; y -= 3; }
  out[128 + t] = s;
  int p = 0;
  for (int k = 1; k < 1000; k *= 3) p += in[k % 64];
  out[192 + t] = p;
}
int main() {
  int h[256], *d_in, *d_out, o[256];
  for (int i = 0; i < 64; i++) h[i] = (i * 37) % 61;
  cudaMalloc(&d_in, sizeof(h));
  cudaMalloc(&d_out, sizeof(o));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  shapes<<<1, 64>>>(d_in, d_out);
  cudaMemcpy(o, d_out, sizeof(o), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    int w = t & ~31, v = 0;
    for (int l = w; l < w + 32; l++) v += (l - w) >= (t - w) ? h[l] : 0;  // lane t's shuffle sum
    int x = h[t] % 40 + 1, steps = 0;
    do { x = (x & 1) ? 3 * x + 1 : x / 2; steps++; } while (x != 1 && steps < 100);
    int y = h[t] - 20, s = 0;
    while (y > 0) { s += y; y -= 3; }
    int p = 0;
    for (int k = 1; k < 1000; k *= 3) p += h[k % 64];
    bad += (t % 32 == 0 && o[t] != v) + (o[64 + t] != steps) + (o[128 + t] != s) + (o[192 + t] != p);
  }
  printf("%s\\n", bad ? "FAIL" : "OK");
  return bad;
}
"""


@pytest.mark.slow   # about 8 CPU s each: the 100 copies of the do-while
@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_shift_multiply_do_while_and_step_3_loops_compute_what_the_host_does(tmp_path, capsys, engine):
    f = tmp_path / "s.cu"
    f.write_text(SHAPES)
    code = minicuda_main(["run", str(f), "-arch", "sm_90", "--engine", engine, "-q"])
    assert (code, capsys.readouterr().out) == (0, "OK\n")


@pytest.mark.slow   # about 5 CPU s
def test_shift_multiply_do_while_and_step_3_loops_unroll_as_nvcc_does(tmp_path, capsys):
    assert [line.split(": ", 1)[0] + ": " + line.split(" exit, ")[1] for line in report(tmp_path, capsys, SHAPES)] == [
        "r.cu:4:20: trip count 5, fully unrolled",
        "r.cu:10:12: trip count 100, fully unrolled",
        "r.cu:13:10: trip count unknown, unrolled by 4 with a remainder loop",
        "r.cu:16:19: trip count 7, fully unrolled"]
    fn = minicuda.compile(SHAPES, arch=90).functions["shapes"]
    assert sum(i.op == "SHFL" for i in fn.instructions()) == 5
    # the do-while: one `x != 1` exit per copy but the last (99), no counter test left
    bottom = [i for i in fn.instructions() if i.op == "ISETP" and "NE" in i.mods and Imm(1) in i.srcs]
    assert len(bottom) == 99


def test_an_unrolled_search_branches_once_per_tap():
    """`if (in[j] == key) { pos = j; break; }` unrolled: each tap is one compare and one
    branch to the shared exit (ptxas's `@!P0 BRA` per tap), not a branch over a jump."""
    source = """__global__ void k(int *in, int *out) {
  int key = threadIdx.x % 29 - 7, pos = -1;
  for (int j = 0; j < 32; j++)
    if (in[j] == key) { pos = j; break; }
  out[threadIdx.x] = pos;
}
"""
    fn = minicuda.compile(source, arch=90).functions["k"]
    jumps = [i for i in fn.instructions() if i.op == "BRA"]
    assert len([i for i in jumps if i.guard is not None]) == 32
    assert len([i for i in jumps if i.guard is None]) == 0


def test_a_loop_exit_is_never_predicated_into_the_loop():
    """`for (i < t % 32)` keeps its exit a branch whether unrolled or not: the store after
    the loop stays unguarded, and no EXIT moves into the loop; `if (c) return;` stays @P EXIT."""
    for pragma in ("", "#pragma unroll 1"):
        source = f"""__global__ void k(int *o, int n) {{
  int t = threadIdx.x, s = 0;
  if (t >= n) return;
  {pragma}
  for (int i = 0; i < t % 32; i++) s += i * t;
  o[t] = s;
}}
"""
        fn = minicuda.compile(source, arch="sm_90").functions["k"]
        guarded = [i.op for i in fn.instructions() if i.guard is not None]
        assert guarded.count("EXIT") == 1 and "STG" not in guarded and "BRA" in guarded


COLLATZ = r"""
#include <cstdio>
__global__ void steps(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = i + 1;
    int s = 0;
    while (x != 1 && s < 500) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        s++;
    }
    out[i] = s;
}
int main()
{
    int *d, h[300], bad = 0;
    cudaMalloc(&d, sizeof(h));
    steps<<<3, 100>>>(d, 300);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 300; i++) {
        unsigned x = i + 1;
        int s = 0;
        while (x != 1 && s < 500) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; }
        bad += s != h[i];
    }
    printf("%d %d %d\n", h[0], h[26], bad);
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_rotated_loop_keeps_the_guard_of_a_test_before_the_counted_one(tmp_path, capsys, engine):
    # `while (x != 1 && s < 500)`: s allows 500 trips, but x is 1 on entry for i == 0, so the
    # loop runs no iteration there: rotation keeps the guard of the header's test (x != 1)
    path = tmp_path / "collatz.cu"
    path.write_text(COLLATZ)
    assert minicuda_main(["run", "--engine", engine, str(path)]) == 0
    assert capsys.readouterr().out == "0 111 0\n"


def test_a_do_while_is_fully_unrolled_unless_its_pragma_says_not(tmp_path, capsys):
    source = """__global__ void k(int *in, int *out) {
  int x = in[threadIdx.x], s = 0;
  PRAGMA
  do { x = x * 3 + 1; s++; } while (x != 7 && s < 10);
  out[threadIdx.x] = s;
}
"""
    assert report(tmp_path, capsys, source.replace("PRAGMA", ""))[0] == \
        "r.cu:4:37: k: divergent exit, trip count 10, fully unrolled"
    assert report(tmp_path, capsys, source.replace("PRAGMA", "#pragma unroll 1"))[0] == \
        "r.cu:4:37: k: divergent exit, trip count 10, not unrolled (#pragma unroll 1)"


def test_a_loop_whose_values_start_unknown_gets_its_remainder_loop_first():
    """`while (x > 0) x -= 3;` with x loaded: LLVM's prologue remainder (no value of the
    loop starts as a constant), then the by-4 loop, not unrolled again by ptxas (nvcc 13:
    unroll2 while_sub3, 2 back edges, the remainder's first)."""
    source = """__global__ void k(int *in, int *out) {
  int x = in[threadIdx.x];
  while (x > 0) x -= 3;
  out[threadIdx.x] = x;
}
"""
    fn = minicuda.compile(source, arch=90).functions["k"]
    order = [b.label for b in fn.blocks]
    steps, seen_at_back_edges = 0, []
    for block in fn.blocks:
        for ins in block.instrs:
            steps += ins.op == "ISUB" and Imm(3) in ins.srcs
            if ins.op == "BRA" and ins.guard is not None and order.index(ins.target) <= order.index(block.label):
                seen_at_back_edges.append(steps)
    assert seen_at_back_edges == [1, 1 + 4]


def test_copies_into_unrolled_shared_accesses_keep_the_32_bit_window():
    """copy-propagation rewrites an address's base into the copy's source: an LDS/STS of a
    32-bit shared offset ([R.U32]) must stay one (bitonic_sort's unrolled swap lost it and
    stored through a 64-bit pair: an out-of-bounds STS at 0x200000000)."""
    import minicuda
    from minicuda.ir import Mem, Reg
    source = (Path(__file__).parents[1] / "programs" / "cxx_corpus" / "bitonic_sort.cu").read_text()
    module = minicuda.compile(source, arch="sm_90", opt=3).module
    accesses = [s for b in module.functions["bitonicShared"].blocks for ins in b.instrs if ins.op in ("LDS", "STS")
                for s in ins.srcs if isinstance(s, Mem) and isinstance(s.base, Reg)]
    assert accesses and all(m.window for m in accesses)


# a division-stepped butterfly, a CSR row of data-dependent length, and the same row with a
# store in the loop (its bound stays a load in the loop: LICM may not hoist it)
ROWS = """#include <stdio.h>
__global__ void rows(const int *p, const int *a, int *out, int *spill) {
  int r = threadIdx.x, s = a[r], d = 0;
  for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffff, s, m);
  for (int k = p[r]; k < p[r + 1]; k++) d += a[k];
  int w = 0;
  for (int k = p[r]; k < p[r + 1]; k++) { w += a[k]; spill[r] = w; }
  out[r] = s + d * 1000 + w * 1000000;
}
int main() {
  int hp[65], ha[400], o[64], *dp, *da, *dout, *dspill;
  hp[0] = 0;
  for (int r = 0; r < 64; r++) hp[r + 1] = hp[r] + (r * 7 + r / 5) % 10;
  for (int i = 0; i < 400; i++) ha[i] = (i * 53 + 7) % 101 - 50;
  cudaMalloc(&dp, sizeof(hp)); cudaMalloc(&da, sizeof(ha));
  cudaMalloc(&dout, sizeof(o)); cudaMalloc(&dspill, sizeof(o));
  cudaMemcpy(dp, hp, sizeof(hp), cudaMemcpyHostToDevice);
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  rows<<<1, 64>>>(dp, da, dout, dspill);
  cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < 64; r++) {
    int s = 0, d = 0;
    for (int l = r & ~31; l < (r & ~31) + 32; l++) s += ha[l];
    for (int k = hp[r]; k < hp[r + 1]; k++) d += ha[k];
    bad += o[r] != s + d * 1000 + d * 1000000;
  }
  printf("%s\\n", bad ? "FAIL" : "OK");
  return bad;
}
"""


@pytest.mark.slow   # about 6 CPU s
@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_division_steps_and_csr_rows_compute_what_the_host_does(tmp_path, capsys, engine):
    f = tmp_path / "rows.cu"
    f.write_text(ROWS)
    code = minicuda_main(["run", str(f), "-arch", "sm_90", "--engine", engine, "-q"])
    assert (code, capsys.readouterr().out) == (0, "OK\n")


def test_division_steps_and_csr_rows_unroll_as_nvcc_does(tmp_path, capsys):
    """`m /= 2` from 16: 5 trips, fully unrolled (the o3loop probes' dv_*: 0 branches on the
    GPU); a CSR row reads its bound once and is unrolled by 4 (csr_*: ptxas's 16/8/4 shape);
    with a store in the loop the bound is read every trip and the loop stays."""
    lines = report(tmp_path, capsys, ROWS)
    assert [line.split(": ", 1)[0] + ": " + line.split(" exit, ")[1] for line in lines] == [
        "r.cu:4:20: trip count 5, fully unrolled",
        "r.cu:5:22: trip count unknown, unrolled by 4 with a remainder loop",
        "r.cu:7:22: trip count unknown, not unrolled (its test computes more than one comparison)"]
    fn = minicuda.compile(ROWS, arch=90).functions["rows"]
    assert sum(i.op == "SHFL" for i in fn.instructions()) == 5

"""g-shape (passes/g_shape.py): the -G listing has nvcc -G's blocks, and the `branch` metric
counts what ncu's smsp__sass_branch_targets counts (BRA, a user function's CALL, RET; a
BRA no thread takes too; EXIT never) on both engines alike.

The listing checks are FileCheck's CHECK / CHECK-NEXT in order, on `minicudac
--emit=sass-like -G` of a small kernel (labels and registers as regular expressions)."""
from __future__ import annotations

import json
import re

import pytest

from minicuda.cli import minicuda_main, minicudac_main


def listing(tmp_path, capsys, source: str, *options: str) -> list[str]:
    path = tmp_path / "k.cu"
    path.write_text(source)
    assert minicudac_main([str(path), "-G", "--emit=sass-like", *options]) == 0
    return [line.split("//")[0].strip() for line in capsys.readouterr().out.splitlines()]


def check(lines: list[str], checks: str) -> None:
    """`CHECK: re` finds the next line matching re; `NEXT: re` is the line right after
    the last match.  `{L}` stands for a label, `{P}` for a predicate register."""
    at = -1
    for row in checks.strip().splitlines():
        kind, pattern = (part.strip() for part in row.split(":", 1))
        regex = re.compile(pattern.replace("{L}", r"\.L\w+").replace("{P}", r"P\d") + "$")
        if kind == "NEXT":
            assert at + 1 < len(lines) and regex.match(lines[at + 1]), (row, lines[at + 1:at + 4])
            at += 1
        else:
            found = next((k for k in range(at + 1, len(lines)) if regex.match(lines[k])), None)
            assert found is not None, (row, lines[at + 1:])
            at = found


IF_THEN = """__global__ void k(int *out, int n) {
  int t = threadIdx.x;
  int v = 0;
  if (t < n) v = 7;
  out[t] = v;
}"""

IF_ELSE = """__global__ void k(float *out) {
  int t = threadIdx.x;
  float a = 0.0f, b = 0.0f;
  if (t % 2 == 0) a = 100.0f; else b = 200.0f;
  out[t] = a + b;
}"""

FOR_LOOP = """__global__ void k(int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  out[threadIdx.x] = s;
}"""


def test_an_if_is_bssy_a_branch_over_the_arm_a_branch_into_it_and_one_out(tmp_path, capsys):
    check(listing(tmp_path, capsys, IF_THEN), r"""
        CHECK: ISETP.LT.S32 {P}, R\d+, R\d+
        NEXT: BSSY B\d, (\.L\w+)
        NEXT: @!{P} BRA {L}
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: MOV R\d+, 7
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: BSYNC B\d
        CHECK: EXIT""")


def test_an_if_else_ends_both_arms_with_a_branch_to_the_join(tmp_path, capsys):
    """mathKernel1's shape: the signed remainder's hammock (one branch, no BRA at the
    arm's end), then the if-else: @!P BRA else / BRA then / then / BRA join / else /
    BRA join / BSYNC."""
    check(listing(tmp_path, capsys, IF_ELSE), r"""
        CHECK: IREM.U32 R\d+, R\d+, R\d+
        NEXT: ISETP.GE.S32 {P}, R\d+, 0
        NEXT: BSSY B\d, {L}
        NEXT: @{P} BRA {L}
        NEXT: {L}:
        NEXT: INEG.S32 R\d+, R\d+
        NEXT: {L}:
        NEXT: BSYNC B\d
        NEXT: SEL R\d+, R\d+, 0xffffffff, {P}
        NEXT: ISETP.EQ.S32 {P}, R\d+, 0
        NEXT: BSSY B\d, {L}
        NEXT: @!{P} BRA {L}
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: MOV R\d+, 100.0
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: MOV R\d+, 200.0
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: BSYNC B\d
        NEXT: FADD R\d+, R\d+, R\d+""")


def test_a_for_loop_tests_at_the_top_and_steps_in_a_latch_block(tmp_path, capsys):
    check(listing(tmp_path, capsys, FOR_LOOP), r"""
        CHECK: BRA {L}
        NEXT: {L}:
        NEXT: ISETP.LT.S32 {P}, R\d+, R\d+
        NEXT: @!{P} BRA {L}
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: IADD.S32 R\d+, R\d+, R\d+
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: IADD.S32 R\d+, R\d+, 1
        NEXT: BRA {L}
        NEXT: {L}:
        CHECK: EXIT""")


def test_pre_volta_has_the_same_branches_under_ssy_and_sync(tmp_path, capsys):
    check(listing(tmp_path, capsys, IF_THEN, "-arch", "sm_60"), r"""
        CHECK: SSY {L}
        NEXT: @!{P} BRA {L}
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: MOV R\d+, 7
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: SYNC""")


def test_o3_code_has_no_g_shape(tmp_path, capsys):
    path = tmp_path / "k.cu"
    path.write_text(IF_ELSE)
    assert minicudac_main([str(path), "--emit=sass-like"]) == 0
    out = capsys.readouterr().out
    assert "BRA" not in out and "IABS" not in out


CALLS = """#include <cstdio>
__device__ __noinline__ int f(int x) { if (x & 1) return x * 3; return x + 1; }
__global__ void k(int *out, int n) {
  int t = threadIdx.x;
  int v = 0;
  if (n > 100) v = 1;   // no thread enters: its @!P BRA still counts
  out[t] = f(t) + f(t + 1) + v;
}
int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  k<<<1, 64>>>(d, 64);
  cudaDeviceSynchronize();
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_the_branch_counter_counts_bra_call_and_ret_as_ncu(tmp_path, capsys, engine):
    """Per warp: the if no thread enters, 1 (its @!P BRA, every thread jumping past the
    arm), then per call of f: CALL, @!P BRA (divergent: odd and even threads), BRA then,
    the then-side's BRA to the return block, the else-side's, the return block's BRA to
    the RET, and RET: 7.  EXIT is not counted."""
    path, metrics = tmp_path / "calls.cu", tmp_path / "m.json"
    path.write_text(CALLS)
    assert minicuda_main(["run", str(path), "-G", "-q", "--engine", engine, "--metrics-json", str(metrics)]) == 0
    launch = json.loads(metrics.read_text())[0]
    warps = 2
    assert (launch["branch"], launch["divergent_branch"]) == (warps * (1 + 2 * 7), warps * 2)


DIVISIONS = r"""#include <cstdio>
__global__ void k(const int *a, const int *b, int *q, int *r) {
  int t = threadIdx.x;
  q[t] = a[t] / b[t];
  r[t] = a[t] % b[t];
}
int main() {
  const int n = 8;
  int a[n] = {7, -7, 7, -7, -2147483647 - 1, -2147483647 - 1, 5, -5};
  int b[n] = {2, 2, -2, -2, -1, 3, 0, 0};
  int q[n], r[n], *da, *db, *dq, *dr;
  cudaMalloc(&da, sizeof a); cudaMalloc(&db, sizeof b); cudaMalloc(&dq, sizeof q); cudaMalloc(&dr, sizeof r);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  k<<<1, n>>>(da, db, dq, dr);
  cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%d %d\n", q[i], r[i]);
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_the_signed_division_hammock_gives_idiv_s32s_values(tmp_path, capsys, engine):
    """Signs, INT_MIN / -1 (wraps) and a zero divisor (all ones), at -G as at -O3."""
    path = tmp_path / "div.cu"
    path.write_text(DIVISIONS)
    outputs = []
    for options in (["-G"], []):
        assert minicuda_main(["run", str(path), "-q", "--engine", engine, *options]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == "3 1\n-3 -1\n-3 1\n3 -1\n-2147483648 0\n-715827882 -2\n-1 -1\n-1 -1\n"


HEADER_CALLS = r"""#include <cstdio>
__global__ void k(int *in, unsigned *u, int *out, float *f) {
  int t = threadIdx.x;
  int v = min(max(in[t], -3), 5) + __shfl_down_sync(0xffffffff, in[t], 1);
  unsigned w = min(u[t], 7u);
  if (t & 1) atomicAdd(&out[64], v);
  f[t] = fmaxf(f[t], 0.5f);
  out[t] = v + (int)w;
}
int main() {
  int in[64], out[65] = {0}, *din, *dout;
  unsigned u[64], *du;
  float f[64], *df;
  for (int i = 0; i < 64; i++) { in[i] = i % 13 - 6; u[i] = i * 3; f[i] = i * 0.25f - 4.0f; }
  cudaMalloc(&din, sizeof in); cudaMalloc(&du, sizeof u); cudaMalloc(&dout, sizeof out); cudaMalloc(&df, sizeof f);
  cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(du, u, sizeof u, cudaMemcpyHostToDevice);
  cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, out, sizeof out, cudaMemcpyHostToDevice);
  k<<<1, 64>>>(din, du, dout, df);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(f, df, sizeof f, cudaMemcpyDeviceToHost);
  long s = 0;
  for (int i = 0; i < 65; i++) s += (long)out[i] * (i + 1);
  float g = 0.0f;
  for (int i = 0; i < 64; i++) g += f[i];
  printf("%ld %g\n", s, g);
  return 0;
}
"""


def test_header_functions_are_calls_at_g_and_instructions_at_o3(tmp_path, capsys):
    """nvcc -G's out-of-line header functions (minicuda/builtins.py's G_OUT_OF_LINE): min(int)
    a function computing IMNMX then BRA to its RET; min(unsigned) a wrapper checking its stack
    (one BRA) and calling umin; atomicAdd calling __iAtomicAdd.  -O3 keeps the instructions."""
    lines = listing(tmp_path, capsys, HEADER_CALLS)
    check(lines, r"""
        CHECK: \.device min\(int,int\) .*
        CHECK: IMNMX\.MIN\.S32 R\d+, R\d+, R\d+
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: RET
        CHECK: \.device min\(unsignedint,unsignedint\) .*
        CHECK: .L_entry:
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: CALL R\d+, \$umin\(unsignedint,unsignedint\), R\d+, R\d+
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: RET
        CHECK: \.kernel k .*
        CHECK: CALL R\d+, \$max\(int,int\), R\d+, R\d+
        NEXT: CALL R\d+, \$min\(int,int\), R\d+, 5""")
    assert any("CALL" in l and "$atomicAdd(int*,int)" in l for l in lines)
    assert any("$__iAtomicAdd(int*,int)" in l for l in lines)
    path = tmp_path / "k.cu"
    assert minicudac_main([str(path), "--emit=sass-like"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"^\s*CALL ", out, re.M) and ".device" not in out
    assert "IMNMX.MIN.S32" in out and "ATOM.ADD" in out


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_header_calls_count_as_ncu_and_give_the_same_results(tmp_path, capsys, engine):
    """Per warp: max, min (3 branches each: CALL, BRA, RET), __shfl_down_sync (3), min(unsigned)
    (7: CALL, the wrapper's stack check, its CALL of umin, umin's BRA and RET, the wrapper's BRA
    and RET), the if (3: its divergent @!P BRA, then the then-side's two) around atomicAdd (7, on the then-side), fmaxf (3); the
    results are -O3's."""
    path, metrics = tmp_path / "h.cu", tmp_path / "m.json"
    path.write_text(HEADER_CALLS)
    outputs = []
    for options in (["-G", "--metrics-json", str(metrics)], []):
        assert minicuda_main(["run", str(path), "-q", "--engine", engine, *options]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    launch = json.loads(metrics.read_text())[0]
    warps = 2
    assert (launch["branch"], launch["divergent_branch"]) == (warps * (3 + 3 + 3 + 7 + 3 + 7 + 3), warps)


NESTED_TERNARY = """__global__ void k(int *in, int *out) {
  int v = in[threadIdx.x];
  out[threadIdx.x] = v < -4 ? -v : (v < 0 ? v + 100 : v - 50);
}"""

CONTINUE = """__global__ void k(int *out) {
  int s = 0;
  for (int i = 0; i < 8; i++) {
    if ((i + threadIdx.x) % 3 == 0) continue;
    s += i;
  }
  out[threadIdx.x] = s;
}"""


def test_a_nested_conditional_has_its_own_join_that_branches_to_the_outer_one(tmp_path, capsys):
    """clang -O0's cond.end per `?:`: BSYNC B1 / BRA / BSYNC B0, as ternary_chain's SASS."""
    check(listing(tmp_path, capsys, NESTED_TERNARY, "-arch", "sm_90"), r"""
        CHECK: BSSY B0, ({L})
        CHECK: BSSY B1, ({L})
        CHECK: BSYNC B1
        NEXT: BRA {L}
        NEXT: {L}:
        NEXT: BSYNC B0""")


def test_the_join_of_if_continue_is_a_block_before_the_increment(tmp_path, capsys):
    """loop_continue's SASS: the if's BSYNC in a block of its own, then BRA to `i++`."""
    check(listing(tmp_path, capsys, CONTINUE, "-arch", "sm_90"), r"""
        CHECK: BSSY B0, \.LJ0
        CHECK: \.LJ0:
        NEXT: BSYNC B0
        NEXT: BRA ({L})
        NEXT: {L}:
        NEXT: IADD\.S32 R\d+, R\d+, 1
        NEXT: BRA {L}""")


LOOP_AFTER = """__global__ void k(int *out, const int *in) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < t % 8; j++) s += j;
  if (s > 10) s *= 2;
  out[t] = s;
}
"""


def test_a_loop_whose_exit_may_diverge_is_wrapped_in_a_barrier(tmp_path, capsys):
    """nvcc -G: BSSY before the preheader's BRA, BSYNC where the loop's paths meet (csr_spmv_rows's
    SASS); the remainder's hammock inside the loop keeps its BSSY in its own block."""
    check(listing(tmp_path, capsys, LOOP_AFTER), r"""
        CHECK: BSSY (B\d+), {L}
        NEXT: BRA {L}
        CHECK: BSSY B\d+, {L}
        NEXT: @{P} BRA {L}
        CHECK: @!{P} BRA {L}
        CHECK: BRA {L}
        CHECK: BSYNC B\d+
        NEXT: ISETP.GT.S32 {P}, R\d+, 10
    """)


def test_an_if_in_a_loop_with_a_break_joins_in_the_iteration_and_the_break_leaves_its_barrier(tmp_path, capsys):
    """token_scan_break's shape: the `continue` if's BSSY joins before the increment, the break
    path begins with BREAK of that barrier and goes to the loop's BSYNC; the header's exit goes
    through a block of its own."""
    lines = listing(tmp_path, capsys, BREAK_PROGRAM)
    check(lines, r"""
        CHECK: BSSY (B\d+), {L}
        NEXT: BRA {L}
        CHECK: ISETP.LT.S32 {P}, R\d+, 16
        NEXT: @!{P} BRA {L}
        CHECK: ISETP.EQ.S32 {P}, R\d+, 0
        NEXT: BSSY B\d+, {L}
        CHECK: ISETP.EQ.S32 {P}, R\d+, 5
        CHECK: BREAK B\d+
        NEXT: BRA {L}
        CHECK: BSYNC B\d+
        NEXT: BRA {L}
    """)
    assert sum(line.startswith("BREAK") for line in lines) == 1


BREAK_PROGRAM = r"""#include <cstdio>
__global__ void k(const int *in, int *out) {
  int t = threadIdx.x, s = 0;
  for (int j = 0; j < 16; j++) {
    int v = in[(t * 3 + j) & 63];
    if (v == 0) continue;
    if (v == 5) break;
    s += v * j;
  }
  if (s > 20) s = -s;
  out[t] = s;
}
int main() {
  int h[64], o[64], *d, *e;
  for (int i = 0; i < 64; i++) h[i] = (i * 5 + i / 7) % 7;
  cudaMalloc(&d, sizeof h); cudaMalloc(&e, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 64>>>(d, e);
  cudaMemcpy(o, e, sizeof o, cudaMemcpyDeviceToHost);
  long long s = 0;
  for (int i = 0; i < 64; i++) s += o[i] * (i + 1);
  printf("%lld\n", s);
  return 0;
}
"""


def test_break_and_the_loop_barrier_run_alike_on_both_engines(tmp_path, capsys):
    """BREAK and the loop's BSYNC: the interpreter and the JIT give the same values and counts
    (gshape/'s p_for_break_continue, the same shape without the if after the loop, has the
    GPU's 195 branches / 24 divergent)."""
    path = tmp_path / "b.cu"
    path.write_text(BREAK_PROGRAM)
    results = []
    for engine in ("interp", "jit"):
        metrics = tmp_path / f"{engine}.json"
        assert minicuda_main(["run", str(path), "-G", "-q", "--engine", engine, "--metrics-json", str(metrics)]) == 0
        launch = json.loads(metrics.read_text())[0]
        results.append((capsys.readouterr().out, launch["branch"], launch["divergent_branch"], launch["inst_executed"]))
    assert results[0] == results[1]
    assert results[0][0].strip() == str(sum(o * (i + 1) for i, o in enumerate(_break_reference())))


def _break_reference() -> list[int]:
    h = [(i * 5 + i // 7) % 7 for i in range(64)]
    out = []
    for t in range(64):
        s = 0
        for j in range(16):
            v = h[(t * 3 + j) & 63]
            if v == 0:
                continue
            if v == 5:
                break
            s += v * j
        out.append(-s if s > 20 else s)
    return out

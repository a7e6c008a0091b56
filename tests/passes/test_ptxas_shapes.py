"""-O3's shapes read from ptxas's SASS (docs/fidelity.md): a short-circuit operand that is
cheap and does not load folds into one predicate (fold-conditions), a branch whose target
only exits is a predicated EXIT when its arm is too long to predicate, value arms nest
under PLOP.AND'd guards, and a switch's compare tree keeps its branches where ptxas does.
Each program runs on both engines with the host's answer."""
from pathlib import Path

import pytest

import minicuda
from minicuda.cli import minicuda_main, minicudac_main

MAIN = """
int main() {
  int h[64], *d;
  for (int i = 0; i < 64; i++) h[i] = (i * 37 + 11) % 23 - 7;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 64>>>(d, 5);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  long s = 0;
  for (int i = 0; i < 64; i++) s = s * 31 + h[i];
  printf("%ld\\n", s);
  return 0;
}
"""


def branches(src: str) -> list:
    fn = minicuda.compile(src, opt=3).functions["k"]
    return [i for i in fn.instructions() if i.op == "BRA" and i.guard is not None]


def decisions(src: str) -> dict:
    return {(d.line, d.column): d for d in minicuda.compile(src, opt=3).branch_decisions}


def same_answer(tmp_path, capsys, src: str) -> None:
    path = tmp_path / "k.cu"
    path.write_text("#include <cstdio>\n" + src + MAIN)
    outs = []
    for options in (["-O0"], ["-O3", "--engine", "interp"], ["-O3", "--engine", "jit"]):
        assert minicuda_main(["run", "-q", *options, str(path)]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == outs[2] and outs[0].strip()


AND_OR = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = a[t];
  if ((t % 3 == 0 && v > 0) || v < -5) a[t] = v * v;
  else a[t] = -1;
}
"""


def test_cheap_short_circuit_operands_fold_into_one_predicate(tmp_path, capsys):
    assert branches(AND_OR) == []
    d = decisions(AND_OR)
    assert d[(3, 22)].predicated and d[(3, 22)].reason.startswith("predicated: folded into the branch at 3:8")
    assert d[(3, 32)].reason.startswith("predicated: folded into the branch at 3:8")
    assert d[(3, 8)].predicated
    same_answer(tmp_path, capsys, AND_OR)


LOADING = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = 0;
  if (t > 10 && a[t] > 0) v = a[t] * 2 + 1;
  a[t] = v;
}
"""


def test_an_operand_that_loads_keeps_its_branch(tmp_path, capsys):
    d = decisions(LOADING)
    assert not d[(3, 7)].predicated and "folded" not in d[(3, 17)].reason
    assert len(branches(LOADING)) == 1
    same_answer(tmp_path, capsys, LOADING)


BOUNDS = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, row = t / 8, col = t % 8;
  if (row < n && col < n) a[row * 8 + col] = (a[row * 8 + col] * 3 + row - col) ^ (row + 5);
}
"""


def test_a_long_arm_before_the_exit_is_a_predicated_exit(tmp_path, capsys):
    fn = minicuda.compile(BOUNDS, opt=3).functions["k"]
    assert [i for i in fn.instructions() if i.op == "BRA" and i.guard is not None] == []
    assert [i.guard_neg for i in fn.instructions() if i.op == "EXIT" and i.guard is not None] == [True]
    d = decisions(BOUNDS)[(3, 7)]
    assert d.predicated and "the branch's target only exits" in d.reason and "8 instructions >= 7" in d.reason
    same_answer(tmp_path, capsys, BOUNDS)


CHAIN = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = a[t], r;
  if (v < -3) r = -v;
  else if (v < 2) r = v * 4;
  else if (v < 9) r = v + 100;
  else r = 7;
  a[t] = r;
}
"""


def test_an_if_else_chain_of_values_is_predicated_whole(tmp_path, capsys):
    assert branches(CHAIN) == []
    assert [d.instructions for d in sorted(decisions(CHAIN).values(), key=lambda d: d.line)] == [6, 4, 2]
    same_answer(tmp_path, capsys, CHAIN)


SWITCH = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = a[t];
  switch (t % 4) {
    case 0: v = v + 1; break;
    case 1: v = v * 2; break;
    case 2: v = v - 3; break;
    default: v = -v; break;
  }
  a[t] = v;
}
"""


@pytest.mark.parametrize("selector,kept", [("t % 4", 2), ("n", 3)])
def test_a_switch_keeps_its_compare_tree(tmp_path, capsys, selector, kept):
    """Divergent: only the last test is if-converted (switch_small's SASS); uniform: every
    test stays a branch (switch_uniform's)."""
    src = SWITCH.replace("switch (t % 4)", f"switch ({selector})")
    assert len(branches(src)) == kept
    same_answer(tmp_path, capsys, src)


NEST_WITH_STORE = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = a[t];
  if (t % 2 == 0) {
    v += 10;
    if (v > 5) { v = v * 2; a[t] = v; }
  }
  a[t] += v;
}
"""


def test_a_nest_whose_inner_arm_stores_keeps_its_outer_branch(tmp_path, capsys):
    d = decisions(NEST_WITH_STORE)
    assert not d[(3, 7)].predicated and "memory access" in d[(3, 7)].reason
    assert d[(5, 9)].predicated
    same_answer(tmp_path, capsys, NEST_WITH_STORE)


DENSE = Path(__file__).parents[1] / "fidelity" / "kernels" / "switch_dense.cu"


def switch_tests(src: str, tmp_path) -> list[str]:
    """The sass-like listing's compare tree: each ISETP's comparison and constant in the
    kernel, in order."""
    (tmp_path / "k.cu").write_text(src)
    out = tmp_path / "k.sass"
    assert minicudac_main([str(tmp_path / "k.cu"), "-O3", "-o", str(out)]) == 0
    tests, kernel = [], False
    for line in out.read_text().splitlines():
        words = line.split("//")[0].replace(",", " ").split()
        kernel = (kernel or line.startswith(".kernel")) and not line.startswith(".end")
        if kernel and words and words[0].startswith("ISETP."):
            tests.append(f"{words[0].split('.')[1]} {words[-1]}")
    return tests


def test_a_dense_switch_is_a_balanced_compare_tree(tmp_path, capsys):
    """switch_dense's SASS: seven cases split 3 | 4 at `> 2`, the right half 2 | 2 at `> 4`,
    each leaf tested case by case, its last test branching to the default."""
    src = DENSE.read_text()
    assert switch_tests(src, tmp_path) == ["GE 3", "EQ 0", "EQ 1", "NE 2", "GE 5", "EQ 3", "NE 4", "EQ 5", "NE 6"]
    d = {k: v for k, v in decisions(src).items() if k[0] < 25}   # the kernel's, not the host reference's
    assert not any(x.predicated for x in d.values())
    assert d[(20, 5)].reason.startswith("kept: not an if-then or if-then-else hammock")
    for engine in ("interp", "jit"):
        assert minicuda_main(["run", "-q", "-O3", "--engine", engine, str(DENSE)]) == 0
        assert capsys.readouterr().out == "switch_dense OK\n"


RANGES = """__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = a[t], r = 0;
  switch ((unsigned)(v + 7)) {
    case 0: case 1: case 2: r = v + 1; break;
    case 3: r = 3; break;
    case 5: case 6: r = v * 5; break;
    case 8: r = -v; break;
    case 9: case 10: case 11: case 12: r = t; break;
    case 4294967295u: r = 7; break;
    case 14: break;
    default: r = v ^ 9; break;
  }
  a[t] = r;
}
"""


def test_cases_with_one_destination_are_one_range_test(tmp_path, capsys):
    """Consecutive cases that run the same code are one unsigned range test (value - low <=
    high - low), as LLVM's clusters; the tree is built over the ranges, unsigned here."""
    assert switch_tests(RANGES, tmp_path) == ["GE 8", "LE 2", "EQ 3", "GT 1", "GE 14", "EQ 8", "GT 3",
                                              "EQ 14", "NE 0xffffffff"]
    same_answer(tmp_path, capsys, RANGES)


RETURNS = """__device__ __noinline__ int step(int x, int i) {
  if (x % 2) return x * 3 + i;
  return x / 2 + i;
}

__global__ void k(int *a, int n) {
  int t = threadIdx.x, v = a[t];
  for (int i = 0; i < 4; i++) v = step(v, i) % 1000;
  a[t] = v;
}
"""


def test_a_device_functions_returns_merge_into_one_ret(tmp_path, capsys):
    """devfn_noinline_loop's SASS: `if (c) return a; return b;` is one RET after a predicated
    diamond (LLVM merges the returns, ptxas predicates the arms), so a call counts one CALL and
    one RET."""
    fn = minicuda.compile(RETURNS, opt=3).functions["step"]
    assert [i.op for i in fn.instructions()].count("RET") == 1
    assert not [i for i in fn.instructions() if i.op == "BRA" and i.guard is not None]
    assert [d.predicated for d in decisions(RETURNS).values() if d.function == "step"] == [True]
    same_answer(tmp_path, capsys, RETURNS)

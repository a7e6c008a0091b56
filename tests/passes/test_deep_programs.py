"""Programs as long or as deep as C allows compile and run right, and the result does
not depend on Python's recursion limit: sema, constant evaluation and the lowering
walk long chains (`x+x+...`, `else if`, `a = b = ...`, `!!...x`, `c ? 1 : c ? 2 : ...`)
and nested statements without recursing through them (grammar/nesting.py)."""
import sys
from contextlib import contextmanager

import numpy as np
import pytest

import minicuda
from minicuda.cli import minicuda_main, minicudac_main
from minicuda.grammar import nesting
from minicuda.grammar.astdump import dump

LOW_LIMIT = 400   # far below what any of these programs would need if walked by recursion


@contextmanager
def recursion_limit(limit: int):
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


def kernel(body: str, before: str = "") -> str:
    return before + "\n__global__ void k(int *p, int x) {\n" + body + "\n}\n"


def run_kernel(source: str, x: int, opt: int = 3) -> int:
    """p[0] after k<<<1, 1>>>(p, x), the program compiled under a low recursion limit."""
    with recursion_limit(LOW_LIMIT):
        program = minicuda.compile(source, opt=opt)
    out = np.zeros(2, np.int32)
    program.k[1, 1](out, x)
    return int(out[0])


def plus_chain(n): return kernel("p[0] = " + "+".join(["x"] * n) + ";")
def else_if_chain(n): return kernel("if (x == 0) p[0] = 0;" + "".join(f"\nelse if (x == {i}) p[0] = {i};" for i in range(1, n)) + "\nelse p[0] = -1;")
def assign_chain(n): return kernel("int " + ", ".join(f"v{i}" for i in range(n)) + ";\n" + " = ".join(f"v{i}" for i in range(n)) + f" = x;\np[0] = v0 + v{n - 1};")
def not_chain(n): return kernel("p[0] = " + "!" * n + "x;")
def negations(n): return kernel("p[0] = " + "-(" * n + "x" + ")" * n + ";")
def ternary_chain(n): return kernel("p[0] = " + "".join(f"x == {i} ? {i} : " for i in range(n)) + "-1;")
def comma_chain(n): return kernel("int y = 0;\np[0] = (" + ", ".join(["y++"] * n) + ", y);")
def cast_chain(n): return kernel("p[0] = " + "(int)(long)" * n + "x;")
def and_chain(n): return kernel("p[0] = " + " && ".join(["x"] * n) + ";\nif (" + " || ".join(["x == 0"] * n) + ") p[0] = 9;")
def nested_ifs(n): return kernel("if (x) " * n + "p[0] = 7;")
def nested_loops(n): return kernel("int i = 0;\n" + "while (i < x) " * n + "i++;\np[0] = i;")
def nested_blocks(n): return kernel("{" * (n - 1) + "p[0] = x + 1;" + "}" * (n - 1))   # the body's braces make n
def string_concatenation(n): return kernel("p[0] = sizeof(" + " ".join(['"ab"'] * n) + ");")
def pointer_declarator(n): return kernel("int " + "*" * n + "q = 0;\np[0] = (q == 0) + x;")
def constant_case_label(n): return kernel("switch (x) { case " + "+".join(["1"] * n) + ": p[0] = 5; break; default: p[0] = 6; }")
def initialiser_list(n): return kernel(f"p[0] = g[x] + g[{n - 1}];", "__device__ int g[] = {" + ", ".join(map(str, range(n))) + "};")


# (program, x, the value p[0] gets)
CHAINS = {
    "plus": (plus_chain, 1, lambda n: n),
    "else_if": (else_if_chain, 3, lambda n: 3),
    "else_if_last": (else_if_chain, -5, lambda n: -1),
    "assign": (assign_chain, 21, lambda n: 42),
    "not": (not_chain, 5, lambda n: 1 if n % 2 == 0 else 0),
    "ternary": (ternary_chain, 7, lambda n: 7),
    "ternary_last": (ternary_chain, -2, lambda n: -1),
    "comma": (comma_chain, 0, lambda n: n),
    "cast": (cast_chain, -9, lambda n: -9),
    "and_or": (and_chain, 4, lambda n: 1),
    "nested_ifs": (nested_ifs, 1, lambda n: 7),
    "nested_loops": (nested_loops, 3, lambda n: 3),
    "strings": (string_concatenation, 0, lambda n: 2 * n + 1),
    "pointers": (pointer_declarator, 2, lambda n: 3),
    "case_label": (constant_case_label, 0, lambda n: 6),
}


SLOW_CHAINS = {"else_if", "else_if_last", "and_or", "ternary", "ternary_last", "nested_loops"}


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW_CHAINS else name
                                  for name in sorted(CHAINS)])
def test_a_long_chain_compiles_and_runs_under_a_low_recursion_limit(name):
    make, x, expected = CHAINS[name]
    n = 600
    assert run_kernel(make(n), x, opt=0) == expected(n)


def test_a_constant_label_as_long_as_the_chain_matches():
    n = 3000
    assert run_kernel(constant_case_label(n), n, opt=0) == 5


@pytest.mark.parametrize("opt", [0, 3])
def test_the_deepest_nesting_the_bracket_limit_allows_runs_under_a_low_recursion_limit(opt):
    assert run_kernel(nested_blocks(256), 4, opt) == 5
    assert run_kernel(negations(255), 6, opt) == -6


def test_operands_nested_in_brackets_on_the_right_lower_within_the_default_limit():
    # only the chain of first operands is walked early; a right operand nested in brackets
    # is lowered by recursion, which the bracket limit keeps within Python's default
    source = kernel("p[0] = " + "x + (" * 255 + "x" + ")" * 255 + ";")
    with recursion_limit(1000):
        program = minicuda.compile(source, opt=0)
    out = np.zeros(2, np.int32)
    program.k[1, 1](out, 1)
    assert out[0] == 256


def test_a_long_chain_lowers_to_the_same_instructions_as_by_recursion(monkeypatch):
    """The early walk changes how deep the walk recurses, never what comes out."""
    source = kernel("p[1] = 1;\np[0] = " + " + ".join(f"step(p, {i})" for i in range(300)) + ";",
                    "__device__ int step(int *p, int i) { p[1] = p[1] * 3 + i; return p[1]; }")
    walked = minicuda.compile(source, opt=0)
    monkeypatch.setattr(nesting, "SPAN", 10**9)
    with recursion_limit(20_000):
        recursive = minicuda.compile(source, opt=0)
    assert walked.ir_before == recursive.ir_before
    assert dump(walked.frontend.tu) == dump(recursive.frontend.tu)


def test_a_program_that_exhausts_pythons_stack_is_a_located_error(tmp_path, capsys):
    # an expression inside 2,000 levels of calls, each an operand: beyond what a walk can keep shallow
    path = tmp_path / "deep.cu"
    path.write_text(kernel("p[0] = " + "f(" * 2000 + "x" + ")" * 2000 + ";", "__device__ int f(int v) { return v; }"))
    with recursion_limit(LOW_LIMIT):
        status = minicudac_main([str(path), "-fbracket-depth=5000", "-o", str(tmp_path / "out.sass")])
    err = capsys.readouterr().err
    assert status == 1 and "internal compiler error" not in err
    assert f"{path}:3:" in err and "nests too deeply" in err


def test_blocks_nested_five_thousand_deep_run_when_the_bracket_limit_allows(tmp_path):
    source = nested_blocks(5000)
    with recursion_limit(LOW_LIMIT):
        program = minicuda.compile(source, bracket_depth=5000)
    out = np.zeros(2, np.int32)
    program.k[1, 1](out, 1)
    assert out[0] == 2


@pytest.mark.slow
@pytest.mark.parametrize("name", ["plus", "else_if", "ternary", "assign", "not", "comma", "nested_ifs"])
def test_a_chain_of_ten_thousand_compiles_and_runs(name):
    make, x, expected = CHAINS[name]
    n = 10_000
    assert run_kernel(make(n), x, opt=0) == expected(n)


@pytest.mark.slow
def test_a_fifty_thousand_element_initialiser_list_runs(tmp_path, capsys):
    path = tmp_path / "init.cu"
    n = 50_000
    path.write_text(initialiser_list(n) + """
#include <cstdio>
int main() {
  int *d; cudaMalloc(&d, 2 * sizeof(int));
  k<<<1, 1>>>(d, 7);
  int h[2]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\\n", h[0]);
  return 0;
}
""")
    assert minicuda_main(["run", str(path)]) == 0
    assert capsys.readouterr().out == f"{7 + n - 1}\n"

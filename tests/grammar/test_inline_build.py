"""The AST built while parsing (grammar/inline_build.py) is the parse tree's AST.

`parse` builds the AST during the LALR parse; with `build_inline=False` it builds a
parse tree and runs the Transformer over it, the way programs with errors take.  Both
must give the same tree, node for node, with the same locations (operators' too).

Every program's trees are compared in the slow step (-m slow); every suite run compares
those of QUICK, programs that between them use every grammar rule and every token type that
any of the programs uses (each parse is mostly the implicit CUDA runtime's declarations,
the same in every program, so the whole set on every run cost a quarter of the suite).
"""
import pathlib

import pytest
from lark import Lark

from helpers import ROOT, SAMPLES
from minicuda.diagnostics import DiagnosticEngine
from minicuda.frontend import preprocess_only
from minicuda.grammar import ast as A
from minicuda.grammar.parser import parse

# the C++ corpus is left out: its programs need their -I folders and many do not compile yet
# (tests/programs/test_cxx_corpus.py runs them)
CORPUS = ROOT / "tests" / "programs" / "cxx_corpus"
PROGRAMS = sorted(p for p in (ROOT / "tests" / "programs").rglob("*.cu") if CORPUS not in p.parents)
# chosen greedily (the samples first) until their parse trees held every rule name and token
# type that the trees of SAMPLES + PROGRAMS hold: a program using a rule none of these uses
# is still compared, in the slow step
QUICK = {
    "samples/reduceInteger.cu",
    "samples/simpleDivergence.cu",
    "samples/sumMatrix.cu",
    "samples/vectorAdd.cu",
    "samples/warpLock.cu",
    "tests/programs/cxx_language/timer_argv.cu",
    "tests/programs/cxx_language/modern_syntax.cu",
    "tests/programs/cxx_language/functors_and_aggregates.cu",
    "tests/programs/cxx_language/lambdas.cu",
    "tests/programs/cxx_language/namespaces_enums.cu",
    "tests/programs/cxx_language/trailing_returns_array_refs.cu",
    "tests/programs/cxx_language/std_vector.cu",
    "tests/programs/cxx_language/unseen_matrix_class.cu",
    "tests/programs/sanitize/race_missing_syncwarp.cu",
    "tests/programs/cuda_runtime/api_symbols.cu",
    "tests/programs/cxx_language/qualified_members.cu",
    "tests/programs/cxx_language/special_members_and_operator_templates.cu",
    "tests/programs/cxx_language/namespace_alias.cu",
    "tests/programs/cuda_runtime/vec_types_sizes.cu",
    "tests/programs/cxx_language/constexpr_functions.cu",
    "tests/programs/cuda_runtime/api_func_attributes.cu",
    "tests/programs/cuda_runtime/vec_float4_ldg.cu",
    "tests/programs/cxx_language/structs_and_qualified_tags.cu",
    "tests/programs/cxx_language/new_delete.cu",
    "tests/programs/cxx/classes_host.cu",
    "tests/programs/cxx_language/function_pointers.cu",
    "tests/programs/cxx_language/vecraw_placement_new.cu",
    "tests/programs/cxx_language/class_templates.cu",
    "tests/programs/cxx_language/std_algorithms.cu",
}

# what the programs and samples use little: parentheses around operands (their
# container widens the operands' text), casts, templates, structs, pragmas, launches,
# string pieces, character escapes, initialiser lists, comma expressions
CONSTRUCTS = r'''
#include <stdio.h>
typedef struct { int x; float y[3]; } Pair;
struct Node { struct Node *next; unsigned long long v; };
union U { int i; float f; };
template <typename T, int N> __device__ T scaled(T v) { return v * (T)N; }
__constant__ float table[4] = {1.0f, 2.0f, (3.0f), 4.0f,};
__global__ void __launch_bounds__(128, 2) kern(const int *__restrict__ in, int *out, int n)
{
    __shared__ int tile[128];
    int t = (blockIdx.x * (blockDim.x)) + threadIdx.x, k = 0;
    #pragma unroll 4
    for (int i = 0; i < 4; ++i)
        k += ((in[(t + i) % n]) << 1) ^ ~(i);
    tile[threadIdx.x] = (k > 3 ? (k) : -k), k--;
    __syncthreads();
    out[t] = scaled<int, 3>(tile[(threadIdx.x + 1) % 128]) + (int)sizeof(Pair) + sizeof k;
}
int main(void)
{
    Pair p = {1, {2.0f, 3.0f}};
    const char *s = "a\tb" "\x41\101" "\n";
    char c = '\'';
    int *d;
    cudaMalloc((void **)&d, 4 * sizeof(int));
    kern<<<dim3(1), 128>>>(d, d, 4);
    do { p.x = ((p.x) * 2); } while (!(p.x > 100) && (p.x != 0));
    switch (p.x) { case 1: break; default: p.x = (int)(float)(p.x); }
    printf("%s %c %d %f\n", s, c, p.x, (double)table[0]);
    return 0;
}
'''


def _same(a, b, seen: dict) -> str | None:
    """Where two trees differ, or None."""
    if type(a) is not type(b):
        return f"{type(a).__name__} != {type(b).__name__}"
    if isinstance(a, A.Node):
        if id(a) in seen:
            return None if seen[id(a)] is b else "shared differently"
        seen[id(a)] = b
        if vars(a).keys() != vars(b).keys():
            return f"{type(a).__name__} fields {sorted(vars(a))} != {sorted(vars(b))}"
        for name, value in vars(a).items():
            if (where := _same(value, getattr(b, name), seen)) is not None:
                return f"{type(a).__name__}.{name}: {where}"
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if (where := _same(x, y, seen)) is not None:
                return f"[{i}] {where}"
        return None
    return None if a == b else f"{a!r} != {b!r}"


def _both_ways(source: str):
    """(the AST built inline, the parse tree's); the inline build must not fall back
    to the parse tree (Lark.parse) for a program without errors."""
    pp, _ = preprocess_only(source)
    diags = DiagnosticEngine()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Lark, "parse", _no_parse_tree)
        inline = parse(pp, diags)
    assert not diags.diagnostics
    tree = parse(pp, DiagnosticEngine(), build_inline=False)
    return inline, tree


def _no_parse_tree(*args, **kwargs):
    raise AssertionError("the inline build fell back to the parse tree")


def test_the_quick_programs_exist():
    assert QUICK <= {p.relative_to(ROOT).as_posix() for p in SAMPLES + PROGRAMS}


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.name, marks=[] if p.relative_to(ROOT).as_posix() in QUICK else [pytest.mark.slow])
    for p in SAMPLES + PROGRAMS])
def test_inline_ast_is_the_parse_trees(path: pathlib.Path):
    inline, tree = _both_ways(str(path))
    assert (inline is None) == (tree is None)
    assert _same(tree, inline, {}) is None


def test_inline_ast_of_less_common_constructs():
    inline, tree = _both_ways(CONSTRUCTS)
    assert tree is not None and inline is not None
    assert _same(tree, inline, {}) is None


def test_parenthesised_operands_widen_their_operators_text():
    """`(a) + b` covers the parenthesis: the Binary's location starts there."""
    inline, _ = _both_ways("int f(int a, int b) { return (a) + b; }\n")
    f = next(d for d in inline.decls if isinstance(d, A.FunctionDef) and d.name == "f")
    ret = f.body.items[0]
    assert (ret.value.loc.col, ret.value.loc.length) == (30, 7)
    assert ret.value.op_loc.col == 34


def test_errors_are_reported_as_the_parse_tree_reports_them():
    """A program the inline build cannot finish (a syntax error, an error the
    Transformer raises) is reported by the parse tree's way, at the same places."""
    sources = ["int main() { int x = 1 return x; }\nint g( { }\n",
               'int main() { const char *s = "\\q"; return 0; }\n',
               "typedef int T; unsigned T x;\n"]
    for source in sources:
        messages = []
        for build_inline in (True, False):
            diags = DiagnosticEngine()
            pp, _ = preprocess_only(source)
            parse(pp, diags, build_inline=build_inline)
            messages.append([d.header() for d in diags.diagnostics])
        assert messages[0] == messages[1] and messages[0]


def test_names_that_start_or_end_like_keywords_stay_names():
    """The inline build's lexer finds keywords by a dict of the identifier's whole text:
    `iffy`, `return_value`, `int_`, `xfor`, `do2` are names; `do`, `if`, `return` keywords."""
    source = ("int iffy(int return_value, int int_) { int xfor = 0, do2 = 1, sizeof_ = 2; "
              "do { if (int_) return return_value + xfor + do2 + sizeof_; } while (0); return 0; }\n")
    inline, tree = _both_ways(source)
    assert _same(tree, inline, {}) is None
    fn = next(d for d in inline.decls if isinstance(d, A.FunctionDef) and d.name == "iffy")
    assert [p.declarator.name for p in fn.declarator.params_suffix.params] == ["return_value", "int_"]

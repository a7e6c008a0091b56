"""Parsing: C precedence, declarations vs expressions, CUDA launches, templates."""
import pytest

from minicuda.cli import minicuda_main
from minicuda.diagnostics import CompileError
from minicuda.frontend import load
from minicuda.grammar import ast as A


def fn(src, name):
    tu = load(src).tu
    return next(f for f in tu.functions if f.name == name)


def stmts(src, name="k"):
    return fn(src, name).body.items


def test_bitand_binds_looser_than_equality():
    s = stmts("__global__ void k(int itid, int *o) { o[0] = itid & 0x01 == 0; }")
    e = s[0].expr.value
    while isinstance(e, A.Cast):
        e = e.operand
    assert isinstance(e, A.Binary) and e.op == "&"
    rhs = e.rhs.operand if isinstance(e.rhs, A.Cast) else e.rhs
    assert isinstance(rhs, A.Binary) and rhs.op == "=="


@pytest.mark.parametrize("expr,top", [
    ("a + b * c", "+"), ("a * b + c", "+"), ("a << 1 + b", "<<"), ("a < b == c < a", "=="),
    ("a | b ^ c & a", "|"), ("a && b || c", "||"), ("a - b - c", "-"),
])
def test_binary_precedence(expr, top):
    s = stmts(f"__global__ void k(int a, int b, int c, int *o) {{ o[0] = {expr}; }}")
    e = s[0].expr.value
    while isinstance(e, A.Cast):
        e = e.operand
    assert isinstance(e, A.Binary) and e.op == top


def test_left_associativity_of_subtraction():
    e = stmts("__global__ void k(int a, int b, int c, int *o) { o[0] = a - b - c; }")[0].expr.value
    assert isinstance(e.lhs, A.Binary) and e.lhs.op == "-"


def test_assignment_is_right_associative_and_chains():
    s = stmts("__global__ void k(float *o) { float a, b; a = b = 0.0f; o[0] = a; }")
    e = s[1].expr
    assert isinstance(e, A.Assign) and isinstance(e.value, A.Assign)


def test_ternary_comma_compound_assign_incdec_sizeof_cast():
    s = stmts("__global__ void k(int *o, int n) { int i = 0, j; j = (i++, --n); o[0] += n > 0 ? (int)sizeof(float) : -1; o[1] <<= 2; }")
    assert isinstance(s[1].expr.value, A.Comma)
    assert isinstance(s[2].expr, A.Assign) and s[2].expr.op == "+="
    assert s[3].expr.op == "<<="


def test_typedef_name_makes_a_declaration_not_a_multiplication():
    s = stmts("typedef int real;\n__global__ void k(int *o) { real * b; b = o; }")
    assert isinstance(s[0], A.DeclStmt) and s[0].declaration.decls[0].name == "b"
    assert str(s[0].declaration.decls[0].ty) == "int *"


def test_plain_identifier_product_is_an_expression():
    s = stmts("__global__ void k(int a, int b) { a * b; }")
    assert isinstance(s[0], A.ExprStmt) and isinstance(s[0].expr, A.Binary)


@pytest.mark.parametrize("launch", ["k<<<g, b>>>(p)", "k<< <g, b>>>(p)", "k<<<g, b, 128>>>(p)", "k<<<g, b, 0, 0>>>(p)"])
def test_kernel_launch_spellings(launch):
    src = f"__global__ void k(int *p) {{}}\nint main() {{ int *p = 0; dim3 g(2), b(32); {launch}; return 0; }}"
    s = stmts(src, "main")
    e = s[2].expr
    assert isinstance(e, A.Launch) and e.decl.name == "k"
    assert str(e.config[0].ty) == "dim3"


def test_template_kernel_definition_and_explicit_launch():
    src = """template <unsigned int iBlockSize>
__global__ void reduceCompleteUnroll(int *g_idata, int *g_odata, unsigned int n) {
  if (iBlockSize >= 1024 && threadIdx.x < 512) g_idata[0] += 1;
}
int main() { int *d = 0; reduceCompleteUnroll<512><<<4, 512>>>(d, d, 8); return 0; }"""
    tu = load(src).tu
    inst = [f for f in tu.functions if f.name == "reduceCompleteUnroll"]
    assert len(inst) == 1 and inst[0].template_args == [512]
    cond = inst[0].body.items[0].cond
    assert isinstance(cond.lhs.lhs, A.IntLit) and cond.lhs.lhs.value == 512


def test_template_type_parameter_is_deduced():
    src = """template <typename T> __device__ T twice(T x) { return x + x; }
__global__ void k(float *f, int *i) { f[0] = twice(f[0]); i[0] = twice<int>(i[0]); }"""
    tu = load(src).tu
    names = sorted(getattr(f, "instance_name", f.name) for f in tu.functions)
    assert names == ["k", "twice<float>", "twice<int>"]


def test_dim3_direct_initialisation_and_struct_member_access():
    s = stmts("int main() { int n = 64; dim3 block (n, 1); dim3 grid((n + block.x - 1) / block.x, 1); return grid.x; }", "main")
    assert isinstance(s[1].declaration.decls[0].init, A.Construct)


def test_literals():
    s = stmts(r"""__global__ void k(float *f, unsigned long long *u, const char **s) {
  f[0] = 1.5e-3f; f[1] = .5; f[2] = 0x10; u[0] = 0xFFFFFFFFull; u[1] = 10u; s[0] = "a" "b\n"; f[3] = 'x'; }""")
    lits = [st.expr.value for st in s]
    unwrap = lambda e: e.operand if isinstance(e, A.Cast) else e
    assert unwrap(lits[0]).value == 1.5e-3 and str(unwrap(lits[0]).ty) == "float"
    assert str(unwrap(lits[1]).ty) == "double"
    assert unwrap(lits[2]).value == 16
    assert str(unwrap(lits[3]).ty) == "unsigned long long"
    assert str(unwrap(lits[4]).ty) == "unsigned int"
    assert unwrap(lits[5]).value == b"ab\n"
    assert unwrap(lits[6]).value == ord("x")


def test_all_statement_kinds():
    src = """__global__ void k(int *o, int n) {
  for (int i = 0; i < n; i++) { if (i == 3) continue; if (i > 5) break; }
  int j = 0; while (j < n) j++; do { j--; } while (j > 0);
  switch (n) { case 1: o[0] = 1; break; case 2: { o[0] = 2; } default: o[0] = 0; }
  for (;;) { break; }
  for (j = 0; ; j++) { if (j) break; }
  for (; j < 4;) j++;
  if (n) return; else { return; }
}"""
    s = stmts(src)
    kinds = [type(x).__name__ for x in s]
    assert kinds == ["For", "DeclStmt", "While", "DoWhile", "Switch", "For", "For", "For", "If"]
    assert s[5].cond is None and s[5].step is None
    assert s[6].cond is None and s[6].step is not None
    assert s[7].cond is not None and s[7].step is None


def test_pragma_unroll_attaches_to_the_following_loop():
    s = stmts("__global__ void k(int *o) {\n#pragma unroll 4\n  for (int i = 0; i < 8; i++) o[i] = i;\n}")
    loop = next(x for x in s if isinstance(x, A.For))
    assert loop.pragmas == ["unroll 4"]


def test_structs_typedefs_arrays_and_shared_memory():
    src = """typedef struct { float x; int n; } Pair;
struct Node { int v; struct Node *next; };
__constant__ float coef[4];
__global__ void k(Pair *p, struct Node *q) {
  __shared__ float tile[16][17];
  extern __shared__ int dyn[];
  tile[threadIdx.y][threadIdx.x] = p->x + coef[1];
  dyn[threadIdx.x] = q->next->v + p[0].n;
}"""
    f = fn(src, "k")
    tile = f.body.items[0].declaration.decls[0]
    assert tile.space == "shared" and str(tile.ty) == "float[17][16]" or tile.ty.length == 16
    assert tile.ty.length == 16 and tile.ty.elem.length == 17
    assert f.body.items[1].declaration.decls[0].ty.length is None


def test_syntax_error_points_after_the_previous_token():
    with pytest.raises(CompileError) as e:
        load("__global__ void k(int *p) {\n  p[0] = 1\n}\n")
    d = e.value.diagnostics[0]
    assert d.message == "expected ';' after expression" and (d.loc.line, d.loc.col) == (2, 11)


def test_every_broken_function_is_reported():
    with pytest.raises(CompileError) as e:
        load("void a() { int x = ; }\nvoid b() { return 1 }\nvoid c() { int y; y = z; }\n")
    lines = [d.loc.line for d in e.value.diagnostics]
    assert lines == [1, 2, 3]


def test_a_function_pointer_typedef_declares_its_name_and_not_its_parameters(tmp_path, capsys):
    """`typedef void (*callback_t)(int count, float *data);` names callback_t only: the
    parameters stay free for the program's own `count` and `data` (g++'s output below)."""
    src = tmp_path / "callbacks.cu"
    src.write_text("""#include <cstdio>
typedef float real;
typedef void (*callback_t)(int count, float *data);
typedef void handler(int code);
typedef real (*unary)(real);
typedef size_t (*sizer)(size_t n);
typedef float (*table_t[2])(float x);
void show(int count, float *data) { printf("%d %.1f\\n", count, data[0]); }
void on(int code) { printf("code %d\\n", code); }
real square(real x) { return x * x; }
size_t twice(size_t n) { return 2 * n; }
int main() {
    float data[2] = {1.5f, 2.5f};
    int count = 2, code = 7;
    callback_t cb = show;
    handler *h = on;
    unary u = square;
    sizer z = twice;
    table_t t = {square, square};
    cb(count, data);
    h(code);
    printf("%.1f %zu %.2f\\n", u(3.0f), z(21), t[1](0.5f));
    return 0;
}
""")
    assert minicuda_main(["run", "--no-cache", str(src)]) == 0
    assert capsys.readouterr().out == "2 1.5\ncode 7\n9.0 42 0.25\n"

"""Semantic analysis: types and conversions, overloads, execution spaces."""
import pytest

from minicuda.diagnostics import CompileError
from minicuda.frontend import load
from minicuda.grammar import ast as A
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar import types as T


def errors(src):
    with pytest.raises(CompileError) as e:
        load(src)
    return [(d.loc.line, d.loc.col, d.message) for d in e.value.diagnostics if d.severity != "note"]


def body(src, name="k"):
    return next(f for f in load(src).tu.functions if f.name == name).body.items


def strip(e):
    while isinstance(e, A.Cast) and e.implicit:
        e = e.operand
    return e


@pytest.mark.parametrize("a,b,result", [
    ("int", "unsigned int", "unsigned int"), ("int", "long", "long"), ("unsigned int", "long", "long"),
    ("unsigned long", "long long", "unsigned long long"), ("char", "short", "int"), ("int", "float", "float"),
    ("float", "double", "double"), ("bool", "bool", "int"), ("unsigned char", "int", "int"),
])
def test_usual_arithmetic_conversions(a, b, result):
    s = body(f"__global__ void k({a} x, {b} y, double *o) {{ o[0] = x + y; }}")
    assert str(strip(s[0].expr.value).ty) == result


def test_implicit_conversions_are_spelled_out():
    s = body("__global__ void k(float *c, int i) { c[i] = i; }")
    value = s[0].expr.value
    assert isinstance(value, A.Cast) and value.implicit and str(value.ty) == "float"
    index = s[0].expr.target.index
    assert isinstance(index, A.Cast) and str(index.ty) == "long"


def test_comparison_yields_bool_and_threadidx_is_unsigned():
    s = body("__global__ void k(int *o) { bool b = threadIdx.x < 3; o[0] = b; }")
    init = strip(s[0].declaration.decls[0].init)
    assert str(init.ty) == "bool" and str(strip(init.lhs).ty) == "const unsigned int"


def test_pointer_arithmetic_and_difference():
    s = body("__global__ void k(int *p, int *q, long *o) { int *r = p + 3; o[0] = q - p; r += 2; }")
    assert str(s[0].declaration.decls[0].init.ty) == "int *"
    assert str(strip(s[1].expr.value).ty) == "long"


def test_sizeof_struct_layout_and_size_t():
    s = body("struct S { char c; double d; int i; };\n__global__ void k(unsigned long *o) { o[0] = sizeof(struct S); o[1] = sizeof(int[10]); }")
    assert str(s[0].expr.value.ty) == "unsigned long"
    tu = load("struct S { char c; double d; int i; };\nint main() { return 0; }").tu


def test_overloads_pick_the_exact_builtin():
    s = body("__global__ void k(float *f, int *i, unsigned int *u) { atomicAdd(f, 1.0f); atomicAdd(i, 1); atomicAdd(u, 1u); }")
    params = [str(st.expr.decl.ty.params[0]) for st in s]
    assert params == ["float *", "int *", "unsigned int *"]


def test_min_of_mixed_arguments_uses_the_common_type():
    s = body("__global__ void k(float *f, int i) { f[0] = min(i, 2.0f); }")
    assert str(strip(s[0].expr.value).decl.ty.ret) == "float"


@pytest.mark.parametrize("call,host,device", [
    ("sin(x)", "float", "float"), ("sqrt(x)", "float", "float"), ("fabs(x)", "float", "float"),
    ("abs(x)", "float", "float"), ("fma(x, x, x)", "float", "float"), ("pow(x, 2.5f)", "float", "float"),
    ("sin(d)", "double", "double"), ("sqrt(n)", "double", "double"),
    # libstdc++'s templates promote arguments that are not all float to double, in device
    # code too (nvcc 13 on an H100: sizeof(pow(x, 2)) is 8 in a kernel)
    ("pow(x, 2)", "double", "double"), ("pow(x, 2.0)", "double", "double"), ("fmax(x, 1)", "double", "double"),
    ("atan2(x, d)", "double", "double"), ("pow(n, 2)", "double", "double"),
])
def test_math_functions_of_a_float_are_float_in_the_global_namespace_as_in_cuda(call, host, device):
    src = (f"__global__ void k(float x, double d, int n, double *o) {{ o[0] = {call}; }}\n"
           f"void h(float x, double d, int n, double *o) {{ o[0] = {call}; }}")
    for name, expected in (("h", host), ("k", device)):
        assert str(strip(body(src, name)[0].expr.value).decl.ty.ret) == expected, name


def test_default_arguments_are_filled_in():
    s = body("__global__ void k(int *o) { __syncwarp(); o[0] = __shfl_down_sync(0xffffffff, o[0], 1); }")
    assert len(s[0].expr.args) == 1
    assert len(strip(s[1].expr.value).args) == 4


def test_cuda_malloc_accepts_any_pointer_to_pointer_as_cuda_does():
    load("int main() { float *d; cudaMalloc(&d, 16); cudaMalloc((void **)&d, 16); cudaFree(d); return 0; }")


def test_void_pointer_needs_a_cast_in_cplusplus():
    assert errors("int main() { float *h = malloc(4); return 0; }") == [
        (1, 25, "cannot initialize a variable of type 'float *' with an rvalue of type 'void *'")]
    load("int main() { float *h = (float *)malloc(4); free(h); return 0; }")


def test_const_template_and_array_sizes_fold():
    s = body("#define DIM 128\nconst int N = 2 * DIM;\n__global__ void k(int *o) { __shared__ int s[N / 4 + (1 << 2)]; o[0] = s[0]; }")
    assert s[0].declaration.decls[0].ty.length == 68


def test_execution_space_errors_use_nvccs_words():
    src = """int hostf() { return 1; }
__device__ int devf() { return 2; }
__global__ void k(int *p) { p[0] = hostf(); }
int main() { return devf(); }"""
    assert errors(src) == [
        (3, 36, 'calling a __host__ function("hostf") from a __global__ function("k") is not allowed'),
        (4, 21, 'calling a __device__ function("devf") from a __host__ function("main") is not allowed'),
    ]


def test_host_device_function_may_call_both_but_warns_on_host_only():
    fe = load("int h() { return 1; }\n__host__ __device__ int hd() { return h(); }\nint main() { return hd(); }")
    assert [d.severity for d in fe.diags.diagnostics] == ["warning"]


def test_kernels_must_be_configured_and_only_kernels_may_be():
    assert [m for _, _, m in errors("__global__ void k() {}\nvoid h() {}\nint main() { k(); h<<<1, 1>>>(); return 0; }")] == [
        "a __global__ function call must be configured", "a host function call cannot be configured"]


def test_all_errors_are_reported_not_just_the_first():
    errs = errors("__global__ void k(int *p) { p[0] = a; p[1] = b; int *q = 1.0f; }")
    assert [m for _, _, m in errs] == ["use of undeclared identifier 'a'", "use of undeclared identifier 'b'",
                                      "cannot initialize a variable of type 'int *' with an rvalue of type 'float'"]


def test_builtin_variables_are_read_only_and_device_only():
    assert errors("__global__ void k() { threadIdx.x = 1; }")[0][2] == \
        "cannot assign to variable 'threadIdx' with const-qualified type 'const uint3'"
    assert "only available in device code" in errors("int main() { return blockIdx.x; }")[0][2]


def test_types_module_prim_words():
    assert T.prim_from_words(["unsigned", "long", "long", "int"]) == "unsigned long long"
    assert T.prim_from_words(["short", "int"]) == "short"
    assert T.prim_from_words(["unsigned"]) == "unsigned int"
    assert T.prim_from_words(["float", "int"]) is None


def test_translation_unit_lists_functions_and_globals_without_walking_them_twice():
    tu = load("""
__device__ int g;
int h = 2;
template <int N> __global__ void fill(int *p) { p[0] = N; }
__global__ void k(int *p) { p[0] = g; }
int main() { fill<3><<<1, 1>>>(0); return 0; }
""").tu
    assert [v.name for v in tu.global_vars] == ["g", "h"]
    assert sorted(getattr(f, "instance_name", f.name) for f in tu.functions) == ["fill<3>", "k", "main"]
    defined = [n for n in A.walk(tu) if isinstance(n, A.FunctionDef) and n.body is not None and not n.is_template
               and not is_system_location(n.loc)]   # the program's own, not the headers' inline functions
    assert len(defined) == len({id(f) for f in defined}) == 3   # functions and global_vars are references


@pytest.mark.parametrize("head, tail", [("struct __align__(16) S", ""), ("struct __attribute__((aligned(16))) S", ""),
                                        ("struct alignas(16) S", ""), ("struct S", " __attribute__((aligned(16)))")])
def test_a_structs_requested_alignment_sets_its_alignment_and_size(head, tail):
    """CUDA's __align__(N) (its <vector_types.h> spells it __attribute__((aligned(N)))), GCC's
    attribute before the tag or after the body, and alignas(N): sizeof 16 and alignof 16, as g++."""
    unit = load(f"{head} {{ int a, b, c; }}{tail};\nstruct T {{ char c; S s; }};\n"
                "__global__ void k(unsigned long *o) { o[0] = sizeof(S); o[1] = alignof(S); o[2] = sizeof(T); }")
    s = next(f for f in unit.tu.functions if f.name == "k").body.items
    sizes = [strip(item.expr.value) for item in s]
    assert [(e.type_name.ty.size, e.type_name.ty.align) for e in sizes[:2]] == [(16, 16), (16, 16)]
    assert [e.align for e in sizes] == [False, True, False] and sizes[2].type_name.ty.size == 32


def test_cudas_vector_types_have_cudas_alignment():
    unit = load("__global__ void k(float4 *a, int2 *b, double2 *c, char3 *d, short4 *e) {}")
    params = next(f for f in unit.tu.functions if f.name == "k").params
    assert [(p.ty.base.size, p.ty.base.align) for p in params] == [(16, 16), (8, 8), (16, 16), (3, 1), (8, 8)]

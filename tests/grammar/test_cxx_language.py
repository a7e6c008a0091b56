"""C++ beyond classes in the frontend: how the parser reads it (qualified names as one
token, references as declarator parts, new/delete, enums, aliases) and what sema makes
of it (references read as dereferenced pointers, bound by address or through a
temporary; namespaces as scopes; enumerators as constants; auto and decltype)."""
from minicuda.diagnostics import DiagnosticEngine
from minicuda.frontend import load, preprocess_only
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.parser import parse


def function(src, name):
    return next(f for f in load(src).tu.functions if f.name == name)


def test_qualified_names_are_one_token_tagged_by_their_last_part():
    src = "namespace a { namespace b { struct S { int x; }; int f(int v) { return v; } } }\n" \
          "int g() { a::b::S s; s.x = 1; return a :: b :: f(s.x); }\n"
    body = function(src, "g").body.items
    assert body[0].declaration.specs.type_name == "a::b::S"
    assert body[2].value.func.name == "a::b::f" and body[2].value.decl.name == "a::b::f"


def test_references_are_declarator_parts_and_rvalue_references_are_kept_apart():
    fn = function("void f(int &a, const float &b, int *&c) {}", "f")
    assert [str(t) for t in fn.ty.params] == ["int &", "const float &", "int *&"]
    assert all(isinstance(t, T.Reference) for t in fn.ty.params)
    pp, _ = preprocess_only("void g(int &&a);")
    d = parse(pp, DiagnosticEngine()).decls[-1]
    assert d.decls[0].declarator.suffixes[0].params[0].declarator.pointers[0].reference == "&&"


def test_a_reference_reads_as_its_pointer_dereferenced_and_binds_by_address():
    body = function("int f(int x) { int &r = x; r = 3; return r; }", "f").body.items
    init = body[0].declaration.decls[0].init
    assert isinstance(init, A.Unary) and init.op == "&" and isinstance(init.operand, A.Name)
    target = body[1].expr.target
    assert isinstance(target, A.Unary) and target.op == "*" and isinstance(target.operand.ty, T.Pointer)


def test_a_const_reference_to_an_rvalue_binds_to_a_temporary():
    body = function("float f(int x) { const float &r = x + 1; return r; }", "f").body.items
    init = body[0].declaration.decls[0].init
    assert isinstance(init, A.Materialize) and str(init.operand.ty) == "float"


def test_new_and_delete_allocate_with_malloc_and_free():
    body = function("void f(int n) { int *p = new int[n]; int *q = new int(3); delete q; delete[] p; }", "f").body.items
    new_array = body[0].declaration.decls[0].init
    assert isinstance(new_array, A.New) and new_array.alloc.decl.name == "malloc" and new_array.init is None
    new_one = body[1].declaration.decls[0].init
    assert isinstance(new_one.init, A.IntLit) and new_one.init.value == 3
    assert body[2].expr.free.decl.name == "free" and body[3].expr.array


def test_array_new_of_a_class_keeps_its_count_constructor_and_cookie():
    src = "struct C { int v; C() : v(1) {} ~C() {} };\nstruct D { double d; D() : d(0) {} };\n" \
          "void f(int n) { C *c = new C[n]; D *d = new D[3]; delete[] c; delete[] d; }"
    body = function(src, "f").body.items
    with_dtor, without = body[0].declaration.decls[0].init, body[1].declaration.decls[0].init
    assert with_dtor.cookie == 8 and with_dtor.each.ctor.name == "C::C" and T.unqual(with_dtor.count.ty) == T.SIZE_T
    assert without.cookie == 0 and without.each.ctor.name == "D::D"
    assert body[2].expr.cookie == 8 and body[2].expr.destroy.decl.name == "C::~C" and body[3].expr.cookie == 0


def test_a_braced_list_assigned_to_a_struct_is_its_aggregate_initialisation_and_to_a_scalar_its_element():
    src = "struct P { float x, y; };\nvoid f(P *p, int *i) { p->x = 0; *p = {1.0f, 2.0f}; *i = {3}; *i = {}; }"
    body = function(src, "f").body.items
    struct_value, scalar_value, zero = (s.expr.value for s in body[1:4])
    assert isinstance(struct_value, A.InitList) and struct_value.ty.name == "P" and len(struct_value.items) == 2
    assert isinstance(scalar_value, A.IntLit) and scalar_value.value == 3
    assert T.unqual(zero.ty) == T.INT and zero.value == 0


def test_enumerators_are_constants_of_the_enums_type_and_scoped_ones_need_their_name():
    fn = function("enum E : short { A = 2, B }; enum class F { X = 7, Y };\nint f() { return B + F::Y; }", "f")
    value = fn.body.items[0].value
    lits = [n for n in A.walk(value) if isinstance(n, A.IntLit)]
    assert [(l.value, str(l.ty)) for l in lits] == [(3, "short"), (8, "int")]


def test_auto_and_decltype_take_the_initialisers_type():
    body = function("void f(const int *p) { auto a = p[0] * 2.0f; auto *q = p; const auto &r = a; "
                    "decltype(a) d = 1; }", "f").body.items
    types = [str(s.declaration.decls[0].ty) for s in body]
    assert types == ["float", "const int *", "const float &", "float"]


def test_using_declarations_and_directives_bring_names_in():
    src = "namespace m { int v = 4; int w = 5; }\nusing m::v;\nint f() { using namespace m; return v + w; }"
    names = [n.decl.name for n in A.walk(function(src, "f").body) if isinstance(n, A.Name)]
    assert names == ["m::v", "m::w"]


def test_range_for_over_an_array_is_a_counted_loop():
    body = function("int f() { int a[3] = {1, 2, 3}; int s = 0; for (int v : a) s += v; return s; }", "f").body.items
    loop = body[2]
    assert isinstance(loop, A.For) and loop.cond.rhs.operand.value == 3 and str(loop.cond.lhs.ty) == "long"


def test_a_namespaces_template_sees_its_namespace_and_is_instantiated_without_copying_it():
    src = "namespace u { int helper(int v) { return v * 3; }\n" \
          "template <typename T> T tripled(T x) { return helper(x); } }\nint f() { return u::tripled(4); }"
    tu = load(src).tu
    inst = tu.instantiations[0]
    tmpl = next(f for f in tu.decls[-2].decls if isinstance(f, A.FunctionDef) and f.is_template)
    assert inst.home is tmpl.home and inst.home is not None
    assert next(n for n in A.walk(inst.body) if isinstance(n, A.Call)).decl.name == "u::helper"

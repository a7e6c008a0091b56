"""Lambdas (C++11): each lambda expression is an object of a class of its own.

`[captures](params) mutable -> R { body }` defines a closure class with one field per
captured variable (a copy for `x` / `=`, a pointer for `&x` / `&`; one `char` when it
captures nothing, as a C++ closure has size 1) and a member `operator()` whose body is
the lambda's, const unless `mutable`, in the execution space of the function around it.
The expression itself is that class's braced initialiser: the captured values (or
addresses) in field order.  Calls go through the class's operator() (classes.py), so a
lambda can be called directly, stored in `auto`, and passed to a function template.

Inside the body, every automatic variable of the enclosing function is shadowed by a
`CaptureSym`: a captured one reads as `this->x` (`*this->x` by reference); with a
capture-default, the first use of one captures it; without one, using it is clang's
error, except a `const` integer with a constant initialiser, which is its value.  The
return type is `R`, else the type of the first `return` (void without one).  Not
supported, each named where it is written: capturing `this`, generic lambdas (`auto`
parameters), and `__device__` lambdas in host code (nvcc's --extended-lambda).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from zlib import crc32

from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.grammar.sema.scopes import Abort, ConstSym, Overloads, Scope

CALL_OPERATOR = "operator()"
EMPTY_FIELD = "__empty"


@dataclass
class CaptureSym:
    """An automatic variable of the enclosing function, seen from a lambda's body."""
    name: str
    closure: "Closure"
    decl: object            # the enclosing function's VarDecl / ParamDecl (an outer lambda's CaptureSym)

    @property
    def ty(self) -> T.Type:
        return self.decl.ty


@dataclass
class Closure:
    """A lambda's class while its body is checked: what it captures so far."""
    struct: T.Struct
    default: str | None                               # "copy" / "reference" / None
    fields: list = dataclasses.field(default_factory=list)   # (name, kind, decl) in capture order
    loc: object = None


class Lambdas:
    """Needs from the analyser: `scope`, `fn`, `globals`, `expr`, `value`, `init_list`,
    `declarator_type`, `base_type`, `type_of`, `function_body`, `this_member`,
    `dereference`, `fail`, `error`."""

    def expr_Lambda(self, e: A.Lambda):
        closure = Closure(T.define_struct(_closure_name(e), "class"), None, loc=e.loc)
        scope = Scope(self.scope)
        for name, decl in self.enclosing_locals().items():
            scope.names[name] = self.local_seen_from_lambda(name, decl, closure)
        for kind, name, loc in e.captures:
            self.explicit_capture(closure, scope, kind, name, loc)
        self.complete_closure(closure)
        fn = self.call_operator(e, closure)
        self.function_body(fn, template_scope=scope)
        if getattr(fn, "deduce_return", False):
            fn.ty, fn.deduce_return = dataclasses.replace(fn.ty, ret=T.VOID), False
        return self.closure_object(closure, e.loc)

    def class_name_expr(self, sym, e: A.Name):
        if isinstance(sym, CaptureSym):
            return self.captured(sym, e)
        if getattr(self.fn, "is_lambda", False):
            self.fail("capturing 'this' in a lambda is not supported", e.loc)
        return super().class_name_expr(sym, e)

    # ---- captures ------------------------------------------------------------------------
    def enclosing_locals(self) -> dict:
        """The automatic variables visible here, innermost first (a lambda's own captures
        as the CaptureSyms they are)."""
        out = {}
        s = self.scope
        while s is not None and s is not self.globals:
            for name, sym in s.names.items():
                if name not in out and _is_automatic(sym):
                    out[name] = sym
            s = s.parent
        return out

    def local_seen_from_lambda(self, name: str, decl, closure: Closure):
        value = consteval.constant_variable(decl) if isinstance(decl, A.VarDecl) else None
        if value is not None:   # `const int n = 300;`: its value, no capture needed
            return ConstSym(name, T.unqual(decl.ty), value)
        return CaptureSym(name, closure, decl)

    def explicit_capture(self, closure: Closure, scope: Scope, kind: str, name: str | None, loc) -> None:
        if kind == "this":
            self.fail("capturing 'this' in a lambda is not supported", loc)
        if name is None:
            closure.default = kind
            return
        sym = scope.names.get(name)
        if isinstance(sym, ConstSym):
            sym = CaptureSym(name, closure, self.scope.lookup(name))
            scope.names[name] = sym
        if not isinstance(sym, CaptureSym):
            if self.scope.lookup(name) is None:
                self.fail(f"use of undeclared identifier '{name}'", loc)
            self.fail(f"'{name}' cannot be captured because it does not have automatic storage duration", loc)
        if any(f[0] == name for f in closure.fields):
            self.fail(f"'{name}' can appear only once in a capture list", loc)
        closure.fields.append((name, kind, sym.decl))

    def captured(self, sym: CaptureSym, e: A.Name) -> A.Expr:
        """A use of an enclosing variable in a lambda's body: its capture, made now when
        the lambda has a capture-default."""
        closure = sym.closure
        field = next((f for f in closure.fields if f[0] == sym.name), None)
        if field is None:
            if closure.default is None:
                self.error(f"variable '{sym.name}' cannot be implicitly captured in a lambda with no "
                           f"capture-default specified", e.loc)
                self.diags.note(f"'{sym.name}' declared here", getattr(sym.decl, "loc", None))
                raise Abort()
            field = (sym.name, closure.default, sym.decl)
            closure.fields.append(field)
            self.complete_closure(closure)
        member = self.expr(self.this_member(sym.name, e.loc))
        if field[1] == "reference":
            return self.dereference(member, T.unqual(member.ty).base)
        return member

    def complete_closure(self, closure: Closure) -> None:
        fields = [(name, _field_type(kind, decl)) for name, kind, decl in closure.fields]
        T.complete_struct(closure.struct, fields or [(EMPTY_FIELD, T.Prim(name="char"))])

    # ---- the closure class ---------------------------------------------------------------
    def call_operator(self, e: A.Lambda, closure: Closure) -> A.FunctionDef:
        """The closure's `operator()`, declared (its body is checked next)."""
        s = closure.struct
        for p in e.params:
            if "auto" in p.specs.type_words:
                self.fail("generic lambdas ('auto' parameters) are not supported", p.specs.loc or p.loc)
        ret = self.type_of(e.ret) if e.ret is not None else T.INT
        specs = A.DeclSpecs(loc=e.loc)
        d = A.Declarator(CALL_OPERATOR, suffixes=[A.ParamsSuffix(list(e.params), False, loc=e.loc)], loc=e.loc)
        d.const_method = not e.mutable
        fn = A.FunctionDef(specs, d, e.body, name=f"{s.name}::{CALL_OPERATOR}", loc=e.loc)
        params: list[A.ParamDecl] = []
        ty = self.declarator_type(ret, d, params)
        this = A.ParamDecl(A.DeclSpecs(loc=e.loc), A.Declarator("this", loc=e.loc), loc=e.loc)
        this.ty = T.Pointer(base=T.qualified(s, const=not e.mutable))
        fn.owner, fn.is_static, fn.member_name, fn.member_kind = s, False, CALL_OPERATOR, "method"
        fn.exec_space = self.lambda_space()
        fn.ty = T.Function(ret=ret, params=(this.ty,) + ty.params, variadic=False)
        fn.params = [this] + params
        fn.deduce_return, fn.is_lambda = e.ret is None, True
        info = s.info
        info.methods, info.ctors, info.dtor, info.statics, info.base = \
            {CALL_OPERATOR: Overloads(CALL_OPERATOR, [fn])}, [], None, {}, None
        info.access = {CALL_OPERATOR: ("public", e.loc)}
        return fn

    def lambda_space(self) -> frozenset:
        """A lambda's operator() runs where the function around it runs."""
        if self.fn is None:
            return frozenset({"host"})
        space = set(self.fn.exec_space)
        if "global" in space:
            space = (space - {"global"}) | {"device"}
        return frozenset(space)

    def closure_object(self, closure: Closure, loc) -> A.Expr:
        items = []
        for name, kind, _ in closure.fields:
            value = A.Name(name, loc=loc)
            items.append(A.Unary("&", value, loc=loc) if kind == "reference" else value)
        return self.init_list(A.InitList(items, loc=loc), closure.struct)

    def check_kernel_closures(self, args: list) -> None:
        """A host lambda given to a kernel: nvcc's error (it needs --extended-lambda)."""
        for a in args:
            s = T.unqual(a.ty)
            fn = getattr(s, "info", None) and s.info.methods.get(CALL_OPERATOR)
            if not (isinstance(s, T.Struct) and fn and getattr(fn.functions[0], "is_lambda", False)):
                continue
            op = fn.functions[0]
            if "device" not in op.exec_space:
                self.fail(f"The closure type for a lambda (defined at {op.loc}) cannot be used in the template "
                          f"argument type of a __global__ function template instantiation, unless the lambda is "
                          f"defined within a __device__ or __global__ function, or the lambda is an 'extended "
                          f"lambda' and the flag --extended-lambda is specified", a.loc)

    def deduce_return_type(self, s: A.Return) -> None:
        """`return v;` in a lambda without `-> R`: the first return gives its type."""
        v = self.value(s.value) if s.value is not None else None
        ret = T.VOID if v is None else T.unqual(v.ty)
        self.fn.ty, self.fn.deduce_return = dataclasses.replace(self.fn.ty, ret=ret), False
        s.value = v


def _is_automatic(sym) -> bool:
    if isinstance(sym, CaptureSym):
        return True
    if isinstance(sym, A.ParamDecl):
        return sym.declarator.name != "this"
    return isinstance(sym, A.VarDecl) and not sym.is_global_scope and "static" not in sym.specs.storage \
        and "extern" not in sym.specs.storage and sym.space in ("local", "param")


def _field_type(kind: str, decl) -> T.Type:
    ty = decl.ty.base if isinstance(decl.ty, T.Reference) else decl.ty
    if kind == "reference":
        return T.Pointer(base=ty)
    return T.unqual(ty) if not isinstance(ty, T.Array) else ty


def _closure_name(e: A.Lambda) -> str:
    """A name no other lambda of the program has: the file and place it is written."""
    file = getattr(e.loc, "file", "") or ""
    return f"__lambda_{crc32(str(file).encode()) & 0xffff:04x}_{e.loc.line}_{e.loc.col}"

"""Semantic analysis: scopes, types, conversions, CUDA execution spaces, templates.

`check(tu, diags)` annotates the AST in place: every expression gets `ty`, every
name its declaration, every call the function it calls (after overload resolution
and template instantiation), and implicit conversions become `Cast(implicit=True)`
nodes.  All errors of the file are reported, each located and worded as clang
words it (or, for CUDA's execution-space rules, as nvcc does).

Invariants after a successful check: `tu.functions` lists every function with a body
that may run (templates only as their instantiations); each has `exec_space`,
`ty` and `params` filled in.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from minicuda import builtins
from minicuda.diagnostics import DiagnosticEngine, SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.grammar.preprocess import is_system_location

BUILTIN_VARIABLES = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}
SYMBOL_FUNCTIONS = {"cudaMemcpyToSymbol": 0, "cudaMemcpyFromSymbol": 1}  # which argument is the symbol


@dataclass
class TypedefSym:
    name: str
    ty: T.Type
    loc: SourceLocation | None = None


@dataclass
class ConstSym:
    """A template value parameter bound to its argument."""
    name: str
    ty: T.Type
    value: int


@dataclass
class Overloads:
    name: str
    functions: list[A.FunctionDef] = field(default_factory=list)


class Scope:
    def __init__(self, parent: "Scope | None" = None):
        self.parent = parent
        self.names: dict[str, object] = {}

    def lookup(self, name: str):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


class _Abort(Exception):
    """An expression could not be typed; its error is already reported."""


def space_name(space: frozenset) -> str:
    if "global" in space:
        return "__global__"
    if space == {"host", "device"}:
        return "__host__ __device__"
    return "__device__" if "device" in space else "__host__"


class Sema:
    def __init__(self, diags: DiagnosticEngine):
        self.diags = diags
        self.globals = Scope()
        self.scope = self.globals
        self.tags: dict[str, T.Struct] = {}
        self.fn: A.FunctionDef | None = None
        self.loops = 0
        self.switches: list[dict] = []
        self.functions: list[A.FunctionDef] = []
        self.instances: dict[tuple, A.FunctionDef] = {}
        self.global_vars: list[A.VarDecl] = []

    # ---- reporting ---------------------------------------------------------------------
    def error(self, msg: str, loc: SourceLocation | None) -> None:
        self.diags.error(msg, loc)

    def fail(self, msg: str, loc: SourceLocation | None):
        self.diags.error(msg, loc)
        raise _Abort()

    # ---- translation unit ------------------------------------------------------------------
    def check(self, tu: A.TranslationUnit) -> A.TranslationUnit:
        self.poisoned = tu.poisoned
        for decl in tu.decls:
            try:
                if isinstance(decl, A.FunctionDef):
                    self.declare_function(decl)
                elif isinstance(decl, A.Declaration):
                    self.declaration(decl, top_level=True)
            except _Abort:
                pass
        for decl in tu.decls:
            if isinstance(decl, A.FunctionDef) and decl.body is not None and not decl.is_template \
                    and decl.ty is not None:  # a declaration with errors has no type to check against
                self.function_body(decl)
        tu.functions = self.functions
        tu.global_vars = self.global_vars
        tu.instantiations = [f for f in self.instances.values()]
        return tu

    # ---- types from declarations -----------------------------------------------------------
    def base_type(self, specs: A.DeclSpecs) -> T.Type:
        loc = specs.loc
        if specs.struct is not None:
            if specs.type_words or specs.type_name:
                end = getattr(specs.struct, "end", None)
                if specs.struct.members is not None and end is not None:
                    self.fail(f"expected ';' after {specs.struct.kind}", end)
                self.fail("cannot combine with previous declaration specifier", loc)
            ty = self.struct_type(specs.struct)
        elif specs.type_name is not None:
            if specs.type_words:
                self.fail(f"cannot combine with previous '{specs.type_words[-1]}' declaration specifier", loc)
            ty = self.named_type(specs.type_name, loc)
        elif specs.type_words:
            name = T.prim_from_words(specs.type_words)
            if name is None:
                self.fail(f"cannot combine with previous '{specs.type_words[0]}' declaration specifier", loc)
            ty = T.Prim(name=name)
        else:
            self.fail("a type specifier is required for all declarations", loc)
        if "const" in specs.qualifiers:
            ty = T.qualified(ty, const=True)
        if "volatile" in specs.qualifiers:
            ty = T.qualified(ty, volatile=True)
        return ty

    def undeclared(self, name: str, loc):
        if name in self.poisoned:  # declared, perhaps, where a syntax error was reported
            raise _Abort()
        self.fail(f"use of undeclared identifier '{name}'", loc)

    def named_type(self, name: str, loc) -> T.Type:
        sym = self.scope.lookup(name)
        if isinstance(sym, TypedefSym):
            return sym.ty
        if name in self.tags:
            return self.tags[name]
        self.fail(f"unknown type name '{name}'", loc)

    def struct_type(self, spec: A.StructSpec) -> T.Struct:
        if spec.members is None:
            if spec.tag in self.tags:
                return self.tags[spec.tag]
            s = T.define_struct(spec.tag, spec.kind)  # a forward declaration
            self.tags[spec.tag] = s
            return s
        if spec.tag and spec.tag in self.tags and self.tags[spec.tag].info.fields is None:
            s = self.tags[spec.tag]
        else:
            if spec.tag and spec.tag in self.tags:
                self.fail(f"redefinition of '{spec.tag}'", spec.loc)
            s = T.define_struct(spec.tag or "", spec.kind)
            if spec.tag:
                self.tags[spec.tag] = s
        members: list[tuple[str, T.Type]] = []
        seen: set[str] = set()
        for m in spec.members:
            base = self.base_type(m.specs)
            for d in m.declarators:
                ty = self.declarator_type(base, d)
                if d.name in seen:
                    self.error(f"duplicate member '{d.name}'", d.loc)
                if T.is_void(ty) or (isinstance(ty, T.Struct) and ty.info.fields is None):
                    self.error(f"field has incomplete type '{ty}'", d.loc)
                    continue
                seen.add(d.name)
                members.append((d.name, ty))
        T.complete_struct(s, members)
        return s

    def declarator_type(self, base: T.Type, d: A.Declarator, params_out: list | None = None) -> T.Type:
        ty = base
        for p in d.pointers:
            ty = T.Pointer(base=ty, const="const" in p.qualifiers, volatile="volatile" in p.qualifiers,
                           restrict=any(q.startswith("__restrict") or q == "restrict" for q in p.qualifiers))
        for suffix in reversed(d.suffixes):
            if isinstance(suffix, A.ArraySuffix):
                if isinstance(ty, T.Function):
                    self.fail("function cannot return array type", d.loc)
                length = None
                if suffix.size is not None:
                    length = self.array_length(suffix.size)
                ty = T.Array(elem=ty, length=length)
            else:
                if isinstance(ty, T.Array):
                    self.fail(f"function cannot return array type '{ty}'", d.loc)
                params = self.parameters(suffix)
                if params_out is not None:
                    params_out[:] = params
                ty = T.Function(ret=ty, params=tuple(p.ty for p in params), variadic=suffix.variadic)
        return ty

    def array_length(self, size: A.Expr) -> int:
        e = self.value(size)
        if not T.is_integer(e.ty):
            self.fail(f"size of array has non-integer type '{e.ty}'", size.loc)
        n = self.const_eval(e)
        if n is None:
            self.fail("variable length array declaration not supported: array size is not a constant expression", size.loc)
        if n < 0:
            self.fail("array size is negative", size.loc)
        return int(n)

    def parameters(self, suffix: A.ParamsSuffix) -> list[A.ParamDecl]:
        params = suffix.params
        if len(params) == 1 and not params[0].declarator.name and not params[0].declarator.pointers \
                and not params[0].declarator.suffixes and params[0].specs.type_words == ["void"]:
            return []
        seen = set()
        for p in params:
            ty = self.declarator_type(self.base_type(p.specs), p.declarator)
            if isinstance(ty, T.Array):
                ty = T.Pointer(base=ty.elem, const=ty.const)
            if T.is_void(ty):
                self.fail("argument may not have 'void' type", p.loc)
            p.ty = ty
            if p.declarator.name:
                if p.declarator.name in seen:
                    self.error(f"redefinition of parameter '{p.declarator.name}'", p.loc)
                seen.add(p.declarator.name)
            if p.default is not None:
                p.default = self.convert(self.value(p.default), ty, "parameter", p.default.loc)
        return params

    # ---- declarations ----------------------------------------------------------------------
    def declaration(self, decl: A.Declaration, top_level: bool = False) -> None:
        specs = decl.specs
        try:
            base = self.base_type(specs)
        except _Abort:
            self.poisoned.update(v.name for v in decl.decls)
            raise
        if "typedef" in specs.storage:
            for v in decl.decls:
                ty = self.declarator_type(base, v.declarator)
                self.scope.names[v.name] = TypedefSym(v.name, ty, v.loc)
            return
        for v in decl.decls:
            try:
                if v.declarator.params_suffix is not None and v.init is None and v.declarator.ctor_args is None:
                    fn = A.FunctionDef(specs, v.declarator, None, name=v.name, loc=v.loc)
                    self.declare_function(fn)
                    continue
                self.variable(v, base, top_level)
            except _Abort:
                if self.scope.names.get(v.name) is not v:
                    self.poisoned.add(v.name)  # reported once, at its declaration

    def variable(self, v: A.VarDecl, base: T.Type, top_level: bool) -> None:
        specs = v.specs
        ty = self.declarator_type(base, v.declarator)
        cuda = set(specs.cuda)
        v.is_global_scope = top_level
        if "__shared__" in cuda:
            v.space = "shared"
            if not top_level and self.fn is not None and "host" in self.fn.exec_space and "device" not in self.fn.exec_space:
                self.fail('a static "__shared__" variable declaration is not allowed inside a host function body', v.loc)
            if v.init is not None:
                self.error("initialization is not supported for __shared__ variables", v.init.loc)
        elif "__constant__" in cuda:
            v.space = "constant"
            if not top_level:
                self.fail("a \"__constant__\" variable declaration is not allowed inside a function body", v.loc)
        elif "__device__" in cuda and top_level:
            v.space = "builtin" if v.name in BUILTIN_VARIABLES and is_system_location(v.loc) else "global"
        elif top_level:
            v.space = "host"
        elif "static" in specs.storage:
            self.fail("static local variables are not supported", v.loc)
        if isinstance(ty, T.Array) and ty.length is None:
            if isinstance(v.init, A.InitList):
                ty = T.Array(elem=ty.elem, length=len(v.init.items), const=ty.const)
            elif isinstance(v.init, A.StringLit):
                ty = T.Array(elem=ty.elem, length=len(v.init.value) + 1, const=ty.const)
            elif not ("extern" in specs.storage and v.space == "shared") and "extern" not in specs.storage:
                self.fail(f"definition of variable with array type needs an explicit size or an initializer", v.loc)
        if T.is_void(ty):
            self.fail("variable has incomplete type 'void'", v.loc)
        if isinstance(ty, T.Struct) and ty.info.fields is None and "extern" not in specs.storage:
            self.fail(f"variable has incomplete type '{ty}'", v.loc)
        if isinstance(ty, T.Function):
            self.fail("function definition is not allowed here", v.loc)
        v.ty = ty
        prev = self.scope.names.get(v.name)
        if prev is not None and not (top_level and isinstance(prev, A.VarDecl) and ("extern" in prev.specs.storage or "extern" in specs.storage)):
            self.error(f"redefinition of '{v.name}'", v.loc)
            if getattr(prev, "loc", None) is not None:
                self.diags.note("previous definition is here", prev.loc)
        self.scope.names[v.name] = v
        if v.declarator.ctor_args is not None:
            v.init = self.construct(ty, v.declarator.ctor_args, v.loc)
        elif v.init is not None:
            v.init = self.initializer(v.init, ty)
        elif ty.const and not top_level and "extern" not in specs.storage:
            self.error(f"default initialization of an object of const type '{ty}'", v.loc)
        if top_level and not is_system_location(v.loc):
            self.global_vars.append(v)

    def initializer(self, init, ty: T.Type):
        if isinstance(init, A.InitList):
            init.ty = ty
            if isinstance(ty, T.Array):
                if ty.length is not None and len(init.items) > ty.length:
                    self.error("excess elements in array initializer", init.items[ty.length].loc)
                init.items = [self.initializer(i, ty.elem) for i in init.items]
            elif isinstance(ty, T.Struct):
                fields = list(ty.info.fields.values())
                if len(init.items) > len(fields):
                    self.error("excess elements in struct initializer", init.items[len(fields)].loc)
                init.items = [self.initializer(i, f[0]) for i, f in zip(init.items, fields)]
            elif len(init.items) == 1:
                return self.initializer(init.items[0], ty)
            elif not init.items and T.is_scalar(ty):
                zero = A.IntLit(0, "0", loc=init.loc)
                zero.ty = T.INT
                return self.convert(zero, ty, "initializing", init.loc)
            else:
                self.fail(f"excess elements in scalar initializer", init.loc)
            return init
        if isinstance(ty, T.Array) and isinstance(init, A.StringLit) and T.unqual(ty.elem) in (T.CHAR, T.Prim(name="unsigned char"), T.Prim(name="signed char")):
            init.ty = T.Array(elem=T.Prim(name="char", const=True), length=len(init.value) + 1)
            if ty.length is not None and len(init.value) > ty.length:
                self.error(f"initializer-string for char array is too long", init.loc)
            return init
        if isinstance(ty, T.Array):
            self.fail("array initializer must be an initializer list", init.loc)
        return self.convert(self.value(init), ty, "initializing", init.loc)

    # ---- functions -------------------------------------------------------------------------
    def function_space(self, fn: A.FunctionDef) -> frozenset:
        cuda = set(fn.specs.cuda)
        if "__global__" in cuda:
            if cuda & {"__device__", "__host__"}:
                self.error(f"a __global__ function cannot also be declared {'__device__' if '__device__' in cuda else '__host__'}", fn.loc)
            return frozenset({"global"})
        space = set()
        if "__device__" in cuda:
            space.add("device")
        if "__host__" in cuda or not space:
            space.add("host")
        for bad in ("__shared__", "__constant__"):
            if bad in cuda:
                self.error(f"'{bad}' cannot be applied to a function", fn.loc)
        return frozenset(space)

    def declare_function(self, fn: A.FunctionDef) -> None:
        fn.exec_space = self.function_space(fn)
        fn.is_builtin = fn.body is None and is_system_location(fn.loc)
        if fn.is_template:
            self.add_overload(fn, check_signature=False)
            return
        base = self.base_type(fn.specs)
        params: list[A.ParamDecl] = []
        if fn.declarator.ctor_args is not None:  # `void k(Foo *p)`: Foo read as a value
            for arg in fn.declarator.ctor_args:
                name = next((n for n in A.walk(arg) if isinstance(n, A.Name)), None)
                if name is not None and self.scope.lookup(name.name) is None:
                    self.fail(f"unknown type name '{name.name}'", name.loc)
        ty = self.declarator_type(base, fn.declarator, params)
        if not isinstance(ty, T.Function):
            self.fail(f"expected function declarator for '{fn.name}'", fn.loc)
        fn.ty, fn.params = ty, params
        if "global" in fn.exec_space and not T.is_void(ty.ret):
            self.error("a __global__ function must have a void return type", fn.loc)
        if fn.name == "main" and not T.unqual(ty.ret) == T.INT:
            self.error("'main' must return 'int'", fn.loc)
        self.add_overload(fn, check_signature=True)

    def add_overload(self, fn: A.FunctionDef, check_signature: bool) -> None:
        sym = self.globals.names.get(fn.name)
        if sym is None:
            sym = Overloads(fn.name)
            self.globals.names[fn.name] = sym
        elif not isinstance(sym, Overloads):
            self.fail(f"redefinition of '{fn.name}' as different kind of symbol", fn.loc)
        if check_signature:
            for other in sym.functions:
                if other.is_template or other.ty is None:
                    continue
                if _same_params(other.ty, fn.ty):
                    if T.unqual(other.ty.ret) != T.unqual(fn.ty.ret):
                        self.fail(f"functions that differ only in their return type cannot be overloaded", fn.loc)
                    if other.body is not None and fn.body is not None:
                        self.error(f"redefinition of '{fn.name}'", fn.loc)
                        self.diags.note("previous definition is here", other.loc)
                        return
                    if other.exec_space != fn.exec_space and not other.is_builtin:
                        self.error(f"redeclaration of '{fn.name}' with different execution space "
                                   f"({space_name(fn.exec_space)} vs {space_name(other.exec_space)})", fn.loc)
                    if fn.body is not None:  # the definition replaces the prototype
                        _copy_defaults(other, fn)
                        sym.functions[sym.functions.index(other)] = fn
                    return
        sym.functions.append(fn)

    def function_body(self, fn: A.FunctionDef, template_scope: Scope | None = None) -> None:
        saved = (self.fn, self.scope, self.loops, self.switches)
        self.fn = fn
        self.scope = Scope(template_scope or self.globals)
        self.loops, self.switches = 0, []
        try:
            for p in fn.params:
                if p.declarator.name:
                    self.scope.names[p.declarator.name] = p
            self.scope = Scope(self.scope)
            fn.body.items = [self.statement(s) for s in fn.body.items]
            self.functions.append(fn)
        finally:
            self.fn, self.scope, self.loops, self.switches = saved

    # ---- statements ------------------------------------------------------------------------
    def statement(self, s: A.Node) -> A.Node:
        method = getattr(self, "stmt_" + type(s).__name__)
        try:
            return method(s)
        except _Abort:
            return s

    def block(self, s: A.Node) -> A.Node:
        self.scope = Scope(self.scope)
        try:
            return self.statement(s)
        finally:
            self.scope = self.scope.parent

    def stmt_Compound(self, s: A.Compound):
        self.scope = Scope(self.scope)
        try:
            s.items = [self.statement(i) for i in s.items]
        finally:
            self.scope = self.scope.parent
        return s

    def stmt_DeclStmt(self, s: A.DeclStmt):
        self.declaration(s.declaration)
        return s

    def stmt_ExprStmt(self, s: A.ExprStmt):
        if s.expr is not None:
            s.expr = self.expr(s.expr)
        return s

    def guarded(self, check, e):
        """check(e), or e unchanged when its error has been reported: the statement goes on."""
        try:
            return check(e)
        except _Abort:
            return e

    def stmt_If(self, s: A.If):
        s.cond = self.guarded(self.condition, s.cond)
        s.then = self.block(s.then)
        if s.else_ is not None:
            s.else_ = self.block(s.else_)
        return s

    def _loop_body(self, body):
        self.loops += 1
        try:
            return self.block(body)
        finally:
            self.loops -= 1

    def stmt_While(self, s: A.While):
        s.cond = self.guarded(self.condition, s.cond)
        s.body = self._loop_body(s.body)
        return s

    def stmt_DoWhile(self, s: A.DoWhile):
        s.body = self._loop_body(s.body)
        s.cond = self.guarded(self.condition, s.cond)
        return s

    def stmt_For(self, s: A.For):
        self.scope = Scope(self.scope)
        try:
            if s.init is not None:
                s.init = self.statement(s.init)
            if s.cond is not None:
                s.cond = self.guarded(self.condition, s.cond)
            if s.step is not None:
                s.step = self.guarded(self.expr, s.step)
            s.body = self._loop_body(s.body)
        finally:
            self.scope = self.scope.parent
        return s

    def stmt_Switch(self, s: A.Switch):
        s.expr = self.guarded(self.switch_value, s.expr)
        self.switches.append({"cases": {}, "default": False})
        try:
            s.body = self.block(s.body)
        finally:
            self.switches.pop()
        return s

    def switch_value(self, expr):
        e = self.value(expr)
        if not T.is_integer(e.ty):
            self.fail(f"statement requires expression of integer type ('{e.ty}' invalid)", expr.loc)
        return self.convert(e, T.promote(e.ty), "switch", expr.loc)

    def stmt_Case(self, s: A.Case):
        if not self.switches:
            self.error("'case' statement not in switch statement", s.loc)
        else:
            v = self.value(s.value)
            n = self.const_eval(v) if T.is_integer(v.ty) else None
            if n is None:
                self.error("expression is not an integral constant expression", s.value.loc)
            else:
                cases = self.switches[-1]["cases"]
                if n in cases:
                    self.error(f"duplicate case value '{n}'", s.value.loc)
                    self.diags.note("previous case defined here", cases[n])
                cases[n] = s.value.loc
                s.const_value = int(n)
            s.value = v
        s.body = self.statement(s.body)
        return s

    def stmt_Default(self, s: A.Default):
        if not self.switches:
            self.error("'default' statement not in switch statement", s.loc)
        elif self.switches[-1]["default"]:
            self.error("multiple default labels in one switch", s.loc)
        else:
            self.switches[-1]["default"] = True
        s.body = self.statement(s.body)
        return s

    def stmt_Break(self, s: A.Break):
        if not self.loops and not self.switches:
            self.error("'break' statement not in loop or switch statement", s.loc)
        return s

    def stmt_Continue(self, s: A.Continue):
        if not self.loops:
            self.error("'continue' statement not in loop statement", s.loc)
        return s

    def stmt_Return(self, s: A.Return):
        ret = self.fn.ty.ret
        if s.value is None:
            if not T.is_void(ret):
                self.error(f"non-void function '{self.fn.name}' should return a value", s.loc)
            return s
        v = self.value(s.value)
        if T.is_void(ret):
            if not T.is_void(v.ty):
                self.error(f"void function '{self.fn.name}' should not return a value", s.loc)
            s.value = v
            return s
        s.value = self.convert(v, ret, "return", s.value.loc)
        return s

    def stmt_Pragma(self, s: A.Pragma):
        return s

    # ---- expressions -----------------------------------------------------------------------
    def expr(self, e: A.Expr) -> A.Expr:
        """Type `e` (no array decay); returns the node to use in its place."""
        if e.ty is not None and not isinstance(e, A.Name):
            return e
        method = getattr(self, "expr_" + type(e).__name__)
        out = method(e)
        assert out.ty is not None, type(e).__name__
        return out

    def value(self, e: A.Expr) -> A.Expr:
        """An rvalue: arrays and functions decay to pointers."""
        e = self.expr(e)
        if isinstance(e.ty, (T.Array, T.Function)):
            return self.implicit(e, T.decay(e.ty))
        return e

    def condition(self, e: A.Expr) -> A.Expr:
        v = self.value(e)
        if not T.is_scalar(v.ty):
            self.fail(f"value of type '{v.ty}' is not contextually convertible to 'bool'", e.loc)
        return self.implicit(v, T.BOOL) if T.unqual(v.ty) != T.BOOL else v

    def implicit(self, e: A.Expr, ty: T.Type) -> A.Expr:
        if e.ty == ty:
            return e
        c = A.Cast(None, e, implicit=True, loc=e.loc)
        c.ty = ty
        return c

    def convert(self, e: A.Expr, to: T.Type, context: str, loc) -> A.Expr:
        """Implicit conversion of the rvalue `e` to `to`, with C++'s rules."""
        src, dst = T.unqual(e.ty), T.unqual(to)
        if src == dst:
            return self.implicit(e, dst) if e.ty != dst else e
        ok = False
        if T.is_arithmetic(src) and T.is_arithmetic(dst):
            ok = True
        elif isinstance(dst, T.Pointer) and isinstance(src, T.Pointer):
            ok = _pointer_convertible(src, dst) or (context == "builtin-arg" and _void_pp(dst, src))
        elif isinstance(dst, T.Pointer) and T.is_integer(src) and self.is_null_constant(e):
            ok = True
        elif dst == T.BOOL and isinstance(src, T.Pointer):
            ok = True
        elif isinstance(dst, T.Struct) and dst.name == "dim3" and (T.is_integer(src) or (isinstance(src, T.Struct) and src.name == "uint3")):
            return self.construct(dst, [e], loc)
        if not ok:
            self.fail(_conversion_message(context, e, to), loc)
        return self.implicit(e, dst)

    def is_null_constant(self, e: A.Expr) -> bool:
        return T.is_integer(e.ty) and self.const_eval(e) == 0

    def expr_Name(self, e: A.Name):
        sym = self.scope.lookup(e.name)
        if sym is None:
            if e.name == "__func__" and self.fn is not None:
                s = A.StringLit(self.fn.name.encode(), loc=e.loc)
                s.ty = T.Array(elem=T.Prim(name="char", const=True), length=len(self.fn.name) + 1)
                return s
            self.undeclared(e.name, e.loc)
        if isinstance(sym, ConstSym):
            lit = A.IntLit(sym.value, str(sym.value), loc=e.loc)
            lit.ty = sym.ty
            return lit
        if isinstance(sym, TypedefSym):
            self.fail(f"unexpected type name '{e.name}': expected expression", e.loc)
        if isinstance(sym, Overloads):
            e.decl = sym
            e.ty = T.Function(ret=T.VOID)
            return e
        e.decl = sym
        e.ty = sym.ty
        self.check_variable_space(sym, e)
        return e

    def check_variable_space(self, sym, e: A.Name) -> None:
        if not isinstance(sym, A.VarDecl) or self.fn is None:
            return
        host_only = "device" not in self.fn.exec_space and "global" not in self.fn.exec_space
        device_only = "host" not in self.fn.exec_space
        if host_only and sym.space == "builtin":
            self.fail(f"'{sym.name}' is only available in device code (used in __host__ function '{self.fn.name}')", e.loc)
        if host_only and sym.space in ("global", "constant", "shared") and not is_system_location(sym.loc):
            kind = {"global": "__device__", "constant": "__constant__", "shared": "__shared__"}[sym.space]
            self.diags.warning(f'a {kind} variable "{sym.name}" cannot be directly read in a host function', e.loc)
        if device_only and sym.space == "host" and not (sym.ty.const and self.const_eval_var(sym) is not None):
            self.fail(f'identifier "{sym.name}" is undefined in device code', e.loc)

    def expr_IntLit(self, e: A.IntLit):
        suffix = "".join(c for c in e.text.lower() if c in "ul") if e.text else ""
        unsigned, longs = "u" in suffix, suffix.count("l")
        decimal = not (e.text[:2].lower() in ("0x", "0b") or (len(e.text) > 1 and e.text[0] == "0"))
        cands = (["int", "long", "long long"] if decimal and not unsigned else
                 ["int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"])
        if unsigned:
            cands = ["unsigned int", "unsigned long", "unsigned long long"]
        if longs == 1:
            cands = [c for c in cands if "long" in c]
        elif longs == 2:
            cands = [c for c in cands if "long long" in c]
        for c in cands:
            t = T.Prim(name=c)
            if e.value < (1 << (t.size * 8 - (1 if t.signed else 0))):
                e.ty = t
                return e
        self.fail("integer literal is too large to be represented in any integer type", e.loc)

    def expr_FloatLit(self, e: A.FloatLit):
        e.ty = T.FLOAT if e.text[-1:] in ("f", "F") else T.DOUBLE
        return e

    def expr_CharLit(self, e: A.CharLit):
        e.ty = T.CHAR
        return e

    def expr_StringLit(self, e: A.StringLit):
        e.ty = T.Array(elem=T.Prim(name="char", const=True), length=len(e.value) + 1)
        return e

    def expr_BoolLit(self, e: A.BoolLit):
        e.ty = T.BOOL
        return e

    def expr_Binary(self, e: A.Binary):
        op = e.op
        if op in ("&&", "||"):
            e.lhs, e.rhs = self.condition(e.lhs), self.condition(e.rhs)
            e.ty = T.BOOL
            return e
        lhs, rhs = self.value(e.lhs), self.value(e.rhs)
        lt, rt = T.unqual(lhs.ty), T.unqual(rhs.ty)
        bad = lambda: self.fail(f"invalid operands to binary expression ('{lhs.ty}' and '{rhs.ty}')", _op(e))
        if op in ("+", "-") and (isinstance(lt, T.Pointer) or isinstance(rt, T.Pointer)):
            return self.pointer_arith(e, lhs, rhs, bad)
        if op in ("<", ">", "<=", ">=", "==", "!=") and (isinstance(lt, T.Pointer) or isinstance(rt, T.Pointer)):
            if isinstance(lt, T.Pointer) and isinstance(rt, T.Pointer):
                if not (_pointer_convertible(lt, rt) or _pointer_convertible(rt, lt)):
                    self.fail(f"comparison of distinct pointer types ('{lhs.ty}' and '{rhs.ty}')", e.loc)
            elif not (self.is_null_constant(lhs) or self.is_null_constant(rhs)):
                self.fail(f"comparison between pointer and integer ('{lhs.ty}' and '{rhs.ty}')", e.loc)
            else:
                ptr = lt if isinstance(lt, T.Pointer) else rt
                lhs, rhs = (lhs, self.implicit(rhs, ptr)) if isinstance(lt, T.Pointer) else (self.implicit(lhs, ptr), rhs)
            e.lhs, e.rhs, e.ty = lhs, rhs, T.BOOL
            return e
        if not (T.is_arithmetic(lt) and T.is_arithmetic(rt)):
            bad()
        if op in ("%", "&", "|", "^", "<<", ">>") and not (T.is_integer(lt) and T.is_integer(rt)):
            bad()
        if op in ("<<", ">>"):
            e.lhs, e.rhs = self.implicit(lhs, T.promote(lt)), self.implicit(rhs, T.promote(rt))
            e.ty = T.promote(lt)
            return e
        common = T.usual_arithmetic(lt, rt)
        e.lhs, e.rhs = self.implicit(lhs, common), self.implicit(rhs, common)
        e.ty = T.BOOL if op in ("<", ">", "<=", ">=", "==", "!=") else common
        return e

    def pointer_arith(self, e: A.Binary, lhs, rhs, bad):
        lt, rt = T.unqual(lhs.ty), T.unqual(rhs.ty)
        if isinstance(lt, T.Pointer) and isinstance(rt, T.Pointer):
            if e.op != "-" or T.unqual(lt.base) != T.unqual(rt.base):
                bad()
            e.lhs, e.rhs, e.ty = lhs, rhs, T.LONG
            return e
        if isinstance(rt, T.Pointer):
            if e.op == "-" or not T.is_integer(lt):
                bad()
            lhs, rhs, lt, rt = rhs, lhs, rt, lt
        if not T.is_integer(rt):
            bad()
        self.require_complete_pointee(lt, e.loc)
        e.lhs, e.rhs = lhs, self.implicit(rhs, T.LONG)
        e.ty = lt
        return e

    def require_complete_pointee(self, ptr: T.Pointer, loc) -> None:
        base = ptr.base
        if T.is_void(base):
            self.fail(f"arithmetic on a pointer to void", loc)
        if isinstance(base, T.Struct) and base.info.fields is None:
            self.fail(f"arithmetic on a pointer to an incomplete type '{base}'", loc)

    def expr_Unary(self, e: A.Unary):
        op = e.op
        if op == "&":
            inner = self.expr(e.operand)
            if isinstance(inner, A.Name) and isinstance(inner.decl, Overloads):
                self.fail("taking the address of a function is not supported", e.loc)
            if not self.is_lvalue(inner):
                self.fail(f"cannot take the address of an rvalue of type '{inner.ty}'", e.loc)
            e.operand, e.ty = inner, T.Pointer(base=inner.ty)
            return e
        v = self.value(e.operand)
        t = T.unqual(v.ty)
        if op == "*":
            if not isinstance(t, T.Pointer):
                self.fail(f"indirection requires pointer operand ('{v.ty}' invalid)", e.loc)
            if T.is_void(t.base):
                self.fail(f"indirection not permitted on operand of type '{v.ty}'", e.loc)
            e.operand, e.ty = v, t.base
            return e
        if op == "!":
            e.operand, e.ty = self.condition(v), T.BOOL
            return e
        if op == "~" and not T.is_integer(t) or op in ("-", "+") and not T.is_arithmetic(t):
            self.fail(f"invalid argument type '{v.ty}' to unary expression", e.loc)
        e.ty = T.promote(t)
        e.operand = self.implicit(v, e.ty)
        return e

    def is_lvalue(self, e: A.Expr) -> bool:
        if isinstance(e, A.Name):
            return isinstance(e.decl, (A.VarDecl, A.ParamDecl))
        if isinstance(e, A.Index) or isinstance(e, A.StringLit):
            return True
        if isinstance(e, A.Unary):
            return e.op == "*"
        if isinstance(e, A.Member):
            return e.arrow or self.is_lvalue(e.base)
        return False

    def assignable(self, target: A.Expr, loc) -> A.Expr:
        t = self.expr(target)
        if not self.is_lvalue(t):
            self.fail("expression is not assignable", loc)
        if isinstance(t.ty, T.Array):
            self.fail(f"array type '{t.ty}' is not assignable", loc)
        if t.ty.const:
            if isinstance(t, A.Name):
                self.fail(f"cannot assign to variable '{t.name}' with const-qualified type '{t.ty}'", loc)
            self.fail("read-only variable is not assignable", loc)
        return t

    def expr_Assign(self, e: A.Assign):
        if isinstance(e.target, A.Member) and isinstance(e.target.base, A.Name) and e.target.base.name in BUILTIN_VARIABLES:
            base = self.expr(e.target.base)
            if isinstance(base.decl, A.VarDecl) and base.decl.space == "builtin":
                self.fail(f"cannot assign to variable '{base.name}' with const-qualified type '{base.ty}'", _op(e))
        target = self.assignable(e.target, _op(e))
        value = self.value(e.value)
        tt = T.unqual(target.ty)
        if e.op == "=":
            e.target, e.value, e.ty = target, self.convert(value, tt, "assigning", e.value.loc), tt
            return e
        op = e.op[:-1]
        vt = T.unqual(value.ty)
        if isinstance(tt, T.Pointer) and op in ("+", "-") and T.is_integer(vt):
            self.require_complete_pointee(tt, e.loc)
            e.target, e.value, e.ty = target, self.implicit(value, T.LONG), tt
            return e
        if not (T.is_arithmetic(tt) and T.is_arithmetic(vt)) or \
                (op in ("%", "&", "|", "^", "<<", ">>") and not (T.is_integer(tt) and T.is_integer(vt))):
            self.fail(f"invalid operands to binary expression ('{target.ty}' and '{value.ty}')", _op(e))
        common = T.promote(tt) if op in ("<<", ">>") else T.usual_arithmetic(tt, vt)
        e.target, e.value, e.ty = target, self.implicit(value, T.promote(vt) if op in ("<<", ">>") else common), tt
        e.compute_ty = common
        return e

    def expr_IncDec(self, e: A.IncDec):
        target = self.assignable(e.operand, _op(e))
        t = T.unqual(target.ty)
        if not T.is_scalar(t):
            self.fail(f"cannot {'increment' if e.op == '++' else 'decrement'} value of type '{target.ty}'", e.loc)
        if isinstance(t, T.Pointer):
            self.require_complete_pointee(t, e.loc)
        e.operand, e.ty = target, t
        return e

    def expr_Conditional(self, e: A.Conditional):
        e.cond = self.condition(e.cond)
        a, b = self.value(e.then), self.value(e.else_)
        at, bt = T.unqual(a.ty), T.unqual(b.ty)
        if T.is_arithmetic(at) and T.is_arithmetic(bt):
            ty = T.usual_arithmetic(at, bt)
        elif at == bt:
            ty = at
        elif isinstance(at, T.Pointer) and isinstance(bt, T.Pointer):
            if _pointer_convertible(at, bt):
                ty = bt
            elif _pointer_convertible(bt, at):
                ty = at
            else:
                self.fail(f"incompatible operand types ('{a.ty}' and '{b.ty}')", _op(e))
        elif isinstance(at, T.Pointer) and self.is_null_constant(b):
            ty = at
        elif isinstance(bt, T.Pointer) and self.is_null_constant(a):
            ty = bt
        else:
            self.fail(f"incompatible operand types ('{a.ty}' and '{b.ty}')", _op(e))
        e.then, e.else_, e.ty = self.implicit(a, ty), self.implicit(b, ty), ty
        return e

    def expr_Comma(self, e: A.Comma):
        e.lhs, e.rhs = self.expr(e.lhs), self.value(e.rhs)
        e.ty = e.rhs.ty
        return e

    def type_of(self, tn: A.TypeName) -> T.Type:
        tn.ty = self.declarator_type(self.base_type(tn.specs), tn.declarator)
        return tn.ty

    def expr_Cast(self, e: A.Cast):
        if e.implicit:
            return e
        to = self.type_of(e.type_name)
        v = self.value(e.operand)
        src, dst = T.unqual(v.ty), T.unqual(to)
        ok = (T.is_void(dst) or (T.is_scalar(src) and T.is_scalar(dst) and not (T.is_float(src) and isinstance(dst, T.Pointer))
              and not (isinstance(src, T.Pointer) and T.is_float(dst))) or src == dst)
        if isinstance(dst, T.Struct) and dst.name == "dim3" and T.is_integer(src):
            return self.construct(dst, [v], e.loc)
        if not ok:
            self.fail(f"cannot cast from type '{v.ty}' to '{to}'", e.loc)
        e.operand, e.ty = v, to
        return e

    def expr_SizeofExpr(self, e: A.SizeofExpr):
        inner = self.expr(e.operand)
        e.operand = inner
        self.size_of(inner.ty, e.loc)
        e.ty = T.SIZE_T
        return e

    def expr_SizeofType(self, e: A.SizeofType):
        self.size_of(self.type_of(e.type_name), e.loc)
        e.ty = T.SIZE_T
        return e

    def size_of(self, ty: T.Type, loc) -> int:
        if T.is_void(ty) or isinstance(ty, T.Function) or (isinstance(ty, T.Struct) and ty.info.fields is None) \
                or (isinstance(ty, T.Array) and ty.length is None):
            self.fail(f"invalid application of 'sizeof' to an incomplete type '{ty}'", loc)
        return ty.size

    def expr_Index(self, e: A.Index):
        base, index = self.value(e.base), self.value(e.index)
        if isinstance(T.unqual(index.ty), T.Pointer) and T.is_integer(base.ty):
            base, index = index, base
        bt = T.unqual(base.ty)
        if not isinstance(bt, T.Pointer):
            self.fail("subscripted value is not an array, pointer, or vector", _op(e))
        if not T.is_integer(index.ty):
            self.fail("array subscript is not an integer", e.index.loc)
        self.require_complete_pointee(bt, e.loc)
        e.base, e.index, e.ty = base, self.implicit(index, T.LONG), bt.base
        return e

    def expr_Member(self, e: A.Member):
        base = self.expr(e.base)
        bt = T.unqual(base.ty)
        if e.arrow:
            if not isinstance(bt, T.Pointer):
                if isinstance(bt, T.Struct):
                    self.fail(f"member reference type '{base.ty}' is not a pointer; did you mean to use '.'?", _op(e))
                self.fail(f"member reference type '{base.ty}' is not a pointer", _op(e))
            base = self.value(base)
            st = T.unqual(bt.base)
            quals = bt.base
        else:
            if isinstance(bt, T.Pointer) and isinstance(T.unqual(bt.base), T.Struct):
                self.fail(f"member reference type '{base.ty}' is a pointer; did you mean to use '->'?", _op(e))
            st, quals = bt, base.ty
        if not isinstance(st, T.Struct):
            self.fail(f"member reference base type '{st}' is not a structure or union", _op(e))
        if st.info.fields is None:
            self.fail(f"member access into incomplete type '{st}'", e.loc)
        if e.name not in st.info.fields:
            self.fail(f"no member named '{e.name}' in '{st}'", e.loc)
        fty = st.info.fields[e.name][0]
        if quals.const or quals.volatile:
            fty = T.qualified(fty, const=fty.const or quals.const, volatile=fty.volatile or quals.volatile)
        e.base, e.ty = base, fty
        return e

    def expr_Construct(self, e: A.Construct):
        ty = self.type_of(e.type_name)
        return self.construct(ty, e.args, e.loc)

    def construct(self, ty: T.Type, args: list, loc) -> A.Expr:
        """dim3(x, y, z), a functional cast float(x), or direct-initialisation `int a(3)`."""
        args = [a if a.ty is not None and not isinstance(a, A.Name) else self.value(a) for a in args]
        if isinstance(ty, T.Struct) and ty.name in ("dim3", "uint3"):
            if len(args) > 3:
                self.fail(f"no matching constructor for initialization of '{ty}'", loc)
            if len(args) == 1 and isinstance(T.unqual(args[0].ty), T.Struct) and T.unqual(args[0].ty).name in ("dim3", "uint3"):
                c = A.Construct(None, args, loc=loc)
                c.ty = T.unqual(ty)
                return c
            conv = [self.convert(a, T.UINT, "parameter", a.loc) for a in args]
            c = A.Construct(None, conv, loc=loc)
            c.ty = T.unqual(ty)
            return c
        if isinstance(ty, T.Struct):
            if len(args) == 1 and T.unqual(args[0].ty) == T.unqual(ty):
                return args[0]
            self.fail(f"no matching constructor for initialization of '{ty}'", loc)
        if len(args) != 1:
            if not args and T.is_scalar(ty):
                zero = A.IntLit(0, "0", loc=loc)
                zero.ty = T.INT
                return self.implicit(zero, T.unqual(ty))
            self.fail(f"excess elements in scalar initializer", loc)
        c = A.Cast(None, args[0], loc=loc)
        c.ty = T.unqual(ty)
        if not (T.is_scalar(T.unqual(args[0].ty)) and T.is_scalar(c.ty)):
            self.fail(f"cannot initialize a value of type '{ty}' with an rvalue of type '{args[0].ty}'", loc)
        return c

    # ---- calls, launches, templates ------------------------------------------------------------
    def expr_TemplateId(self, e: A.TemplateId):
        e.ty = T.Function(ret=T.VOID)
        return e

    def callee(self, func: A.Expr) -> tuple[str, list[A.FunctionDef], list | None]:
        if isinstance(func, A.TemplateId):
            sym = self.scope.lookup(func.name)
            if not isinstance(sym, Overloads):
                self.undeclared(func.name, func.loc)
            return func.name, sym.functions, func.args
        if isinstance(func, A.Name):
            sym = self.scope.lookup(func.name)
            if sym is None:
                self.undeclared(func.name, func.loc)
            if isinstance(sym, Overloads):
                return func.name, sym.functions, None
        f = self.expr(func)
        self.fail(f"called object type '{f.ty}' is not a function or function pointer", func.loc)

    def expr_Call(self, e: A.Call):
        args = [self.guarded(self.value, a) for a in e.args]
        if any(a.ty is None for a in args):
            self.callee(e.func)  # report an unknown callee too, then give up on the call
            raise _Abort()
        name, cands, targs = self.callee(e.func)
        if name in SYMBOL_FUNCTIONS:
            args = self.symbol_argument(args, SYMBOL_FUNCTIONS[name])
        fn = self.resolve(name, cands, targs, args, e.loc)
        if "global" in fn.exec_space:
            self.fail("a __global__ function call must be configured", e.loc)
        self.check_call_space(fn, e.loc)
        self.check_builtin_available(fn, e.loc)
        e.args = self.bind_arguments(fn, args, e.loc)
        e.decl, e.ty = fn, T.unqual(fn.ty.ret)
        return e

    def expr_Launch(self, e: A.Launch):
        name, cands, targs = self.callee(e.func)
        args = [self.value(a) for a in e.args]
        fn = self.resolve(name, cands, targs, args, e.loc)
        if "global" not in fn.exec_space:
            self.fail(f"a {'host' if 'host' in fn.exec_space else '__device__'} function call cannot be configured", e.loc)
        if self.fn is not None and "host" not in self.fn.exec_space:
            self.fail("kernel launch from __device__ or __global__ functions requires separate compilation mode", e.loc)
        if not 2 <= len(e.config) <= 4:
            self.fail(f"kernel launch configuration takes 2 to 4 arguments (grid, block, shared memory bytes, stream), have {len(e.config)}", e.loc)
        dim3 = self.tags["dim3"]
        config = [self.convert(self.value(c), dim3, "launch", c.loc) for c in e.config[:2]]
        if len(e.config) > 2:
            config.append(self.convert(self.value(e.config[2]), T.SIZE_T, "launch", e.config[2].loc))
        if len(e.config) > 3:
            stream = self.value(e.config[3])
            if not (T.is_integer(stream.ty) or isinstance(T.unqual(stream.ty), T.Pointer)):
                self.fail(f"invalid stream argument of type '{stream.ty}'", e.config[3].loc)
            config.append(stream)
        e.config = config
        e.args = self.bind_arguments(fn, args, e.loc)
        e.decl, e.ty = fn, T.VOID
        return e

    def symbol_argument(self, args: list, index: int) -> list:
        """cudaMemcpyToSymbol(sym, ...) takes the variable itself: pass its address."""
        if index < len(args):
            a = args[index]
            inner = a.operand if isinstance(a, A.Cast) and a.implicit else a
            if isinstance(inner, A.Name) and isinstance(inner.decl, A.VarDecl):
                if inner.decl.space not in ("global", "constant"):
                    self.fail(f"'{inner.name}' is not a __device__ or __constant__ variable", inner.loc)
                addr = A.Unary("&", inner, loc=inner.loc)
                addr.ty = T.Pointer(base=inner.ty)
                args = list(args)
                args[index] = addr
        return args

    def check_call_space(self, fn: A.FunctionDef, loc) -> None:
        caller = self.fn
        if caller is None:
            return
        cs, fs = caller.exec_space, fn.exec_space
        callee_desc = f'("{fn.name}")'
        if ("global" in cs or cs == {"device"}) and "device" not in fs:
            self.error(f"calling a {space_name(fs)} function{callee_desc} from a {space_name(cs)} function(\"{caller.name}\") is not allowed", loc)
        elif cs == {"host"} and "host" not in fs:
            self.error(f"calling a {space_name(fs)} function{callee_desc} from a {space_name(cs)} function(\"{caller.name}\") is not allowed", loc)
        elif cs == {"host", "device"} and fs != cs and "global" not in fs:
            self.diags.warning(f"calling a {space_name(fs)} function{callee_desc} from a {space_name(cs)} function(\"{caller.name}\") is not allowed", loc)

    def check_builtin_available(self, fn: A.FunctionDef, loc) -> None:
        """A function the headers declare but minicuda cannot run (minicuda/builtins.py)."""
        row = builtins.lookup(fn.name) if fn.is_builtin else None
        if row is not None and row.kind == builtins.UNSUPPORTED:
            self.error(f"call to unavailable function '{fn.name}': {row.reason}", loc)

    def resolve(self, name: str, cands: list, targs, args: list, loc) -> A.FunctionDef:
        templates = [c for c in cands if c.is_template]
        plain = [c for c in cands if not c.is_template]
        if targs is not None or (templates and not plain):
            if not templates:
                self.fail(f"'{name}' is not a template", loc)
            return self.instantiate(templates[0], targs or [], args, loc)
        viable = []
        for fn in plain:
            cost = self.match_cost(fn, args)
            if cost is not None:
                viable.append((cost, fn))
        if not viable:
            if len(plain) == 1:
                self.arity_or_conversion_error(plain[0], args, loc)
            arg_types = ", ".join(str(a.ty) for a in args)
            self.fail(f"no matching function for call to '{name}' with arguments ({arg_types})", loc)
        viable.sort(key=lambda v: v[0])
        best = [fn for c, fn in viable if c == viable[0][0]]
        if len(best) > 1:
            common = [fn for fn in best if args and all(T.is_arithmetic(a.ty) for a in args)
                      and all(T.unqual(p) == self._common_arg_type(args) for p in fn.ty.params[:len(args)])]
            if len(common) == 1:
                return common[0]
            self.fail(f"call to '{name}' is ambiguous", loc)
        return best[0]

    @staticmethod
    def _common_arg_type(args):
        t = T.unqual(args[0].ty)
        for a in args[1:]:
            t = T.usual_arithmetic(t, a.ty)
        return t

    def match_cost(self, fn: A.FunctionDef, args: list) -> int | None:
        params = fn.ty.params
        required = sum(1 for p in fn.params if p.default is None) if fn.params else len(params)
        if len(args) < required or (len(args) > len(params) and not fn.ty.variadic):
            return None
        cost = 0
        for a, p in zip(args, params):
            c = _conversion_cost(a, p, builtin=fn.is_builtin, null=self.is_null_constant(a))
            if c is None:
                return None
            cost += c
        return cost

    def arity_or_conversion_error(self, fn: A.FunctionDef, args: list, loc) -> None:
        params = fn.ty.params
        required = sum(1 for p in fn.params if p.default is None) if fn.params else len(params)
        if len(args) < required:
            expect = f"at least {required}" if required != len(params) or fn.ty.variadic else f"{required}"
            self.fail(f"too few arguments to function call, expected {expect}, have {len(args)}", loc)
        if len(args) > len(params) and not fn.ty.variadic:
            expect = f"at most {len(params)}" if required != len(params) else f"{len(params)}"
            self.fail(f"too many arguments to function call, expected {expect}, have {len(args)}", loc)
        for a, p in zip(args, params):
            self.convert(a, p, "builtin-arg" if fn.is_builtin else "parameter", a.loc)

    def bind_arguments(self, fn: A.FunctionDef, args: list, loc) -> list:
        out = []
        params = fn.ty.params
        for i, a in enumerate(args):
            if i < len(params):
                out.append(self.convert(a, params[i], "builtin-arg" if fn.is_builtin else "parameter", a.loc))
            else:
                out.append(self.vararg(a))
        for p in fn.params[len(args):]:
            out.append(copy.deepcopy(p.default))
        return out

    def vararg(self, a: A.Expr) -> A.Expr:
        t = T.unqual(a.ty)
        if t == T.FLOAT:
            return self.implicit(a, T.DOUBLE)
        if T.is_integer(t):
            return self.implicit(a, T.promote(t))
        if isinstance(t, T.Struct):
            self.fail(f"cannot pass object of non-trivial type '{t}' through variadic function", a.loc)
        return a

    def instantiate(self, tmpl: A.FunctionDef, targs: list, args: list, loc) -> A.FunctionDef:
        params = tmpl.template_params
        if len(targs) > len(params):
            self.fail(f"too many template arguments for function template '{tmpl.name}'", loc)
        bound: list = []
        for i, p in enumerate(params):
            if i < len(targs):
                a = targs[i]
                if p.kind == "type":
                    if not isinstance(a, A.TypeName):
                        self.fail(f"template argument for template type parameter must be a type", a.loc)
                    bound.append(self.type_of(a))
                else:
                    if isinstance(a, A.TypeName):
                        self.fail(f"template argument for non-type template parameter must be an expression", a.loc)
                    v = self.value(a)
                    n = self.const_eval(v)
                    if n is None or not T.is_integer(v.ty):
                        self.fail(f"non-type template argument is not a constant expression", a.loc)
                    bound.append(int(n))
            elif p.kind == "type":
                t = self.deduce(tmpl, p.name, args)
                if t is None:
                    self.fail(f"no matching function for call to '{tmpl.name}': couldn't infer template argument '{p.name}'", loc)
                bound.append(t)
            else:
                self.fail(f"no matching function for call to '{tmpl.name}': couldn't infer template argument '{p.name}'", loc)
        key = (id(tmpl), tuple(str(b) if isinstance(b, T.Type) else b for b in bound))
        if key in self.instances:
            return self.instances[key]
        scope = Scope(self.globals)
        for p, b in zip(params, bound):
            if p.kind == "type":
                scope.names[p.name] = TypedefSym(p.name, b)
            else:
                pty = self.declarator_type(self.base_type(p.specs), p.declarator)
                scope.names[p.name] = ConstSym(p.name, pty, consteval.wrap(b, pty) if T.is_integer(pty) else b)
        inst = copy.deepcopy(tmpl)
        inst.template_args = bound
        inst.instance_name = f"{tmpl.name}<{', '.join(str(b) for b in bound)}>"
        self.instances[key] = inst
        saved = self.scope
        self.scope = scope
        try:
            inst.exec_space = self.function_space(inst)
            base = self.base_type(inst.specs)
            fparams: list[A.ParamDecl] = []
            inst.ty = self.declarator_type(base, inst.declarator, fparams)
            inst.params = fparams
            if "global" in inst.exec_space and not T.is_void(inst.ty.ret):
                self.error("a __global__ function must have a void return type", inst.loc)
        finally:
            self.scope = saved
        if inst.body is not None:
            errors = self.diags.error_count
            self.function_body(inst, template_scope=scope)
            if self.diags.error_count > errors:
                self.diags.note(f"in instantiation of function template specialization '{inst.instance_name}' requested here", loc)
        else:
            self.fail(f"function template '{tmpl.name}' is declared but never defined", loc)
        return inst

    def deduce(self, tmpl: A.FunctionDef, tname: str, args: list) -> T.Type | None:
        for p, a in zip(tmpl.declarator.params_suffix.params if tmpl.declarator.params_suffix else [], args):
            depth, d = len(p.declarator.pointers), p.declarator
            if p.specs.type_name == tname:
                t = T.unqual(a.ty)
                for _ in range(depth):
                    if not isinstance(t, T.Pointer):
                        return None
                    t = t.base
                return T.unqual(t)
        return None

    # ---- constant evaluation ------------------------------------------------------------
    def const_eval_var(self, v: A.VarDecl):
        return consteval.constant_variable(v)

    def const_eval(self, e: A.Expr):
        """The value of an integer constant expression (typed), else None."""
        return consteval.evaluate_or_none(e)


# ---- conversions -------------------------------------------------------------------------
def _op(e: A.Node) -> SourceLocation:
    """The location of an expression's operator, where clang points its errors."""
    return getattr(e, "op_loc", None) or e.loc


def _same_params(a: T.Function, b: T.Function) -> bool:
    return len(a.params) == len(b.params) and a.variadic == b.variadic and \
        all(T.unqual(x) == T.unqual(y) for x, y in zip(a.params, b.params))


def _copy_defaults(proto: A.FunctionDef, definition: A.FunctionDef) -> None:
    for p, q in zip(proto.params, definition.params):
        if q.default is None and p.default is not None:
            q.default = p.default


def _pointer_convertible(src: T.Pointer, dst: T.Pointer) -> bool:
    """T* -> const T*, T* -> void*, and qualification additions."""
    sb, db = src.base, dst.base
    if (sb.const and not db.const) or (sb.volatile and not db.volatile):
        return False
    if T.is_void(db):
        return True
    if T.unqual(sb) == T.unqual(db):
        return True
    if isinstance(sb, T.Pointer) and isinstance(db, T.Pointer) and db.const:
        return _pointer_convertible(sb, db)
    return False


def _void_pp(dst: T.Pointer, src: T.Pointer) -> bool:
    """cudaMalloc(T **) is a template in CUDA's headers: accept any T ** for void **."""
    return isinstance(dst.base, T.Pointer) and T.is_void(dst.base.base) and isinstance(src.base, T.Pointer)


def _conversion_cost(a: A.Expr, p: T.Type, builtin: bool, null: bool) -> int | None:
    src, dst = T.unqual(a.ty), T.unqual(p)
    if src == dst:
        return 0
    if T.is_arithmetic(src) and T.is_arithmetic(dst):
        if T.promote(src) == dst or (src == T.FLOAT and dst == T.DOUBLE):
            return 1
        return 2
    if isinstance(src, T.Pointer) and isinstance(dst, T.Pointer):
        if _pointer_convertible(src, dst):
            return 1 if T.unqual(src.base) == T.unqual(dst.base) else 2
        if builtin and _void_pp(dst, src):
            return 2
        return None
    if isinstance(dst, T.Pointer) and null:
        return 2
    if dst == T.BOOL and isinstance(src, T.Pointer):
        return 3
    if isinstance(dst, T.Struct) and dst.name == "dim3" and T.is_integer(src):
        return 3
    return None


def _conversion_message(context: str, e: A.Expr, to: T.Type) -> str:
    kind = "lvalue" if isinstance(e, (A.Name, A.Index, A.Member)) or (isinstance(e, A.Unary) and e.op == "*") else "rvalue"
    if isinstance(e, A.Cast) and e.implicit:
        kind = "lvalue" if isinstance(e.operand, (A.Name, A.Index, A.Member)) and not isinstance(e.operand.ty, T.Array) else "rvalue"
    if context == "assigning":
        return f"assigning to '{to}' from incompatible type '{e.ty}'"
    if context == "return":
        return f"cannot initialize return object of type '{to}' with an {kind} of type '{e.ty}'"
    if context in ("parameter", "builtin-arg"):
        return f"cannot initialize a parameter of type '{to}' with an {kind} of type '{e.ty}'"
    if context == "launch":
        return f"cannot convert '{e.ty}' to '{to}' in kernel launch configuration"
    return f"cannot initialize a variable of type '{to}' with an {kind} of type '{e.ty}'"


def check(tu: A.TranslationUnit, diags: DiagnosticEngine) -> A.TranslationUnit:
    return Sema(diags).check(tu)

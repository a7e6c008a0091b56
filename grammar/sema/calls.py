"""Calls and kernel launches: the callee, overload resolution, arguments.

A call names a function (or a function template, with or without explicit template
arguments): `resolve` picks among the overloads by the summed `conversion_cost` of
the arguments, instantiates a template instead (grammar/sema/templates.py), and
reports no match or an ambiguity as clang does.  The arguments are then converted to
the parameter types; extra arguments of a variadic function get the default argument
promotions, missing ones the parameter's default.  A call must respect CUDA's
execution spaces (a __global__ function is launched, never called; device code calls
__device__ functions), and a builtin the runtime cannot run (minicuda/builtins.py)
is an error at the call.  `cudaMemcpyToSymbol(sym, ...)` and `cudaMemcpyFromSymbol`
receive the address of their __device__ or __constant__ variable.
A braced list as an argument (`f(i, {x, y})`) stays an InitList until its parameter
is known: a candidate is viable when the parameter can be list-initialised from that
many elements (`braced_cost`), and the chosen parameter's type is then built from it
as `x = {a, b}` builds it (operators.py's `braced_assigned_value`).
"""
from __future__ import annotations

import copy

from minicuda import builtins
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar.sema.conversions import conversion_cost, is_braced
from minicuda.grammar.sema.cxx import USER_CONVERSION
from minicuda.grammar.sema.declarations import space_name
from minicuda.grammar.sema.scopes import Abort, Overloads

ALLOCATION_FUNCTIONS = ("operator new", "operator new[]", "operator delete", "operator delete[]")
SYMBOL_FUNCTIONS = {"cudaMemcpyToSymbol": 0, "cudaMemcpyFromSymbol": 1, "cudaGetSymbolAddress": 1,
                    "cudaGetSymbolSize": 1}  # which argument is the symbol


class Calls:
    """Needs from the analyser: `scope`, `tags`, `fn`, `expr`, `value`, `guarded`,
    `convert`, `implicit`, `is_null_constant`, `instantiate`, `undeclared`, `fail`."""

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

    def called_object(self, func: A.Expr) -> A.Expr | None:
        """The callee `func` checked, when it is an object of class type (a functor, a
        lambda, `Saxpy(2)` in `Saxpy(2)(x, y)`); None when it names functions."""
        if isinstance(func, A.TemplateId):
            return None
        if isinstance(func, A.Name):
            sym = self.scope.lookup(func.name)
            if sym is None or isinstance(sym, Overloads) or type(sym).__name__ == "MethodSym":
                return None
        f = self.expr(func)
        return f if isinstance(T.unqual(f.ty), T.Struct) else None

    def expr_Call(self, e: A.Call):
        if isinstance(e.func, A.Name) and e.func.name in ALLOCATION_FUNCTIONS:
            return self.allocation_call(e)   # cxx.py
        if isinstance(e.func, A.Member) and e.func.name.startswith("~"):
            return self.destructor_call(e)   # classes.py
        if isinstance(e.func, A.Name) and e.func.scope_type is not None:
            self.scoped_template_name(e.func)   # Foo<int>::make(...) (templates.py)
        elif isinstance(e.func, A.Name) and "::" in e.func.name and self.scope.lookup(e.func.name) is None:
            self.member_of_named_class(e.func)   # P::make(...), P a type parameter (expressions.py)
        if isinstance(e.func, A.Member) or (isinstance(e.func, A.Name) and type(self.scope.lookup(e.func.name)).__name__ == "MethodSym") \
                or (isinstance(e.func, A.Name) and self.scope.lookup(e.func.name) is None and self.names_method(e.func.name)):
            return self.method_call(e)
        obj = self.called_object(e.func)
        if obj is not None:   # `f(x)` of a class object f: its operator()
            return self.method_call(A.Call(A.Member(obj, "operator()", False, loc=e.func.loc), e.args, loc=e.loc))
        if self.calls_pointer(e.func):
            return self.indirect_call(e)
        symbol_index = SYMBOL_FUNCTIONS.get(e.func.name) if isinstance(e.func, A.Name) else None
        args = [self.symbol_value(a) if i == symbol_index else self.guarded(self.argument, a) for i, a in enumerate(e.args)]
        if any(a.ty is None and not is_braced(a) for a in args):
            self.callee(e.func)  # report an unknown callee too, then give up on the call
            raise Abort()
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
        if isinstance(e.ty, T.Reference):
            return self.dereference(e, e.ty.base)   # cxx.py
        return e

    def calls_pointer(self, func: A.Expr) -> bool:
        """Whether the callee is a value (a function pointer, `*p`), not a function's name."""
        if isinstance(func, A.TemplateId):
            return False
        if isinstance(func, A.Name):
            sym = self.scope.lookup(func.name)
            return isinstance(sym, (A.VarDecl, A.ParamDecl))
        return True

    def indirect_call(self, e: A.Call) -> A.Expr:
        """`p(x)`, `(*p)(x)`: the arguments converted to the pointed-to function's parameters."""
        f = self.value(e.func)
        t = T.unqual(f.ty)
        if not (isinstance(t, T.Pointer) and isinstance(t.base, T.Function)):
            self.fail(f"called object type '{f.ty}' is not a function or function pointer", e.func.loc)
        if self.fn is not None and "host" not in self.fn.exec_space:   # (a __host__ __device__ one's call faults on the device)
            self.fail("function pointers in device code are not supported yet", e.loc)
        fty = t.base
        args = [self.value(a) for a in e.args]
        if len(args) < len(fty.params) or (len(args) > len(fty.params) and not fty.variadic):
            few = "few" if len(args) < len(fty.params) else "many"
            self.fail(f"too {few} arguments to function call, expected {len(fty.params)}, have {len(args)}", e.loc)
        if any(isinstance(T.unqual(p), T.Struct) for p in fty.params) or isinstance(T.unqual(fty.ret), T.Struct):
            self.fail("a call through a function pointer with a struct parameter or result is not supported", e.loc)
        call = A.IndirectCall(f, [self.convert(a, p, "parameter", a.loc) for a, p in zip(args, fty.params)], loc=e.loc)
        call.ty = T.unqual(fty.ret)
        if isinstance(call.ty, T.Reference):
            return self.dereference(call, call.ty.base)   # cxx.py
        return call

    def expr_Launch(self, e: A.Launch):
        name, cands, targs = self.callee(e.func)
        args = [self.value(a) for a in e.args]
        self.check_kernel_closures(args)   # lambdas.py
        fn = self.resolve(name, cands, targs, args, e.loc)
        if "global" not in fn.exec_space:
            self.fail(f"a {'host' if 'host' in fn.exec_space else '__device__'} function call cannot be configured", e.loc)
        # a launch from device code (dynamic parallelism) needs -rdc=true: grammar/sema/targets.py
        e.config = self.launch_config(e)
        e.args = self.bind_arguments(fn, args, e.loc)
        e.decl, e.ty = fn, T.VOID
        return e

    def launch_config(self, e: A.Launch) -> list:
        """<<<grid, block[, shared memory bytes[, stream]]>>> converted to dim3, dim3, size_t."""
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
        return config

    def symbol_value(self, a: A.Expr) -> A.Expr:
        """A symbol function's symbol argument: the variable named, not read (no warning that
        host code cannot read a __device__ variable, as nvcc's template takes a reference)."""
        self.naming_symbol = True
        try:
            return self.guarded(self.value, a)
        finally:
            self.naming_symbol = False

    def symbol_argument(self, args: list, index: int) -> list:
        """cudaMemcpyToSymbol(sym, ...) takes the variable itself: pass its address."""
        if index < len(args):
            a = args[index]
            inner = a.operand if isinstance(a, A.Cast) and a.implicit else a
            if isinstance(inner, A.Name) and isinstance(inner.decl, A.VarDecl):
                if inner.decl.space not in ("global", "constant", "managed"):
                    self.fail(f"'{inner.name}' is not a __device__ or __constant__ variable", inner.loc)
                addr = A.Unary("&", inner, loc=inner.loc)
                addr.ty = T.Pointer(base=inner.ty)
                args = list(args)
                args[index] = addr
        return args

    def check_call_space(self, fn: A.FunctionDef, loc) -> None:
        if fn.special == "delete":
            what = f"constructor of '{fn.owner.name}'" if getattr(fn, "member_kind", "") == "ctor" else f"function '{fn.name}'"
            self.error(f"call to deleted {what}", loc)
        caller = self.fn
        if caller is None:
            return
        cs, fs = caller.exec_space, fn.exec_space
        callee_desc = f'("{fn.name}")'
        if ("global" in cs or cs == {"device"}) and "constexpr" in fn.specs.storage \
                and fn.owner is None and is_system_location(fn.loc):   # (numeric_limits<T>::max() stays allowed)
            self.error(f'calling a constexpr __host__ function("{_plain_name(fn)}") from a {space_name(cs)} function("{caller.name}") '
                       "is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.", loc)
        elif ("global" in cs or cs == {"device"}) and "device" not in fs:
            self.error(f"calling a {space_name(fs)} function{callee_desc} from a {space_name(cs)} function(\"{caller.name}\") is not allowed", loc)
        elif cs == {"host"} and "host" not in fs:
            self.error(f"calling a {space_name(fs)} function{callee_desc} from a {space_name(cs)} function(\"{caller.name}\") is not allowed", loc)
        elif cs == {"host", "device"} and fs != cs and "global" not in fs and not caller.template_args:
            # (nvcc says nothing of a host-device template's instantiation that calls a host function)
            self.diags.warning(f"calling a {space_name(fs)} function{callee_desc} from a {space_name(cs)} function(\"{caller.name}\") is not allowed", loc)

    def check_builtin_available(self, fn: A.FunctionDef, loc) -> None:
        """A function the headers declare but minicuda cannot run (minicuda/builtins.py)."""
        row = builtins.lookup(fn.name) if fn.is_builtin else None
        if row is not None and row.kind == builtins.UNSUPPORTED:
            self.error(f"call to unavailable function '{fn.name}': {row.reason}", loc)

    def argument(self, a: A.Expr) -> A.Expr:
        """An argument checked; a braced list `{x, y}` waits for its parameter's type."""
        return a if is_braced(a) else self.value(a)

    def resolve(self, name: str, cands: list, targs, args: list, loc) -> A.FunctionDef:
        templates = [c for c in cands if c.is_template]
        plain = [c for c in cands if not c.is_template]
        if templates and plain and targs is None and all(self.match_cost(fn, args) is None for fn in plain):
            plain = []   # a program's `abs(a, b)` template beside <cstdlib>'s abs(int)
        if targs is not None or (templates and not plain):
            if not templates:
                self.fail(f"'{name}' is not a template", loc)
            if braced := [a for a in args if is_braced(a)]:
                self.fail(f"a braced initializer list as an argument of function template '{name}' is not supported", braced[0].loc)
            return self.instantiate(_by_arity(templates, len(args)), targs or [], args, loc)
        return self.best_overload(name, plain, args, loc)

    def best_overload(self, name: str, plain: list, args: list, loc) -> A.FunctionDef:
        """The cheapest viable function; among equals, the one whose parameters are the
        arguments' common arithmetic type."""
        viable = []
        for fn in plain:
            cost = self.match_cost(fn, args)
            if cost is not None:
                viable.append((cost, fn))
        if not viable:
            if len(plain) == 1:
                self.arity_or_conversion_error(plain[0], args, loc)
            arg_types = ", ".join(_argument_type(a) for a in args)
            self.fail(f"no matching function for call to '{name}' with arguments ({arg_types})", loc)
        viable.sort(key=lambda v: v[0])
        if (promoted := self.promoted_math_overload([fn for _, fn in viable], args)) is not None:
            return promoted
        best = [fn for c, fn in viable if c == viable[0][0]]
        if len(best) > 1:
            common = [fn for fn in best if args and all(not is_braced(a) and T.is_arithmetic(a.ty) for a in args)
                      and all(T.unqual(p) == _common_arithmetic_type(args) for p in fn.ty.params[:len(args)])]
            if len(common) == 1:
                return common[0]
            if (double := _double_overload(best, args)) is not None:
                return double
            self.fail(f"call to '{name}' is ambiguous", loc)
        return best[0]

    def promoted_math_overload(self, viable: list, args: list) -> A.FunctionDef | None:
        """<math.h>'s function of several arguments not all float: its double overload, as
        libstdc++'s templates promote them (pow(x, 2) of a float x is a double, in host and
        device code alike: nvcc 13 on an H100 gives sizeof(pow(x, 2)) == 8 in a kernel)."""
        if len(args) < 2 or not all(fn.is_builtin and fn.loc is not None and fn.loc.file.endswith("math.h")
                                    for fn in viable) or \
                not all(not is_braced(a) and T.is_arithmetic(a.ty) for a in args):
            return None
        types = [T.unqual(a.ty) for a in args]
        if all(t == T.FLOAT for t in types):
            return None
        double = [fn for fn in viable if all(T.unqual(p) == T.DOUBLE for p in fn.ty.params[:len(args)])]
        return double[0] if len(double) == 1 else None

    def match_cost(self, fn: A.FunctionDef, args: list) -> int | None:
        params = fn.ty.params
        required = sum(1 for p in fn.params if p.default is None) if fn.params else len(params)
        if len(args) < required or (len(args) > len(params) and not fn.ty.variadic):
            return None
        cost = 0
        for a, p in zip(args, params):
            if is_braced(a):
                c = self.braced_cost(a, p)
            elif isinstance(p, T.Reference):
                c = self.reference_cost(a, p, lambda a, p: conversion_cost(a, p, builtin=False, null=self.is_null_constant(a)))
            else:
                c = conversion_cost(a, p, builtin=fn.is_builtin, null=self.is_null_constant(a))
                if c is None and (self.converts_by_constructor(a, p) or self.converts_by_operator(a, p)):   # cxx.py
                    c = USER_CONVERSION
            if c is None:
                return None
            cost += c
        return cost

    def braced_cost(self, init: A.InitList, p: T.Type) -> int | None:
        """The overload cost of list-initialising a parameter of type `p` from `init` (None:
        it cannot be): a scalar from at most one element, a class by a constructor taking
        that many arguments (or a std::initializer_list), an aggregate member by member."""
        if isinstance(p, T.Reference) and not p.base.const:
            return None   # a temporary binds to a const reference only
        t = T.unqual(p.base if isinstance(p, T.Reference) else p)
        n = len(init.items)
        if isinstance(t, T.Struct):
            if t.info.fields is None:
                return None
            if t.name in ("dim3", "uint3"):
                return USER_CONVERSION if n <= 3 else None
            if n and self.initializer_list_parameter(t) is not None:   # cxx.py
                return USER_CONVERSION
            if self.has_ctors(t) or (not n and self.default_ctors(t)):
                return USER_CONVERSION if any(_takes(c, n + 1) for c in self.default_ctors(t)) else None
            return USER_CONVERSION if n <= len(t.info.fields) else None
        if T.is_scalar(t) and n <= 1 and not (n and isinstance(init.items[0], A.InitList)):
            return 0
        return None

    def braced_argument(self, init: A.InitList, p: T.Type, context: str) -> A.Expr:
        """The parameter of type `p` list-initialised from the braced argument `init`."""
        base = p.base if isinstance(p, T.Reference) else p
        if isinstance(p, T.Reference) and not p.base.const:
            self.fail(f"cannot bind a non-const lvalue reference of type '{p}' to an initializer list", init.loc)
        return self.convert(self.value(self.braced_assigned_value(init, base)), p, context, init.loc)   # operators.py

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
            if is_braced(a):
                self.braced_argument(a, p, "parameter")
            else:
                self.convert(a, p, "builtin-arg" if fn.is_builtin else "parameter", a.loc)

    def bind_arguments(self, fn: A.FunctionDef, args: list, loc) -> list:
        fn.used = True   # a class template's member function is checked once used (classes.py)
        if not any(c is self.fn for c in fn.callers):
            fn.callers.append(self.fn)
        out = []
        params = fn.ty.params
        for i, a in enumerate(args):
            if i < len(params) and is_braced(a):
                out.append(self.braced_argument(a, params[i], "parameter"))
            elif i < len(params):
                out.append(self.convert(a, params[i], "builtin-arg" if fn.is_builtin else "parameter", a.loc))
            else:
                out.append(self.vararg(a))
        for p in fn.params[len(args):]:
            out.append(copy.deepcopy(p.default))
        return out

    def vararg(self, a: A.Expr) -> A.Expr:
        if is_braced(a):
            self.fail("cannot pass an initializer list through a variadic function", a.loc)
        t = T.unqual(a.ty)
        if t == T.FLOAT:
            return self.implicit(a, T.DOUBLE)
        if T.is_integer(t):
            return self.implicit(a, T.promote(t))
        if isinstance(t, T.Struct):
            self.fail(f"cannot pass object of non-trivial type '{t}' through variadic function", a.loc)
        return a


def _plain_name(fn: A.FunctionDef) -> str:
    """A function's name as nvcc's messages give it: `min` for std::min<int>."""
    return (getattr(fn, "template_name", None) or fn.name).split("<")[0].rpartition("::")[2]


def _takes(fn: A.FunctionDef, nargs: int) -> bool:
    """Whether `fn` can be called with `nargs` arguments (its defaults and `...` counted)."""
    params = fn.ty.params
    required = sum(1 for p in fn.params if p.default is None) if fn.params else len(params)
    return required <= nargs and (nargs <= len(params) or fn.ty.variadic)


def _argument_type(a: A.Expr) -> str:
    return "initializer list" if is_braced(a) else str(a.ty)


def _by_arity(templates: list, nargs: int) -> A.FunctionDef:
    """The function template of that many parameters (std::sort of two or three), else the first."""
    for tmpl in templates:
        suffix = tmpl.declarator.params_suffix
        if suffix is not None and len(suffix.params) == nargs:
            return tmpl
    return templates[0]


def _double_overload(best: list, args: list) -> A.FunctionDef | None:
    """<cmath>'s function of integer arguments: its double overload (libstdc++'s templates
    for integral types call it: std::sqrt(2) is a double)."""
    if all(not is_braced(a) and T.is_integer(a.ty) for a in args):
        double = [fn for fn in best if fn.is_builtin and all(T.unqual(p) == T.DOUBLE for p in fn.ty.params)]
        if len(double) == 1:
            return double[0]
    return None


def _common_arithmetic_type(args: list) -> T.Type:
    t = T.unqual(args[0].ty)
    for a in args[1:]:
        t = T.usual_arithmetic(t, a.ty)
    return t

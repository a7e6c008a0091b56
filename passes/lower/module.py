"""ModuleLowering: a translation unit to a Module; `lower` is the lowering's entry point.

It lowers the globals, then each function (FunctionLowering), and owns what the
functions share: the module's globals (string literals as `strN`, shared
variables as `function::name`, dynamic shared memory as `dynamic_smem`) and the
IR name of each function (a template instance's own name, an overload's with its
parameter types).  `Unsupported` errors are collected over all functions and
raised together as one CompileError.
"""
from __future__ import annotations

from minicuda.diagnostics import CompileError, Diagnostic
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.collector import collector_paused
from minicuda.ir import GLOBAL_FINI, GLOBAL_INIT, Function, Global, Module
from minicuda.passes.lower.emitter import Unsupported
from minicuda.passes.lower.function import FunctionLowering
from minicuda.passes.lower.initialisers import static_bytes
from minicuda.passes.lower.limits import static_limit_errors


class ModuleLowering:
    """The module being built from the translation unit, and what its functions share."""

    def __init__(self, tu: A.TranslationUnit, arch: str, link_name=None, fast_math: bool = False, ftz: bool = False,
                 g_shape: bool = False):
        self.tu = tu
        self.g_shape = g_shape       # -O0: `&&` and `||` as values, then one branch (clang -O0's, nvcc -G's)
        self.fast_math = fast_math   # -use_fast_math: device code's float math as the fast intrinsics
        self.ftz = ftz               # -ftz=true: device code's f32 instructions carry .FTZ (emitter.py)
        self.module = Module(arch=arch)
        self.strings: dict[bytes, str] = {}
        self.overloads: tuple[int, dict[str, int]] = (-1, {})   # (functions counted, name -> overloads)
        self.link_name = link_name   # FunctionDef -> its name for the linker, in a unit of several
        self.dynamic: list[A.VarDecl] = []   # host variables with a dynamic initialiser, in order

    def function_name(self, fn: A.FunctionDef) -> str:
        if fn.name in (GLOBAL_INIT, GLOBAL_FINI):
            return fn.name
        if self.link_name is not None:
            return self.link_name(fn)
        base = getattr(fn, "instance_name", fn.name).replace(" ", "")
        if self.overloads[0] != len(self.tu.functions):   # counted once, again if functions were added
            counts: dict[str, int] = {}
            for f in self.tu.functions:
                if getattr(f, "instance_name", None) is None:
                    counts[f.name] = counts.get(f.name, 0) + 1
            self.overloads = (len(self.tu.functions), counts)
        if self.overloads[1].get(fn.name, 0) > 1 and not hasattr(fn, "instance_name"):
            base += "(" + ",".join(str(p).replace(" ", "") for p in fn.ty.params) + ")"
        return base

    def string(self, data: bytes) -> str:
        if data not in self.strings:
            name = f"str{len(self.strings)}"
            self.strings[data] = name
            self.module.globals[name] = Global(name, "string", len(data) + 1, 1, data + b"\0")
        return self.strings[data]

    def global_symbol(self, v: A.VarDecl) -> str:
        """The symbol of a file-scope variable, made on first use (a bundled header's are
        made only where used); a static data member's is its definition's, with its value."""
        v = v.definition or v
        if v.name not in self.module.globals:
            init = self.initial_bytes(v)
            space = {"global": "global", "constant": "constant", "shared": "shared", "host": "host",
                     "managed": "managed"}.get(v.space, "host")
            self.module.globals[v.name] = Global(v.name, space, max(v.ty.size, 1), max(v.ty.align, 1), init)
        return v.name

    def initial_bytes(self, v: A.VarDecl) -> bytes | None:
        """A global's bytes from its constant initialiser; a host variable's dynamic
        initialiser (a call, a constructor) is left to GLOBAL_INIT (None)."""
        if v.init is None:
            return None
        try:
            return static_bytes(v.init, v.ty)
        except Unsupported:
            if v.space != "host":
                raise
            self.dynamic.append(v)
            return None

    def startup_functions(self) -> None:
        """GLOBAL_INIT: the dynamic initialisers of the unit's host variables, in order of
        definition; GLOBAL_FINI: the destructors of its global objects, in reverse.  The
        machine runs every unit's before main and after it (vm/machine.py)."""
        objects = [v for v in self.tu.global_vars if v.ty is not None and "extern" not in v.specs.storage
                   and v.space == "host" and has_destructor(v.ty)]
        for name, body in ((GLOBAL_INIT, [initialising(v) for v in self.dynamic]),
                           (GLOBAL_FINI, [destroying(v) for v in reversed(objects)])):
            if body:
                fd = A.FunctionDef(A.DeclSpecs(), A.Declarator(name), A.Compound(body), name=name)
                fd.ty, fd.exec_space = T.Function(ret=T.VOID), frozenset({"host"})
                self.module.functions[name] = FunctionLowering(fd, self.module, self).lower()

    def shared_symbol(self, fn: Function, v: A.VarDecl) -> str:
        if "extern" in v.specs.storage:
            fn.dynamic_shared = True
            name = "dynamic_smem"
            self.module.globals.setdefault(name, Global(name, "shared", 0, 16))
            return name
        name = f"{fn.name}::{v.name}"
        n = 1
        while name in self.module.globals:
            n += 1
            name = f"{fn.name}::{v.name}.{n}"
        align = max(v.ty.align, 1)
        fn.shared_bytes = (fn.shared_bytes + align - 1) // align * align + v.ty.size
        self.module.globals[name] = Global(name, "shared", v.ty.size, align)
        return name

    def lower(self) -> Module:
        errors = []
        for v in self.tu.global_vars:
            if v.ty is not None and "extern" not in v.specs.storage:
                try:
                    self.global_symbol(v)
                except Unsupported as u:
                    errors.append(Diagnostic("error", u.message, u.loc))
        for f in self.tu.functions:
            try:
                fn = FunctionLowering(f, self.module, self).lower()
                self.module.functions[fn.name] = fn
            except Unsupported as u:
                errors.append(Diagnostic("error", u.message, u.loc))
        if not errors:
            self.startup_functions()
        errors += static_limit_errors(self.tu, self.module)
        if errors:
            raise CompileError(errors)
        return self.module


def has_destructor(ty: T.Type) -> bool:
    t = T.unqual(ty)
    return isinstance(t, T.Struct) and t.info.fields is not None and t.info.dtor is not None


def initialising(v: A.VarDecl) -> A.DeclStmt:
    """The global `v`'s definition as a statement of GLOBAL_INIT (statements.py stores
    its initialiser in place)."""
    return A.DeclStmt(A.Declaration(v.specs, [v], loc=v.loc), loc=v.loc)


def destroying(v: A.VarDecl) -> A.ExprStmt:
    """`v.~T()` as a statement of GLOBAL_FINI."""
    name = A.Name(v.name, loc=v.loc)
    name.decl, name.ty = v, v.ty
    this = A.Unary("&", name, loc=v.loc)
    this.ty = T.Pointer(base=v.ty)
    dtor = T.unqual(v.ty).info.dtor
    call = A.Call(A.Name(dtor.name, loc=v.loc), [this], loc=v.loc)
    call.decl, call.ty = dtor, T.VOID
    return A.ExprStmt(call, loc=v.loc)


@collector_paused()
def lower(tu: A.TranslationUnit, arch: str = "sm_70", link_name=None, fast_math: bool = False,
          ftz: bool = False, g_shape: bool = False) -> Module:
    """The IR Module of a checked translation unit; `link_name(fn)`, when given, names
    each function (a unit of a program of several: minicuda/linker.py); `fast_math`:
    -use_fast_math; `ftz`: -ftz=true; `g_shape`: -O0, conditions as nvcc -G shapes them."""
    return ModuleLowering(tu, arch, link_name, fast_math, ftz, g_shape).lower()

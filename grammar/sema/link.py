"""The link check: every function the program calls, launches or takes the address of
has a definition.

A C program that declares a function, uses it and never defines it fails at link
time (ld: `undefined reference to 'f(int)'`; ptxas for device code: `Unresolved
extern function '_Z1fi'`).  minicuda has no separate link step, so this check runs
after semantic analysis and before lowering, over the functions that are compiled
(`tu.functions`) and the initialisers of the file-scope variables.  Each undefined
function is reported once, clang-shaped, at its first use, with a note at its
declaration.  Builtins (the bundled headers' declarations) are defined by the
runtime; a definition is matched by name and parameter types, as the linker
matches mangled names.  A program of several translation units (minicuda/linker.py)
checks each unit for the functions no other unit can define (a `__device__`
function without -rdc=true, as ptxas reports it) and leaves the others to the link.
"""
from __future__ import annotations

from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.collector import collector_paused
from minicuda.grammar.sema.scopes import Overloads


@collector_paused()   # a walk over the whole AST: a full collection would walk it all again
def check_references(tu: A.TranslationUnit, diags: DiagnosticEngine, linked=None, hint: str | None = None) -> None:
    """Report every used function that has no definition (errors in `diags`); with
    `linked(owner, fn)` (owner: the function whose code uses `fn`, None in an initialiser),
    those it says another unit may define are left to the link, and `hint` is a note
    after each error."""
    defined = {}
    for fn in tu.functions:
        defined.setdefault(fn.name, []).append(fn)
    reported: set[str] = set()
    for owner, use, fn in function_uses(tu):
        if _is_defined(fn, defined.get(fn.name, ())) or (linked is not None and linked(owner, fn)):
            continue
        signature = _signature(fn)
        if signature in reported:
            continue
        reported.add(signature)
        diags.error(f"undefined reference to '{signature}'", use.loc)
        if fn.loc is not None:
            diags.note(f"'{fn.name}' declared here", fn.loc)
        if hint is not None:
            diags.note(hint, use.loc)


def function_uses(tu: A.TranslationUnit):
    """(owner, node, FunctionDef) for each call, launch and address-taken function name,
    constructor call and variable of a class with a destructor, in source order of the
    file-scope variables (owner None) and the compiled functions (owner: the function)."""
    roots = [(None, v) for v in tu.global_vars] + [(f, f.body) for f in tu.functions]
    for owner, root in roots:
        for node in A.walk(root):
            decl = getattr(node, "decl", None)
            if isinstance(node, (A.Call, A.Launch)) and isinstance(decl, A.FunctionDef):
                yield owner, node, decl
            elif isinstance(node, A.Construct) and isinstance(getattr(node, "ctor", None), A.FunctionDef):
                yield owner, node, node.ctor
            elif isinstance(node, A.VarDecl) and (dtor := _destructor(node.ty)) is not None:
                yield owner, node, dtor
            elif isinstance(node, A.Name) and isinstance(decl, Overloads) and decl.functions:
                if not any(_is_defined(f, ()) for f in decl.functions):
                    yield owner, node, decl.functions[0]


def _destructor(ty) -> A.FunctionDef | None:
    """The destructor a variable of type `ty` (an array: of its elements) runs, if it has one."""
    while isinstance(ty, T.Array):
        ty = ty.elem
    s = T.unqual(ty) if ty is not None else None
    dtor = getattr(s.info, "dtor", None) if isinstance(s, T.Struct) else None
    return dtor if isinstance(dtor, A.FunctionDef) else None


def _is_defined(fn: A.FunctionDef, definitions) -> bool:
    if fn.body is not None or fn.is_builtin or fn.is_template:
        return True
    return any(_same_params(fn.ty, d.ty) for d in definitions)


def _same_params(a, b) -> bool:
    if a is None or b is None:
        return True
    return len(a.params) == len(b.params) and all(T.unqual(x) == T.unqual(y) for x, y in zip(a.params, b.params))


def _signature(fn: A.FunctionDef) -> str:
    params = ", ".join(str(p) for p in fn.ty.params) if fn.ty is not None else ""
    return f"{fn.name}({params})"

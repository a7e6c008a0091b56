"""Semantic analysis: scopes, types, conversions, CUDA execution spaces, templates.

`check(tu, diags)` annotates the AST in place: every expression gets `ty`, every
name its declaration, every call the function it calls (after overload resolution
and template instantiation), and implicit conversions become `Cast(implicit=True)`
nodes.  All errors of the file are reported, each located and worded as clang
words it (or, for CUDA's execution-space rules, as nvcc does).

Invariants after a successful check: `tu.functions` lists every function with a body
that may run (templates only as their instantiations); each has `exec_space`,
`ty` and `params` filled in.  `tu.global_vars` lists the file-scope variables the
user declared, `tu.instantiations` the template instantiations.

Where it lives: the analyser (`Sema`: its state, the walk over the translation unit,
error reporting) is composed of one mixin per concern: scopes (names and symbols),
declarators (types from declarations), declarations (variables, initializers,
functions and their overload sets), statements (function bodies), expressions
(names, literals, members, subscripts, sizeof), operators, conversions (implicit
conversions, casts, construction), calls (overload resolution, arguments, kernel
launches) and templates (binding, deduction, instantiation).  Integer constant
expressions are evaluated by grammar/consteval.py; the table of builtin functions
is minicuda/builtins.py.
"""
from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar import ast as A
from minicuda.grammar.collector import collector_paused
from minicuda.grammar.sema.analyser import Sema
from minicuda.grammar.sema.scopes import Overloads

__all__ = ["check", "Sema", "Overloads"]


@collector_paused()   # sema annotates a large AST: the collector would walk it again and again
def check(tu: A.TranslationUnit, diags: DiagnosticEngine) -> A.TranslationUnit:
    return Sema(diags).check(tu)

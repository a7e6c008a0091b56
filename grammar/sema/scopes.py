"""Scopes and the symbols they hold: what a name means at one point of the program.

A `Scope` maps names to symbols: a `VarDecl` or `ParamDecl` (a variable), a
`TypedefSym` (a type name, also a template type parameter bound to its argument), a
`ConstSym` (a template value parameter bound to its argument) or an `Overloads` (every
function of that name; functions live in the global scope only).  Struct, union and
class tags live apart, in the analyser's `tags`.  Scopes nest: a lookup walks out to
the global scope; `in_scope` enters one and always leaves it, even on an error.

`Abort` is how a check gives up on the expression or declaration at hand once its
error is reported; the statement, declaration or file around it goes on.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from minicuda.diagnostics import SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar import types as T


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


class Abort(Exception):
    """An expression could not be typed; its error is already reported."""


class Scopes:
    """The analyser's scope stack (`scope`, `globals`) and the names it cannot find
    (`poisoned`: names whose declaration had a syntax error, reported already)."""

    @contextmanager
    def in_scope(self, scope: Scope):
        """Check what the `with` block checks inside `scope`, then return to the current one."""
        saved = self.scope
        self.scope = scope
        try:
            yield scope
        finally:
            self.scope = saved

    def undeclared(self, name: str, loc):
        if name in self.poisoned:  # declared, perhaps, where a syntax error was reported
            raise Abort()
        self.fail(f"use of undeclared identifier '{name}'", loc)

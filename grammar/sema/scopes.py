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
    """Names declared in one scope.  A namespace's scope is a child of the scope it is
    declared in (`children`); `usings` are the namespaces a `using namespace` made
    visible here.  A qualified name `x::y` (`::y`: from the file scope) is looked up
    through the namespaces, or as one name (an enumerator `Color::Red`)."""
    usings: tuple = ()
    prefix: str = ""               # a namespace's qualified name and "::"
    children: dict = {}

    def __init__(self, parent: "Scope | None" = None):
        self.parent = parent
        self.names: dict[str, object] = {}

    def lookup(self, name: str):
        if "::" in name:
            return self.qualified(name)
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            for used in s.usings:
                found = used.member(name)
                if found is not None:
                    return found
            s = s.parent
        return None

    def qualified(self, name: str):
        s = self
        if name.startswith("::"):
            while s.parent is not None:
                s = s.parent
            return s.member(name[2:])
        while s is not None:
            found = s.member(name)
            if found is not None:
                return found
            s = s.parent
        return None

    def member(self, name: str, seen: frozenset = frozenset()):
        """`name` declared in this scope (or in the namespaces it uses), looked up no further out."""
        if name in self.names:
            return self.names[name]
        head, _, rest = name.partition("::")
        if rest and head in self.children:
            return self.children[head].member(rest)
        for used in self.usings:
            if id(used) not in seen:
                found = used.member(name, seen | {id(self)})
                if found is not None:
                    return found
        return None

    def namespace(self, name: str) -> "Scope | None":
        """The namespace `name` (`x` or `x::y`) names from here."""
        s = self
        while s is not None:
            ns = s
            for part in name.strip(":").split("::"):
                ns = ns.children.get(part)
                if ns is None:
                    break
            if ns is not None:
                return ns
            s = s.parent
        return None

    def add_namespace(self, name: str) -> "Scope":
        if "children" not in self.__dict__:
            self.children = {}
        if name not in self.children:
            self.children[name] = Scope(self)
            self.children[name].prefix = self.prefix + name + "::"
        return self.children[name]

    def add_alias(self, name: str, ns: "Scope") -> None:
        """`namespace name = ns;`: `name::m` is `ns`'s member m from here."""
        if "children" not in self.__dict__:
            self.children = {}
        self.children[name] = ns

    def use(self, ns: "Scope") -> None:
        if ns not in self.usings:
            self.usings = tuple(self.usings) + (ns,)


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

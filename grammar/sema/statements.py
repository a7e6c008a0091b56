"""Statements and function bodies: scopes, loops, switches and returns.

`function_body` checks a body with a fresh state: `fn` is the function, its
parameters form a scope around the body's scope, `loops` counts the loops around
the statement at hand and `switches` holds, per enclosing switch, the case values
seen and whether it has a default (duplicates are errors).  Each block opens a
scope.  A statement whose check fails is kept unchanged after its error is
reported, and the next statement is checked: every error of a body is reported.
Conditions become `bool`, a switch value is promoted, a case label is an integer
constant (`Case.const_value`), and a returned value is converted to the return type.

The walk runs on an explicit stack (`nesting.run_nested`): a statement's check is a
step that yields the steps of the statements inside it, so statements nest to any
depth.  An `else if` adds no scope (the block around a lone `if` declares nothing),
so a long else-if chain looks names up in as few scopes as a short one.  A statement
that still exhausts Python's stack is an error at that statement.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.nesting import TOO_DEEP, finish, run_nested
from minicuda.grammar.sema.scopes import Abort, Scope
from minicuda.grammar.stdnames import EXCEPTIONS


class Statements:
    """Needs from the analyser: `in_scope`, `declaration`, `guarded`, `expr`, `value`,
    `condition`, `convert` and `const_eval`; it adds checked bodies to `functions`."""

    def function_body(self, fn: A.FunctionDef, template_scope: Scope | None = None) -> None:
        saved = (self.fn, self.scope, self.loops, self.switches)
        self.fn = fn
        self.scope = Scope(template_scope or fn.home or self.globals)
        self.loops, self.switches = 0, []
        try:
            for p in fn.params:
                if p.declarator.name:
                    self.scope.names[p.declarator.name] = p
            self.scope = Scope(self.scope)
            try:
                self.prepare_ctor_body(fn)
            except Abort:   # reported at its member initialiser; the body is still checked
                pass
            fn.body.items = [self.statement(s) for s in fn.body.items]
            self.functions.append(fn)
        finally:
            self.fn, self.scope, self.loops, self.switches = saved

    def statement(self, s: A.Node) -> A.Node:
        """The checked statement (s itself, or s unchanged when its check failed)."""
        return run_nested(self.statement_step(s))

    def statement_step(self, s: A.Node):
        method = getattr(self, "stmt_" + type(s).__name__)
        try:
            return (yield from finish(method(s)))
        except Abort:
            return s
        except RecursionError:
            self.error(TOO_DEEP, s.loc)
            return s

    def block(self, s: A.Node):
        if isinstance(s, A.If):   # its block would be an empty scope
            return (yield self.statement_step(s))
        with self.in_scope(Scope(self.scope)):
            return (yield self.statement_step(s))

    def stmt_Compound(self, s: A.Compound):
        with self.in_scope(Scope(self.scope)):
            items = []
            for i in s.items:
                items.append((yield self.statement_step(i)))
            s.items = items
        return s

    def stmt_DeclStmt(self, s: A.DeclStmt):
        self.declaration(s.declaration)
        return s

    def stmt_ExprStmt(self, s: A.ExprStmt):
        if s.expr is not None:
            s.expr = self.expr(s.expr)
        return s

    def stmt_If(self, s: A.If):
        s.cond = self.guarded(self.condition, s.cond)
        s.then = yield from self.block(s.then)
        if s.else_ is not None:
            s.else_ = yield from self.block(s.else_)
        return s

    def _loop_body(self, body):
        self.loops += 1
        try:
            return (yield from self.block(body))
        finally:
            self.loops -= 1

    def stmt_While(self, s: A.While):
        s.cond = self.guarded(self.condition, s.cond)
        s.body = yield from self._loop_body(s.body)
        return s

    def stmt_DoWhile(self, s: A.DoWhile):
        s.body = yield from self._loop_body(s.body)
        s.cond = self.guarded(self.condition, s.cond)
        return s

    def stmt_For(self, s: A.For):
        with self.in_scope(Scope(self.scope)):
            if s.init is not None:
                s.init = yield self.statement_step(s.init)
            if s.cond is not None:
                s.cond = self.guarded(self.condition, s.cond)
            if s.step is not None:
                s.step = self.guarded(self.expr, s.step)
            s.body = yield from self._loop_body(s.body)
        return s

    def stmt_Switch(self, s: A.Switch):
        s.expr = self.guarded(self.switch_value, s.expr)
        self.switches.append({"cases": {}, "default": False})
        try:
            s.body = yield from self.block(s.body)
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
        s.body = yield self.statement_step(s.body)
        return s

    def stmt_Default(self, s: A.Default):
        if not self.switches:
            self.error("'default' statement not in switch statement", s.loc)
        elif self.switches[-1]["default"]:
            self.error("multiple default labels in one switch", s.loc)
        else:
            self.switches[-1]["default"] = True
        s.body = yield self.statement_step(s.body)
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
        if getattr(self.fn, "deduce_return", False):
            self.deduce_return_type(s)   # lambdas.py
        ret = self.fn.ty.ret
        if s.value is None:
            if not T.is_void(ret):
                self.error(f"non-void function '{self.fn.name}' should return a value", s.loc)
            return s
        if isinstance(s.value, A.InitList):   # `return {x, y};`: the return type's list-initialisation
            if T.is_void(ret):
                self.fail(f"void function '{self.fn.name}' should not return a value", s.loc)
            s.value = self.braced_assigned_value(s.value, ret)   # operators.py
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

    # exceptions: a throw ends the program as an uncaught exception; a handler never runs
    def host_only_exceptions(self, s: A.Node) -> None:
        if self.fn is not None and ("device" in self.fn.exec_space or "global" in self.fn.exec_space):
            self.error("device code does not support exception handling", s.loc)

    def stmt_Throw(self, s: A.Throw):
        self.host_only_exceptions(s)
        if s.value is None:
            self.fail("a 'throw;' that rethrows is not supported (minicuda never catches an exception)", s.loc)
        std = std_exception_constructed(s.value, self.type_of)
        if std is not None:
            s.type_name, args = std
            if len(args) > (0 if s.type_name in ("std::exception", "std::bad_alloc") else 1) or \
                    (len(args) == 0 and s.type_name not in ("std::exception", "std::bad_alloc")):
                self.fail(f"no matching constructor for initialization of '{s.type_name}'", s.value.loc)
            if args:
                what = self.value(args[0])
                if isinstance(T.unqual(what.ty), T.Struct) and T.unqual(what.ty).name == "std::string":   # <string>
                    what = self.method_call(A.Call(A.Member(what, "c_str", False, loc=what.loc), [], loc=what.loc))
                s.what = self.convert(what, T.Pointer(base=T.Prim("char", const=True)), "parameter",
                                      args[0].loc)
            s.value = None
            return s
        value = self.value(s.value)
        s.type_name = thrown_type_name(value.ty)
        if derives_from_std_exception(T.unqual(value.ty)):   # its what(): the message it holds
            s.what = self.value(A.Member(value, "__what", loc=value.loc))
            s.value = None
        else:
            s.value = value
        return s

    def stmt_Try(self, s: A.Try):
        self.host_only_exceptions(s)
        s.body = yield self.block(s.body)
        for handler in s.handlers:
            with self.in_scope(Scope(self.scope)):
                p = handler.param
                if p is not None:
                    p.ty = self.declarator_type(self.base_type(p.specs), p.declarator)
                    if p.declarator.name:
                        self.scope.names[p.declarator.name] = p
                handler.body = yield self.block(handler.body)
        return s


def std_exception_constructed(value: A.Expr, type_of) -> tuple[str, list] | None:
    """("std::runtime_error", its arguments) for `throw std::runtime_error(...)`
    (a std exception class <exception> and <stdexcept> declare), else None."""
    if isinstance(value, A.Construct) and value.type_name is not None:
        t = T.unqual(type_of(value.type_name))
        if is_std_exception(t):
            return t.name, value.args
    return None


def thrown_type_name(t: T.Type) -> str:
    """The thrown object's type as libstdc++'s terminate message spells it ('char const*')."""
    t = T.unqual(t)
    if isinstance(t, T.Array):
        t = T.Pointer(base=t.elem)
    if isinstance(t, T.Pointer):
        base = t.base
        return thrown_type_name(base) + (" const" if base.const else "") + "*"
    if is_std_exception(t):
        return t.name
    return t.spelled()


def derives_from_std_exception(t: T.Type) -> bool:
    """A class thrown by value whose report shows its what() (`struct GpuError :
    std::runtime_error`): one of <stdexcept>'s, or a class derived from one."""
    while isinstance(t, T.Struct) and t.info.fields is not None:
        if is_std_exception(t):
            return True
        t = t.info.base
    return False


def is_std_exception(t: T.Type) -> bool:
    return isinstance(t, T.Struct) and t.name.startswith("std::") and t.name[len("std::"):] in EXCEPTIONS

"""The analyser: one object per file, composed of one mixin per concern.

`Sema` holds the state of one file's analysis: the scopes (`globals`, `scope`), the
struct tags, the function whose body is being checked (`fn`) with its loop depth and
enclosing switches, and what the translation unit gets at the end (`functions`,
`global_vars`, the template `instances`).  `check` declares every top-level entity
first, in order, then checks the function bodies, so that a body may call a function
defined after it.  Errors are reported through the DiagnosticEngine: `error` reports
and goes on, `fail` reports and abandons the expression or declaration at hand
(`Abort`), which the enclosing statement or declaration catches.
"""
from __future__ import annotations

from minicuda.diagnostics import DiagnosticEngine, SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar.preprocess import is_system_location
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.grammar.sema.calls import Calls
from minicuda.grammar.sema.classes import Classes
from minicuda.grammar.sema.conversions import Conversions
from minicuda.grammar.sema.cxx import Cxx
from minicuda.grammar.sema.declarations import Declarations
from minicuda.grammar.sema.declarators import Declarators
from minicuda.grammar.sema.expressions import Expressions
from minicuda.grammar.sema.lambdas import Lambdas
from minicuda.grammar.sema.operators import Operators
from minicuda.grammar.sema.scopes import Abort, Scope, Scopes
from minicuda.grammar.sema.statements import Statements
from minicuda.grammar.sema.templates import ClassTemplates, Templates


class Sema(Scopes, Declarators, Declarations, Statements, Expressions, Operators, Conversions, Calls, Templates,
           ClassTemplates, Lambdas, Classes, Cxx):
    def __init__(self, diags: DiagnosticEngine):
        self.diags = diags
        self.globals = Scope()
        self.scope = self.globals
        self.poisoned: set[str] = set()
        self.tags: dict[str, T.Struct] = {}
        self.fn: A.FunctionDef | None = None
        self.loops = 0
        self.switches: list[dict] = []
        self.functions: list[A.FunctionDef] = []
        self.instances: dict[tuple, A.FunctionDef] = {}
        self.class_templates: dict = {}            # name -> ClassTemplateFamily (templates.py)
        self.function_specializations: dict = {}   # id(function template) -> its explicit specialisations
        self.global_vars: list[A.VarDecl] = []
        self.static_local_names: set[str] = set()
        self.mutable_members: set[tuple[str, str]] = set()   # (class, member) declared `mutable`
        self.method_bodies: list[A.FunctionDef] = []   # member functions, checked after the file's functions
        self.early: dict[int, tuple[A.Expr, A.Expr]] = {}   # id -> (node, what its early check gave)
        self.walked: dict[int, A.Expr] = {}                # id -> node: its operands were looked at

    # ---- reporting ---------------------------------------------------------------------
    def error(self, msg: str, loc: SourceLocation | None) -> None:
        self.diags.error(msg, loc)

    def fail(self, msg: str, loc: SourceLocation | None):
        self.diags.error(msg, loc)
        raise Abort()

    def guarded(self, check, e):
        """check(e), or e unchanged when its error has been reported: the statement goes on."""
        try:
            return check(e)
        except Abort:
            return e

    # ---- translation unit ------------------------------------------------------------------
    def check(self, tu: A.TranslationUnit) -> A.TranslationUnit:
        self.poisoned = tu.poisoned
        functions: list[A.FunctionDef] = []
        self.top_level(tu.decls, self.globals, functions)   # namespaces included (cxx.py)
        for decl in functions:
            if isinstance(decl, A.FunctionDef) and decl.body is not None and not decl.is_template \
                    and decl.ty is not None and decl.owner is None:  # a declaration with errors has no type
                self.function_body(decl)
        self.check_method_bodies()
        # a bundled header's inline function is the program's only where called, as C++ emits
        # an inline function only where it is odr-used (cudaMemAdvise's CUDA 13 form), by the
        # program or by a header function it keeps (<math.h>'s frexp calls scalbn)
        tu.functions = kept_functions(self.functions)
        tu.global_vars = self.global_vars
        tu.instantiations = [f for f in self.instances.values()]
        return tu

    # ---- constant evaluation (grammar/consteval.py) ------------------------------------------
    def const_eval_var(self, v: A.VarDecl):
        return consteval.constant_variable(v)

    def const_eval(self, e: A.Expr):
        """The value of an integer constant expression (typed), else None."""
        return consteval.evaluate_or_none(e)


def kept_functions(functions: list[A.FunctionDef]) -> list[A.FunctionDef]:
    """`functions` less the bundled headers' inline functions no kept function calls."""
    optional = {id(f) for f in functions if unused_header_inline(f)}
    kept: set[int] = set()
    changed = True
    while changed:
        changed = False
        for f in functions:
            if id(f) in optional and id(f) not in kept and any(
                    c is None or id(c) not in optional or id(c) in kept for c in f.callers):
                kept.add(id(f))
                changed = True
    return [f for f in functions if id(f) not in optional or id(f) in kept]


def unused_header_inline(fn: A.FunctionDef) -> bool:
    """Whether `fn` is an inline free function of a bundled header (kept only where called)."""
    return fn.owner is None and "inline" in fn.specs.storage and not fn.name.startswith("operator") \
        and "global" not in fn.exec_space and is_system_location(fn.loc)

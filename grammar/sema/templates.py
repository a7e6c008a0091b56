"""Function templates: arguments bound or deduced, one instantiation per binding.

A call of a template binds its parameters to the explicit template arguments (a type,
or an integer constant expression) and deduces the remaining type parameters from
the call's arguments (`T *p` given a `float *` binds T to float).  Each distinct
binding is instantiated once (`instances`, keyed by the template and the printed
arguments): a deep copy of the template with `template_args` and `instance_name`
(`reduce<256>`), its declaration checked in a scope where the type parameters are
typedefs and the value parameters constants, and its body checked like any other.
An error inside an instantiation is followed by a note at the call that asked for it.
"""
from __future__ import annotations

import copy

from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.grammar.sema.scopes import ConstSym, Scope, TypedefSym


class Templates:
    """Needs from the analyser: `globals`, `instances`, `in_scope`, `type_of`, `value`,
    `const_eval`, the declarators, `function_space` and `function_body`."""

    def instantiate(self, tmpl: A.FunctionDef, targs: list, args: list, loc) -> A.FunctionDef:
        bound = self.template_arguments(tmpl, targs, args, loc)
        key = (id(tmpl), tuple(str(b) if isinstance(b, T.Type) else b for b in bound))
        if key in self.instances:
            return self.instances[key]
        scope = self.template_scope(tmpl.template_params, bound, tmpl.home)
        inst = copy.deepcopy(tmpl, {id(tmpl.home): tmpl.home})   # its namespace is shared, not copied
        inst.template_args = bound
        inst.instance_name = f"{tmpl.name}<{', '.join(str(b) for b in bound)}>"
        self.instances[key] = inst
        with self.in_scope(scope):
            self.declare_instance(inst)
        if inst.body is not None:
            errors = self.diags.error_count
            self.function_body(inst, template_scope=scope)
            if self.diags.error_count > errors:
                self.diags.note(f"in instantiation of function template specialization '{inst.instance_name}' requested here", loc)
        else:
            self.fail(f"function template '{tmpl.name}' is declared but never defined", loc)
        return inst

    def template_arguments(self, tmpl: A.FunctionDef, targs: list, args: list, loc) -> list:
        """One type or integer per template parameter: given explicitly, else deduced."""
        params = tmpl.template_params
        if len(targs) > len(params):
            self.fail(f"too many template arguments for function template '{tmpl.name}'", loc)
        bound: list = []
        for i, p in enumerate(params):
            if i < len(targs):
                bound.append(self.explicit_template_argument(p, targs[i]))
            elif p.kind == "type":
                t = self.deduce(tmpl, p.name, args)
                if t is None:
                    self.fail(f"no matching function for call to '{tmpl.name}': couldn't infer template argument '{p.name}'", loc)
                bound.append(t)
            else:
                self.fail(f"no matching function for call to '{tmpl.name}': couldn't infer template argument '{p.name}'", loc)
        return bound

    def explicit_template_argument(self, p: A.TemplateParam, a):
        if p.kind == "type":
            if not isinstance(a, A.TypeName):
                self.fail(f"template argument for template type parameter must be a type", a.loc)
            return self.type_of(a)
        if isinstance(a, A.TypeName):
            self.fail(f"template argument for non-type template parameter must be an expression", a.loc)
        v = self.value(a)
        n = self.const_eval(v)
        if n is None or not T.is_integer(v.ty):
            self.fail(f"non-type template argument is not a constant expression", a.loc)
        return int(n)

    def template_scope(self, params: list[A.TemplateParam], bound: list, home: Scope | None = None) -> Scope:
        """The template's parameters as names (types as typedefs, values as constants), in
        the scope of its namespace (`home`) or the file's."""
        scope = Scope(home or self.globals)
        for p, b in zip(params, bound):
            if p.kind == "type":
                scope.names[p.name] = TypedefSym(p.name, b)
            else:
                pty = self.declarator_type(self.base_type(p.specs), p.declarator)
                scope.names[p.name] = ConstSym(p.name, pty, consteval.wrap(b, pty) if T.is_integer(pty) else b)
        return scope

    def declare_instance(self, inst: A.FunctionDef) -> None:
        """The instantiation's execution space, type and parameters."""
        inst.exec_space = self.function_space(inst)
        base = self.base_type(inst.specs)
        fparams: list[A.ParamDecl] = []
        inst.ty = self.declarator_type(base, inst.declarator, fparams)
        inst.params = fparams
        self.check_launch_bounds(inst)
        if "global" in inst.exec_space and not T.is_void(inst.ty.ret):
            self.error("a __global__ function must have a void return type", inst.loc)

    def deduce(self, tmpl: A.FunctionDef, tname: str, args: list) -> T.Type | None:
        for p, a in zip(tmpl.declarator.params_suffix.params if tmpl.declarator.params_suffix else [], args):
            depth, d = sum(1 for q in p.declarator.pointers if not q.reference), p.declarator
            if p.specs.type_name == tname:
                t = T.unqual(a.ty)
                for _ in range(depth):
                    if not isinstance(t, T.Pointer):
                        return None
                    t = t.base
                return T.unqual(t)
        return None

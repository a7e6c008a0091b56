"""Function templates: arguments bound or deduced, one instantiation per binding.

A call of a template binds its parameters to the explicit template arguments (a type,
or an integer constant expression) and deduces the remaining type parameters from
the call's arguments (`T *p` given a `float *` binds T to float).  Each distinct
binding is instantiated once (`instances`, keyed by the template and the printed
arguments): a deep copy of the template with `template_args` and `instance_name`
(`reduce<256>`), its declaration checked in a scope where the type parameters are
typedefs and the value parameters constants, and its body checked like any other.
An error inside an instantiation is followed by a note at the call that asked for it.
An explicit specialisation (`template <> int f<int>(int)`) is used for its arguments
instead of an instantiation.

Class templates (`ClassTemplates`): a class template's family (`ClassTemplateFamily`)
holds its primary template, its explicit and partial specialisations, and its members
defined outside the class.  `Foo<int, 4>` is one struct per distinct argument list,
named as clang prints it (`Foo<int, 4>`): the most specialised matching template (an
explicit specialisation, else the partial one with fewest parameters, else the primary)
is copied with the struct's name as its tag and checked like a class, in a scope where
its parameters are bound and its own name (`Foo`, the injected class name) is the
struct; its out-of-class members and static data members follow.  Its member
functions' bodies are checked with the class's (classes.py), in that scope.
"""
from __future__ import annotations

import copy

from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.grammar.sema.scopes import Abort, ConstSym, Overloads, Scope, TypedefSym


class Templates:
    """Needs from the analyser: `globals`, `instances`, `in_scope`, `type_of`, `value`,
    `const_eval`, the declarators, `function_space` and `function_body`."""

    def instantiate(self, tmpl: A.FunctionDef, targs: list, args: list, loc) -> A.FunctionDef:
        bound = self.template_arguments(tmpl, targs, args, loc)
        key = (id(tmpl), tuple(str(b) if isinstance(b, T.Type) else b for b in bound))
        if key in self.instances:
            return self.instances[key]
        for spec in self.function_specializations.get(id(tmpl), ()):
            if spec.template_args == bound:
                self.instances[key] = spec
                return spec
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
            elif (n := self.deduce_length(tmpl, p.name, args)) is not None:
                bound.append(n)
            else:
                self.fail(f"no matching function for call to '{tmpl.name}': couldn't infer template argument '{p.name}'", loc)
        return bound

    def deduce_length(self, tmpl: A.FunctionDef, nname: str, args: list) -> int | None:
        """N from a parameter `T (&a)[N]` given an array."""
        for p, a in zip(tmpl.declarator.params_suffix.params if tmpl.declarator.params_suffix else [], args):
            array = array_reference_argument(p, a)
            size = p.declarator.suffixes[0].size if array is not None else None
            if isinstance(size, A.Name) and size.name == nname:
                return array.length
        return None

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
        base = self.function_base(inst.specs, inst.declarator)
        fparams: list[A.ParamDecl] = []
        inst.ty = self.declarator_type(base, inst.declarator, fparams)
        inst.params = fparams
        self.check_launch_bounds(inst)
        if "global" in inst.exec_space and not T.is_void(inst.ty.ret):
            self.error("a __global__ function must have a void return type", inst.loc)

    def deduce(self, tmpl: A.FunctionDef, tname: str, args: list) -> T.Type | None:
        for p, a in zip(tmpl.declarator.params_suffix.params if tmpl.declarator.params_suffix else [], args):
            array = array_reference_argument(p, a)
            if array is not None and p.specs.type_name == tname and p.specs.template_args is None:
                return T.unqual(array.elem)   # T (&a)[N] given an array of T
            depth, d = sum(1 for q in p.declarator.pointers if not q.reference), p.declarator
            t = T.unqual(a.ty)
            for _ in range(depth):
                if not isinstance(t, T.Pointer):
                    t = None
                    break
                t = t.base
            if t is None:
                continue
            if p.specs.type_name == tname and p.specs.template_args is None:
                return T.unqual(t)
            found = self.deduce_from_specialization(p.specs, T.unqual(t), tname)
            if found is not None:
                return found
        return None

    def deduce_from_specialization(self, specs: A.DeclSpecs, t: T.Type, tname: str) -> T.Type | None:
        """T from a parameter `Foo<T> p` given a `Foo<int>` (`std::vector<T>` given a `vector<int>`)."""
        if specs.template_args is None or not isinstance(t, T.Struct) or t.info.template_name is None or \
                self.class_templates.get(t.info.template_name) is not self.class_templates.get(specs.type_name):
            return None
        for pattern, actual in zip(specs.template_args, t.info.template_args):
            if isinstance(pattern, A.TypeName) and pattern.specs.type_name == tname and not pattern.declarator.pointers \
                    and pattern.specs.template_args is None and isinstance(actual, T.Type):
                return actual
        return None

    def function_specialization(self, fn: A.FunctionDef) -> None:
        """`template <> int f<int>(int a)`: used instead of instantiating f for <int>."""
        sym = self.namespace_scope().names.get(fn.name)
        tmpl = next((f for f in sym.functions if f.is_template), None) if isinstance(sym, Overloads) else None
        if tmpl is None:
            self.fail(f"no function template matches function template specialization '{fn.name}'", fn.loc)
        bound = self.template_arguments(tmpl, fn.declarator.template_args or [], [], fn.loc)
        fn.template_args = bound
        fn.instance_name = f"{tmpl.name}<{', '.join(str(b) for b in bound)}>"
        self.declare_instance(fn)
        self.function_specializations.setdefault(id(tmpl), []).append(fn)
        self.method_bodies.append(fn)


class ClassTemplateFamily:
    """A class template: its primary definition, its specialisations, its members defined
    outside the class, and its instances (argument list -> struct)."""

    def __init__(self, name: str):
        self.name = name
        self.primary: A.ClassTemplate | None = None
        self.specializations: list[A.ClassTemplate] = []
        self.members: list[A.FunctionDef] = []
        self.statics: list[A.TemplateStatic] = []
        self.instances: dict[tuple, T.Struct] = {}


class ClassTemplates:
    """Needs from the analyser: `class_templates`, `tags`, `globals`, `in_scope`, `type_of`,
    `value`, `const_eval`, `struct_type`, `define_member`, `declaration`, the function
    templates' `explicit_template_argument` and `template_scope`."""

    def template_declaration(self, decl) -> None:
        """A class template, one of its specialisations, or a member of one defined outside it."""
        if isinstance(decl, A.ClassTemplate):
            family = self.class_templates.setdefault(decl.spec.tag, ClassTemplateFamily(decl.spec.tag))
            decl.home = self.scope if self.scope is not self.globals else None
            if self.scope.prefix:   # a namespace's template is named `std::vector` too
                self.class_templates[self.scope.prefix + decl.spec.tag] = family
            if decl.spec.template_args is None:
                if family.primary is not None:
                    self.fail(f"redefinition of '{decl.spec.tag}'", decl.loc)
                family.primary = decl
            elif family.primary is None:
                self.fail(f"explicit specialization of undeclared template struct '{decl.spec.tag}'", decl.loc)
            else:
                family.specializations.append(decl)
        elif isinstance(decl, A.TemplateStatic):
            self.template_family(decl.decl.decls[0].declarator.qualifier, decl.loc).statics.append(decl)
        elif decl.declarator.qualifier_args is not None:
            self.template_family(decl.declarator.qualifier, decl.loc).members.append(decl)
        else:
            self.function_specialization(decl)

    def template_family(self, name: str, loc) -> ClassTemplateFamily:
        family = self.class_templates.get(name)
        if family is None or family.primary is None:
            self.fail(f"no template named '{name}'", loc)
        return family

    def class_instance(self, name: str, targs: list, loc) -> T.Struct:
        """The struct `name<targs...>`, instantiated on first use."""
        family = self.class_templates.get(name)
        if family is None or family.primary is None:
            self.fail(f"'{name}' is not a class template", loc)
        bound = self.class_template_arguments(family, targs, loc)
        key = tuple(str(b) for b in bound)
        if key in family.instances:
            return family.instances[key]
        chosen, chosen_bound = self.chosen_template(family, bound)
        s = T.define_struct(f"{family.name}<{', '.join(str(b) for b in bound)}>", chosen.spec.kind)
        family.instances[key] = s
        self.tags[s.name] = s
        scope = self.template_scope(chosen.params, chosen_bound, chosen.home)
        scope.names[family.name] = TypedefSym(family.name, s)   # the injected class name
        s.info.template_name, s.info.template_args, s.info.template_scope = family.name, tuple(bound), scope
        spec = copy.deepcopy(chosen.spec)
        spec.tag, spec.template_args = s.name, None
        errors = self.diags.error_count
        with self.in_scope(scope):
            self.struct_type(spec)
        if chosen is family.primary:
            self.out_of_class_members(family, s, bound)
        if self.diags.error_count > errors:
            self.diags.note(f"in instantiation of template class '{s.name}' requested here", loc)
        return s

    def class_template_arguments(self, family: ClassTemplateFamily, targs: list, loc) -> list:
        """One type or integer per parameter of the primary template: given, else its default."""
        params = family.primary.params
        if len(targs) > len(params):
            self.fail(f"too many template arguments for class template '{family.name}'", targs[len(params)].loc)
        bound: list = []
        for i, p in enumerate(params):
            if i < len(targs):
                bound.append(self.explicit_template_argument(p, targs[i]))
            elif p.default is not None:
                with self.in_scope(self.template_scope(params[:i], bound, family.primary.home)):
                    bound.append(self.explicit_template_argument(p, p.default))
            else:
                self.fail(f"too few template arguments for class template '{family.name}'", loc)
        return bound

    def chosen_template(self, family: ClassTemplateFamily, bound: list) -> tuple[A.ClassTemplate, list]:
        """The specialisation `bound` uses (fewest parameters first: an explicit one before a
        partial one), with its own parameters' values; else the primary template."""
        for spec in sorted(family.specializations, key=lambda c: len(c.params)):
            found = self.specialization_match(spec, bound)
            if found is not None:
                return spec, [found[p.name] for p in spec.params]
        return family.primary, bound

    def specialization_match(self, spec: A.ClassTemplate, bound: list) -> dict | None:
        """The values of `spec`'s parameters that make its argument patterns `bound`, or None."""
        patterns = spec.spec.template_args
        if len(patterns) != len(bound):
            return None
        names = {p.name for p in spec.params}
        found: dict = {}
        for pattern, actual in zip(patterns, bound):
            if not self.pattern_match(pattern, actual, names, found, spec.home):
                return None
        return found if set(found) == names else None

    def pattern_match(self, pattern, actual, names: set, found: dict, home) -> bool:
        """Whether one argument pattern (`T *`, `const T`, `1`, `int`) matches `actual`,
        binding the parameters it names in `found`."""
        if isinstance(pattern, A.TypeName):
            if not isinstance(actual, T.Type):
                return False
            specs, d = pattern.specs, pattern.declarator
            if specs.type_name in names and specs.template_args is None and not d.suffixes:
                t = actual
                for ptr in reversed(d.pointers):
                    if ptr.reference or not isinstance(t, T.Pointer) or t.const != ("const" in ptr.qualifiers):
                        return False
                    t = t.base
                if "const" in specs.qualifiers:
                    if not t.const:
                        return False
                    t = T.qualified(t, const=False)
                return found.setdefault(specs.type_name, t) == t
            with self.in_scope(self.template_scope([], [], home)):
                return self.type_of(copy.deepcopy(pattern)) == actual
        if isinstance(pattern, A.Name) and pattern.name in names:
            return found.setdefault(pattern.name, actual) == actual
        if isinstance(actual, T.Type):
            return False
        with self.in_scope(self.template_scope([], [], home)):
            n = self.const_eval(self.value(copy.deepcopy(pattern)))
        return n is not None and int(n) == actual

    def out_of_class_members(self, family: ClassTemplateFamily, s: T.Struct, bound: list) -> None:
        """The members of the primary template defined outside it, for the struct `s`."""
        for member in family.members:
            fn = copy.deepcopy(member)
            fn.template_params, fn.declarator.qualifier, fn.declarator.qualifier_args = [], s.name, None
            fn.outer_scope = self.template_scope(member.template_params, bound, family.primary.home)
            fn.outer_scope.names[family.name] = TypedefSym(family.name, s)
            try:
                with self.in_scope(fn.outer_scope):
                    self.define_member(fn)
            except Abort:
                pass
        for static in family.statics:
            decl = copy.deepcopy(static.decl)
            for v in decl.decls:
                v.declarator.qualifier, v.declarator.qualifier_args = s.name, None
            scope = self.template_scope(static.params, bound, family.primary.home)
            scope.names[family.name] = TypedefSym(family.name, s)
            try:
                with self.in_scope(scope):
                    self.declaration(decl, top_level=True)
            except Abort:
                pass
            for v in decl.decls:
                self.globals.names[v.name] = v

    def scoped_template_name(self, e: A.Name) -> None:
        """`Foo<int>::get` names the member of the struct `Foo<int>`."""
        tid, e.scope_type = e.scope_type, None
        s = self.class_instance(tid.name, tid.args, tid.loc)
        e.name = f"{s.name}::{e.name.rpartition('::')[2]}"


def array_reference_argument(p: A.ParamDecl, a: A.Expr) -> T.Array | None:
    """The array given to a parameter declared `T (&a)[N]` (the argument decays: its operand)."""
    d = p.declarator
    if d.nested is None or [q.reference for q in d.nested.pointers] != ["&"] or d.nested.suffixes \
            or len(d.suffixes) != 1 or not isinstance(d.suffixes[0], A.ArraySuffix):
        return None
    if isinstance(a, A.Cast) and a.implicit:
        a = a.operand
    t = T.unqual(a.ty)
    return t if isinstance(t, T.Array) and t.length is not None else None

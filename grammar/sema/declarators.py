"""Types from declarations: specifiers and declarators read as C types.

`base_type` reads the specifiers (`const unsigned int`, a typedef name, a struct
definition or reference); `declarator_type` applies a declarator to it: first its
pointers, then its suffixes (arrays, parameter lists) from right to left.  Array sizes
are integer constant expressions, evaluated exactly (grammar/consteval.py).  A struct
is defined once per tag; a reference before the definition is an incomplete type that
the definition completes in place.  A parenthesised declarator (`int (*cmp)(int)`) is
the outer part's type with the inner declarator applied to it; a trailing return type
(`auto f(int x) -> int`) is read with the parameters in scope.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.sema.scopes import Scope, TypedefSym


class Declarators:
    """Needs from the analyser: `scope`, `tags`, `fail`, `error`, `value`, `convert`
    and `const_eval`."""

    def base_type(self, specs: A.DeclSpecs) -> T.Type:
        loc = specs.loc
        if specs.struct is not None:
            if specs.type_words or specs.type_name:
                end = getattr(specs.struct, "end", None)
                if specs.struct.members is not None and end is not None:
                    self.fail(f"expected ';' after {specs.struct.kind}", end)
                self.fail("cannot combine with previous declaration specifier", loc)
            ty = self.struct_type(specs.struct)
        elif specs.enum is not None:
            ty = self.enum_type(specs.enum)
        elif specs.decltype is not None:
            ty = self.expr(specs.decltype).ty
        elif "auto" in specs.type_words:
            self.fail("'auto' not allowed here", loc)
        elif specs.template_args is not None:
            ty = self.class_instance(specs.type_name, specs.template_args, loc)   # Foo<int> (templates.py)
            if specs.member_type is not None:
                ty = self.member_type(ty, specs.member_type, loc)
        elif specs.type_name is not None:
            if specs.type_words:
                self.fail(f"cannot combine with previous '{specs.type_words[-1]}' declaration specifier", loc)
            ty = self.named_type(specs.type_name, loc)
        elif specs.type_words:
            name = T.prim_from_words(specs.type_words)
            if name is None:
                self.fail(f"cannot combine with previous '{specs.type_words[0]}' declaration specifier", loc)
            ty = T.Prim(name=name)
        else:
            self.fail("a type specifier is required for all declarations", loc)
        if "const" in specs.qualifiers or "constexpr" in specs.storage:   # a constexpr variable is const
            ty = T.qualified(ty, const=True)
        if "volatile" in specs.qualifiers:
            ty = T.qualified(ty, volatile=True)
        return ty

    def named_type(self, name: str, loc) -> T.Type:
        sym = self.scope.lookup(name)
        if isinstance(sym, TypedefSym):
            return sym.ty
        if name in self.tags:
            return self.tags[name]
        if name in self.class_templates:
            self.fail(f"use of class template '{name}' requires template arguments", loc)
        self.fail(f"unknown type name '{name}'", loc)

    def member_type(self, owner: T.Type, name: str, loc) -> T.Type:
        """The member typedef `name` of the class `owner`."""
        if isinstance(owner, T.Struct) and name in owner.info.typedefs:
            return owner.info.typedefs[name].ty
        self.fail(f"no type named '{name}' in '{owner}'", loc)

    def struct_type(self, spec: A.StructSpec) -> T.Struct:
        if spec.members is None:
            named = self.scope.lookup(spec.tag)   # a struct of a namespace (cxx.py)
            if isinstance(named, TypedefSym) and isinstance(named.ty, T.Struct) and named.ty.kind == spec.kind:
                return named.ty
            if spec.tag in self.tags:
                return self.tags[spec.tag]
            s = T.define_struct(spec.tag, spec.kind)  # a forward declaration
            self.tags[spec.tag] = s
            return s
        if spec.tag and self.scope.prefix and "::" not in spec.tag:   # declared in a namespace: ns::S
            short, spec.tag = spec.tag, self.scope.prefix + spec.tag
            if spec.tag not in self.tags:
                self.tags[spec.tag] = T.define_struct(spec.tag, spec.kind)
            self.scope.names[short] = TypedefSym(short, self.tags[spec.tag], spec.loc)
        if spec.tag and spec.tag in self.tags and self.tags[spec.tag].info.fields is None:
            s = self.tags[spec.tag]
        else:
            if spec.tag and spec.tag in self.tags:
                self.fail(f"redefinition of '{spec.tag}'", spec.loc)
            s = T.define_struct(spec.tag or "", spec.kind)
            if spec.tag:
                self.tags[spec.tag] = s
        members: list[tuple[str, T.Type]] = []
        seen: set[str] = set()
        s.info.typedefs = {}
        with self.in_scope(self.member_typedef_scope()):
            self.struct_members(s, spec, members, seen)
        return s

    def member_typedef_scope(self) -> Scope:
        """The scope a class's members are declared in: its member typedefs', in front of
        the scope (and namespace) the class is declared in."""
        scope = Scope(self.scope)
        scope.prefix = self.scope.prefix
        return scope

    def member_typedef(self, s: T.Struct, m: A.StructMember) -> None:
        """`typedef unsigned long size_type;` / `using size_type = ...;` in a class: a type
        its members see as `size_type` and everyone as `Class::size_type`."""
        base = self.base_type(m.specs)
        for d in m.declarators:
            sym = TypedefSym(d.name, self.declarator_type(base, d), d.loc)
            s.info.typedefs[d.name] = self.scope.names[d.name] = sym
            outer = self.scope.parent
            outer.names[f"{s.name.removeprefix(outer.prefix)}::{d.name}"] = sym
            self.globals.names[f"{s.name}::{d.name}"] = sym

    def struct_members(self, s: T.Struct, spec: A.StructSpec, members: list, seen: set) -> None:
        for m in spec.members:
            if "typedef" in m.specs.storage:
                self.member_typedef(s, m)
                continue
            if _typeless_prototypes(m):   # `explicit Foo(const Bar &);`: class_members declares it
                continue
            base = self.function_base(m.specs, m.declarators[0]) if m.declarators else self.base_type(m.specs)
            for d in m.declarators:
                ty = self.declarator_type(base, d)
                if d.name in seen:
                    self.error(f"duplicate member '{d.name}'", d.loc)
                if isinstance(ty, T.Reference):
                    self.fail(f"a member of reference type ('{d.name}') is not supported", d.loc)
                if T.is_void(ty) or (isinstance(ty, T.Struct) and ty.info.fields is None):
                    self.error(f"field has incomplete type '{ty}'", d.loc)
                    continue
                seen.add(d.name)
                members.append((d.name, ty))
                if "mutable" in m.specs.storage:   # writable through a const object (expressions.py)
                    self.mutable_members.add((s.name, d.name))
        T.complete_struct(s, self.class_members(s, spec, members), spec.align)
        self.class_methods(s, spec)
        self.method_bodies.extend(fn for fn in spec.methods if fn.body is not None and fn.owner is s)

    def declarator_type(self, base: T.Type, d: A.Declarator, params_out: list | None = None) -> T.Type:
        ty = base
        for p in d.pointers:
            if p.reference or isinstance(ty, T.Reference):
                ty = self.reference_type(ty, p, d)
                continue
            ty = T.Pointer(base=ty, const="const" in p.qualifiers, volatile="volatile" in p.qualifiers,
                           restrict=any(q.startswith("__restrict") or q == "restrict" for q in p.qualifiers))
        for suffix in reversed(d.suffixes):
            if isinstance(suffix, A.ArraySuffix):
                if isinstance(ty, T.Function):
                    self.fail("function cannot return array type", d.loc)
                length = None
                if suffix.size is not None:
                    length = self.array_length(suffix.size)
                ty = T.Array(elem=ty, length=length)
                if length is not None and ty.size > T.MAX_OBJECT_SIZE:
                    self.fail(f"size '{ty.size}' of array '{d.name or ''}' exceeds maximum object size "
                              f"'{T.MAX_OBJECT_SIZE}'", d.loc)
            else:
                if isinstance(ty, T.Array):
                    self.fail(f"function cannot return array type '{ty}'", d.loc)
                if isinstance(ty, T.Function):
                    self.fail("function cannot return function type", d.loc)
                params = self.parameters(suffix)
                if params_out is not None and d.nested is None:
                    params_out[:] = params
                if d.trailing is not None and suffix is d.suffixes[-1]:
                    ty = self.trailing_return(d.trailing, params)
                ty = T.Function(ret=ty, params=tuple(p.ty for p in params), variadic=suffix.variadic)
        if d.nested is not None:   # `int (*p)(int)`: the pointer to what the outer part made
            if d.nested.params_suffix is not None:
                self.fail("a function returning a function pointer is not supported", d.nested.loc)
            ty = self.declarator_type(ty, d.nested)
        return ty

    def function_base(self, specs: A.DeclSpecs, d: A.Declarator) -> T.Type:
        """A function's return type as its specifiers give it; `auto` before a trailing
        return type (`auto f(int x) -> int`) stands for that type, made by declarator_type."""
        if d.trailing is None:
            return self.base_type(specs)
        if specs.type_words != ["auto"] or specs.type_name or specs.decltype is not None:
            self.fail("function with trailing return type must specify return type 'auto'", specs.loc)
        return T.VOID

    def trailing_return(self, tn: A.TypeName, params: list[A.ParamDecl]) -> T.Type:
        """`-> decltype(x + x)`: the type read with the parameters in scope."""
        saved = self.scope
        self.scope = Scope(saved)
        try:
            for p in params:
                if p.declarator.name:
                    self.scope.names[p.declarator.name] = p
            return self.type_of(tn)
        finally:
            self.scope = saved

    def reference_type(self, ty: T.Type, p: A.Pointer, d: A.Declarator) -> T.Type:
        if p.reference == "&&":
            self.fail("rvalue references ('&&') are not supported", p.loc)
        if isinstance(ty, T.Reference):
            self.fail(f"'{d.name or ''}' declared as a {'reference' if p.reference else 'pointer'} to a reference "
                      f"of type '{ty}'", p.loc)
        return T.Reference(base=ty)

    def array_length(self, size: A.Expr) -> int:
        e = self.value(size)
        if not T.is_integer(e.ty):
            self.fail(f"size of array has non-integer type '{e.ty}'", size.loc)
        n = self.const_eval(e)
        if n is None:
            self.fail("variable length array declaration not supported: array size is not a constant expression", size.loc)
        if n < 0:
            self.fail("array size is negative", size.loc)
        return int(n)

    def parameters(self, suffix: A.ParamsSuffix) -> list[A.ParamDecl]:
        params = suffix.params
        if len(params) == 1 and not params[0].declarator.name and not params[0].declarator.pointers \
                and not params[0].declarator.suffixes and params[0].specs.type_words == ["void"]:
            return []
        seen = set()
        for p in params:
            ty = self.declarator_type(self.base_type(p.specs), p.declarator)
            if isinstance(ty, T.Array):
                ty = T.Pointer(base=ty.elem, const=ty.const)
            if T.is_void(ty):
                self.fail("argument may not have 'void' type", p.loc)
            p.ty = ty
            if p.declarator.name:
                if p.declarator.name in seen:
                    self.error(f"redefinition of parameter '{p.declarator.name}'", p.loc)
                seen.add(p.declarator.name)
            if p.default is not None:
                p.default = self.convert(self.value(p.default), ty, "parameter", p.default.loc)
        return params

    def type_of(self, tn: A.TypeName) -> T.Type:
        tn.ty = self.declarator_type(self.base_type(tn.specs), tn.declarator)
        return tn.ty


def _typeless_prototypes(m: A.StructMember) -> bool:
    """Whether a class member declares only constructors or destructors (no type, each
    declarator a function's), which are no fields."""
    sp = m.specs
    typeless = not (sp.type_words or sp.type_name or sp.struct or sp.enum or sp.decltype)
    return typeless and bool(m.declarators) and all(d.params_suffix is not None for d in m.declarators)

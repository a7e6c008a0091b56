"""Classes (C++): member functions, `this`, constructors, destructors, access, statics.

A member function is an ordinary function with a hidden first parameter `this` (a
pointer to its class, to const for a const member function) and the IR name
`Class::name`; a static member function has no `this`.  Each class keeps its members
in its StructInfo: `methods` (name -> Overloads), `ctors`, `dtor`, `statics` (static
data members, file-scope variables named `Class::name`) and `access` (member ->
(public/private/protected, where it is declared)).  A single non-virtual base class
is laid out as the first field `__base`: its members and methods are found through it.

Inside a member function the class's members are in scope (`class_scope`): a field
`n` reads as `this->n`, a method `f(x)` calls `this->f(x)`.  `obj.f(x)` and `p->f(x)`
become calls with `&obj` / `p` first.  Constructing a class object (`T x(1, 2)`,
`T x{1, 2}`, `T x = T(1, 2)`, `T x;`, `T x = 5` through a converting constructor) is a
`Construct` node whose `ctor` is the constructor chosen; its member initialiser list
becomes assignments (or constructions) at the start of its body.  The lowering runs
the destructor of a local object when its scope ends (passes/lower/statements.py), and
after a destructor's body, its members' and then its base's; a class whose base or
members have a destructor and that declares none gets an empty one (`implicit_dtor`).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.sema.conversions import is_braced, pointer_convertible
from minicuda.grammar.sema.expressions import operator_location
from minicuda.grammar.sema.scopes import Abort, Overloads, Scope, TypedefSym

BASE_FIELD = "__base"


@dataclass
class FieldSym:
    """A non-static data member seen from inside a member function: reads as `this->name`."""
    name: str
    owner: T.Struct


@dataclass
class MethodSym:
    """The member functions of one name seen from inside a member function."""
    name: str
    owner: T.Struct


class Classes:
    """Needs from the analyser: `globals`, `tags`, `fn`, `functions`, the declarators,
    `function_space`, `add_overload`, `best_overload`, `bind_arguments`, `expr`, `value`,
    `convert`, `implicit`, `error`, `fail`; `check` calls `check_method_bodies` last."""

    # ---- declaring a class's members -----------------------------------------------------
    def class_members(self, s: T.Struct, spec: A.StructSpec, members: list) -> list:
        """The fields of `s` (a base class first, as `__base`), its static data members declared."""
        info = s.info
        info.methods, info.ctors, info.dtor, info.statics, info.access = {}, [], None, {}, {}
        info.implicit_ctor = None
        info.base = None
        info.home = self.scope if self.scope is not self.globals else None
        fields = []
        if spec.base is not None:
            base = self.tags.get(self.scope.prefix + spec.base) or self.tags.get(spec.base) \
                or self.named_struct(spec.base)   # a namespace's first; a class template's: its home's
            if base is None or base.info.fields is None:
                self.fail(f"base class has incomplete type '{spec.base}'", spec.loc)
            info.base = base
            fields.append((BASE_FIELD, base))
        for m in spec.members:
            if "typedef" in m.specs.storage:   # a member typedef (declarators.member_typedef)
                continue
            if "virtual" in m.specs.storage:
                self.fail("virtual member functions are not supported", m.specs.loc)
            for d in m.declarators:
                if d.params_suffix is not None and d.member_init is None:   # `int get() const;`: a member function declared
                    fn = A.FunctionDef(m.specs, d, None, name=d.name, loc=d.loc)
                    fn.access = m.access
                    spec.methods.append(fn)
                    continue
                info.access[d.name] = (m.access, d.loc)
                if "static" in m.specs.storage:
                    self.static_member(s, m, d)
                elif d.member_init is not None:
                    info.member_inits[d.name] = d.member_init
        not_fields = set(info.statics) | {fn.declarator.name for fn in spec.methods}
        return fields + [(n, t) for n, t in members if n not in not_fields and not isinstance(t, T.Function)]


    def named_struct(self, name: str):
        """The class `name` names from here (through the scopes: a class template's base in its namespace)."""
        sym = self.scope.lookup(name)
        return sym.ty if isinstance(sym, TypedefSym) and isinstance(sym.ty, T.Struct) else None
    def static_member(self, s: T.Struct, m: A.StructMember, d: A.Declarator) -> None:
        """`static int count;` in the class: a file-scope variable `Class::count`, defined
        outside the class (`int Class::count = 0;`) unless initialised here."""
        v = A.VarDecl(m.specs, d, None, name=f"{s.name}::{d.name}", loc=d.loc)
        v.ty = self.declarator_type(self.base_type(m.specs), d)
        v.space = "global" if "__device__" in m.specs.cuda else "host"
        v.is_global_scope = True
        s.info.statics[d.name] = v
        self.globals.names[v.name] = v
        if d.member_init is not None:   # `static const bool value = false;`: defined here
            v.init = self.initializer(d.member_init, v.ty)
            self.global_vars.append(v)

    def define_static_member(self, v: A.VarDecl) -> bool:
        """`int Class::count = 0;`: the definition of a static data member."""
        q = v.declarator.qualifier
        s = self.tags.get(self.scope.prefix + q) or self.tags.get(q)   # in a namespace: its class first
        if s is None or s.info.fields is None or v.declarator.name not in (getattr(s.info, "statics", None) or {}):
            self.fail(f"no member named '{v.declarator.name}' in '{q}'", v.loc)
        self.globals.names.pop(f"{s.name}::{v.declarator.name}", None)
        v.name = f"{s.name.removeprefix(self.scope.prefix)}::{v.declarator.name}"   # the namespace's prefix comes back
        s.info.statics[v.declarator.name].definition = v   # what a member function's `npos` names (lowering)
        return True

    def class_methods(self, s: T.Struct, spec: A.StructSpec) -> None:
        for fn in spec.methods:
            try:
                self.declare_method(s, fn)
                if fn.special == "default" and (fn.member_name == "operator=" or fn.member_kind == "ctor" and len(fn.ty.params) > 1):
                    self.implicit_copy(s, fn)
            except Abort:
                pass
        self.implicit_dtor(s, spec)
        self.implicit_ctor(s, spec)
        self.implicit_copies(s, spec)

    def implicit_copy(self, s: T.Struct, fn: A.FunctionDef) -> None:
        """`Foo(const Foo &) = default;`, `Foo &operator=(const Foo &) = default;`: the copy
        C++ would make without them (member by member), so the declaration is taken back."""
        info = s.info
        group = info.ctors if fn.member_kind == "ctor" else info.methods[fn.member_name].functions
        group.remove(fn)
        if fn.member_kind != "ctor" and not group:
            del info.methods[fn.member_name]
            info.access.pop(fn.member_name, None)

    def implicit_copies(self, s: T.Struct, spec: A.StructSpec) -> None:
        """A class (without a base) whose members have copy constructors (a std::string)
        gets C++'s implicit copy constructor and copy assignment where it declares none,
        member by member: `S(const S &o) : a(o.a), ... {}` (kept apart from its
        constructors, as `info.implicit_copy`: an aggregate stays one) and `S &operator=(const
        S &o) { a = o.a; ...; return *this; }`.  Other classes are copied bit by bit."""
        fields = s.info.fields
        parts = [c for t, _ in fields.values()
                 if isinstance(T.unqual(t), T.Struct) and (c := self.copy_constructor(T.unqual(t))) is not None]
        if not parts or s.info.base is not None or self.tags.get(s.name) is not s or \
                any(isinstance(T.unqual(t), T.Array) for t, _ in fields.values()):
            return
        loc = spec.loc
        if self.copy_constructor(s) is None:
            inits = [A.CtorInit(name, [self.other_member(name, loc)], loc=loc) for name in fields]
            fn = self.implicit_copy_member(s, own_name(s), [], A.Compound([], loc=loc), parts, loc)
            fn.ctor_inits = inits
            s.info.ctors.remove(fn)
            s.info.implicit_copy = fn
        if "operator=" not in s.info.methods:
            body = [A.ExprStmt(A.Assign("=", A.Name(name, loc=loc), self.other_member(name, loc), loc=loc), loc=loc)
                    for name in fields]
            this = A.Unary("*", A.Name("this", loc=loc), loc=loc)
            self.implicit_copy_member(s, "operator=", [A.Pointer([], reference="&", loc=loc)],
                                      A.Compound(body + [A.Return(this, loc=loc)], loc=loc), parts, loc)

    def other_member(self, name: str, loc) -> A.Member:
        return A.Member(A.Name("__other", loc=loc), name, False, loc=loc)

    def implicit_copy_member(self, s: T.Struct, name: str, returns: list, body: A.Compound, parts: list, loc):
        """`name(const S &__other) body` declared in s, in the execution spaces all `parts` share."""
        spaces = frozenset.intersection(*(p.exec_space for p in parts))
        cuda = [w for w, space in (("__host__", "host"), ("__device__", "device")) if space in spaces]
        other = A.ParamDecl(A.DeclSpecs(qualifiers=["const"], type_name=s.name, loc=loc),
                            A.Declarator("__other", [A.Pointer([], reference="&", loc=loc)], loc=loc), loc=loc)
        specs = A.DeclSpecs(cuda=cuda, type_name=s.name if returns else None, loc=loc)
        d = A.Declarator(name, returns, suffixes=[A.ParamsSuffix([other], loc=loc)], loc=loc)
        fn = A.FunctionDef(specs, d, body, name=name, loc=loc)
        fn.ctor_inits, fn.access = [], "public"
        self.declare_method(s, fn)
        self.method_bodies.append(fn)
        return fn

    def implicit_ctor(self, s: T.Struct, spec: A.StructSpec) -> None:
        """A class with no constructor whose base or members have one to run gets an empty
        default constructor (its member initialisers construct them), kept apart from its
        constructors as `info.implicit_ctor`: the class stays an aggregate (`P p = {..}`)."""
        if s.info.ctors:
            return
        parts = []
        for t, _ in s.info.fields.values():
            ctors = self.default_ctors(t)
            usable = [c for c in ctors if c.ty is not None and self.match_cost(c, [self.this_argument(T.unqual(t), spec.loc)]) is not None]
            if ctors and not usable:
                return   # a member without a default constructor: C++ deletes this one
            parts += usable
        if not parts:
            return
        fn = self.implicit_member(s, own_name(s), parts, spec.loc)
        s.info.ctors.remove(fn)
        s.info.implicit_ctor = fn

    def default_ctors(self, ty: T.Type) -> list:
        """The constructors `T x;` may run for a class (its implicit one when it has no
        other); [] for anything else."""
        t = T.unqual(ty)
        if not isinstance(t, T.Struct) or t.info.fields is None:
            return []
        implicit = getattr(t.info, "implicit_ctor", None)
        return list(t.info.ctors or ([implicit] if implicit is not None else []))

    def implicit_dtor(self, s: T.Struct, spec: A.StructSpec) -> None:
        """A class with no destructor whose base or members have one gets one, with an
        empty body (the lowering destroys a destructor's members and base after its body),
        run where they all can run."""
        parts = [t.info.dtor for _, t in destroyed_member(s)]
        if s.info.dtor is not None or not parts:
            return
        self.implicit_member(s, "~" + own_name(s), parts, spec.loc)

    def implicit_member(self, s: T.Struct, name: str, parts: list, loc) -> A.FunctionDef:
        """A constructor or destructor `name()` C++ declares for `s`, with an empty body,
        declared __host__ and/or __device__ as all of `parts` (its base's and members'
        own) are."""
        spaces = frozenset.intersection(*(p.exec_space for p in parts))
        cuda = [w for w, space in (("__host__", "host"), ("__device__", "device")) if space in spaces]
        d = A.Declarator(name, suffixes=[A.ParamsSuffix([], loc=loc)], loc=loc)
        fn = A.FunctionDef(A.DeclSpecs(cuda=cuda, loc=loc), d, A.Compound([], loc=loc), name=name, loc=loc)
        fn.ctor_inits, fn.access = [], "public"
        self.declare_method(s, fn)
        self.method_bodies.append(fn)
        return fn


    def method_kind(self, s: T.Struct, name: str) -> str:
        own = own_name(s)
        if name == own:
            return "ctor"
        if name == "~" + own:
            return "dtor"
        return "method"

    def declare_method(self, s: T.Struct, fn: A.FunctionDef) -> A.FunctionDef:
        """A member function's type (with `this`), execution space and place in its class."""
        if "virtual" in fn.specs.storage:
            self.fail("virtual member functions are not supported", fn.specs.loc)
        member = fn.declarator.name
        kind = self.method_kind(s, member)
        fn.owner, fn.is_static = s, "static" in fn.specs.storage
        fn.member_name, fn.member_kind = member, kind
        fn.name = f"{s.name}::{member}"
        fn.exec_space = self.function_space(fn)
        base = T.VOID if kind != "method" else self.function_base(fn.specs, fn.declarator) if fn.declarator.conversion is None \
            else self.type_of(fn.declarator.conversion)   # `operator T *()` returns a T *
        params: list[A.ParamDecl] = []
        ty = self.declarator_type(base, fn.declarator, params)
        if not isinstance(ty, T.Function):
            self.fail(f"expected function declarator for '{member}'", fn.loc)
        if not fn.is_static:
            this = A.ParamDecl(A.DeclSpecs(loc=fn.loc), A.Declarator("this", loc=fn.loc), loc=fn.loc)
            this.ty = T.Pointer(base=T.qualified(s, const=fn.declarator.const_method))
            params = [this] + params
            ty = T.Function(ret=ty.ret, params=(this.ty,) + ty.params, variadic=ty.variadic)
        fn.ty, fn.params = ty, params
        info = s.info
        if kind == "dtor":
            if info.dtor is not None and info.dtor.body is not None and fn.body is not None:
                self.error(f"redefinition of '{fn.name}'", fn.loc)
            if info.dtor is None or fn.body is not None:
                info.dtor = fn
            return fn
        group = info.ctors if kind == "ctor" else info.methods.setdefault(member, Overloads(member)).functions
        same = next((g for g in group if _same_signature(g, fn)), None)
        if same is not None:
            if same.body is not None and fn.body is not None:
                self.error(f"redefinition of '{fn.name}'", fn.loc)
                return fn
            if fn.body is None:
                return same
            fn.access = same.access
            if not fn.specs.cuda:
                fn.exec_space = same.exec_space
            group[group.index(same)] = fn
        else:
            group.append(fn)
        if kind == "method":
            info.access.setdefault(member, (fn.access, fn.loc))
            if fn.is_static:
                self.globals.names[fn.name] = info.methods[member]
        return fn

    def define_member(self, fn: A.FunctionDef) -> None:
        """`int Class::get() const { ... }`: a member function defined outside its class."""
        q = fn.declarator.qualifier
        s = self.tags.get(self.scope.prefix + q) or self.tags.get(q)   # in a namespace: its class first
        if s is None or s.info.fields is None:
            self.fail(f"use of undeclared identifier '{q}'", fn.loc)
        info = s.info
        name = fn.declarator.name
        kind = self.method_kind(s, name)
        declared = info.ctors if kind == "ctor" else ([info.dtor] if info.dtor else []) if kind == "dtor" \
            else (info.methods[name].functions if name in info.methods else [])
        if not declared:
            self.fail(f"out-of-line definition of '{name}' does not match any declaration in '{q}'", fn.loc)
        proto = declared[0]
        fn.specs.storage = [w for w in fn.specs.storage] + (["static"] if proto.is_static else [])
        if not fn.specs.cuda:
            fn.specs.cuda = list(proto.specs.cuda)
        fn.access = proto.access
        self.declare_method(s, fn)
        if fn not in (info.ctors + [info.dtor] + (info.methods[name].functions if name in info.methods else [])):
            self.fail(f"out-of-line definition of '{name}' does not match any declaration in '{q}'", fn.loc)
        self.method_bodies.append(fn)

    def check_method_bodies(self) -> None:
        """The member functions' bodies; a class template's only once used (as C++
        instantiates them), until checking the used ones uses no more."""
        checked: set[int] = set()
        while True:
            todo = [fn for fn in self.method_bodies if id(fn) not in checked and _needed(fn)]
            if not todo:
                return
            for fn in todo:
                checked.add(id(fn))
                if fn.body is not None and fn.ty is not None:
                    self.function_body(fn, template_scope=self.class_scope(fn.owner, getattr(fn, "outer_scope", None)))

    def class_scope(self, s: T.Struct | None, outer: Scope | None = None) -> Scope:
        """The names a member function of `s` sees before the file's (or before `outer`, a
        class template's parameters): its class's members, its base classes' behind them."""
        scope = Scope(outer or (s.info.template_scope or s.info.home if s is not None else None) or self.globals)
        chain = []
        while s is not None:
            chain.append(s)
            s = s.info.base
        for c in reversed(chain):
            scope.names.update(getattr(c.info, "typedefs", {}))
            for name in c.info.fields:
                if name != BASE_FIELD:
                    scope.names[name] = FieldSym(name, c)
            for name in c.info.methods:
                scope.names[name] = MethodSym(name, c)
            for name, v in c.info.statics.items():
                scope.names[name] = self.globals.names.get(v.name, v)
        return scope

    def prepare_ctor_body(self, fn: A.FunctionDef) -> None:
        """A constructor's member initialisers, as statements run before its body."""
        if getattr(fn, "member_kind", "") != "ctor" or getattr(fn, "inits_done", False):
            return
        fn.inits_done = True
        s = fn.owner
        stmts = []
        inits = {i.name: i for i in (fn.ctor_inits or [])}
        base = s.info.base
        if base is not None:
            init = inits.pop(base.name, None) or inits.pop(base.name.rpartition("::")[2], None)
            target = self.this_member(BASE_FIELD, fn.loc)
            stmts += self.member_init(target, base, init.args if init else None, init.loc if init else fn.loc)
        for name, (fty, _) in s.info.fields.items():
            if name == BASE_FIELD:
                continue
            init = inits.pop(name, None)
            target = self.this_member(name, init.loc if init else fn.loc)
            if init is None and name in s.info.member_inits:   # `T *ptr_ = nullptr;` in the class
                default = s.info.member_inits[name]
                stmts.append(A.ExprStmt(A.Assign("=", target, default, loc=default.loc), loc=default.loc))
                continue
            stmts += self.member_init(target, fty, init.args if init else None, init.loc if init else fn.loc)
        for name, init in inits.items():
            self.error(f"member initializer '{name}' does not name a non-static data member or base class", init.loc)
        fn.body.items = stmts + fn.body.items

    def this_member(self, name: str, loc) -> A.Member:
        return A.Member(A.Name("this", loc=loc), name, True, loc=loc)

    def member_init(self, target: A.Expr, ty: T.Type, args, loc) -> list:
        s = T.unqual(ty)
        if isinstance(s, T.Struct) and (self.default_ctors(s) or s.info.dtor):
            if args is None and not self.default_ctors(s):
                return []
            c = A.Construct(None, list(args or []), loc=loc)
            c.target_ty = s
            init = A.Assign("=", target, c, loc=loc)
            init.constructs = True   # the member is built in place (passes/lower/expressions.py)
            return [A.ExprStmt(init, loc=loc)]
        if args is None:
            return []
        if len(args) == 1:
            return [A.ExprStmt(A.Assign("=", target, args[0], loc=loc), loc=loc)]
        if isinstance(s, T.Struct):   # `pos{0, 0}`, `pos{}`: an aggregate member's list-initialisation
            value = self.braced_assigned_value(A.InitList(list(args), loc=loc), s)   # operators.py
            return [A.ExprStmt(A.Assign("=", target, value, loc=loc), loc=loc)]
        if not args and T.is_scalar(s):
            return [A.ExprStmt(A.Assign("=", target, A.IntLit(0, "0", loc=loc), loc=loc), loc=loc)]
        self.fail(f"excess elements in scalar initializer", loc)

    # ---- using members -------------------------------------------------------------------
    def class_name_expr(self, sym, e: A.Name):
        """A name that is a member of the class whose member function is being checked."""
        if isinstance(sym, FieldSym):
            if self.scope.lookup("this") is None:
                self.fail(f"invalid use of member '{e.name}' in static member function", e.loc)
            return self.expr(self.this_member(e.name, e.loc))
        self.fail(f"reference to non-static member function must be called", e.loc)

    def destructor_call(self, e: A.Call) -> A.Expr:
        """`p->~T()` / `obj.~T()`: the destructor run on the object, its storage kept; for a
        type without one (a scalar: `p->~int()` in a template), nothing but the operand's
        evaluation."""
        func = e.func
        obj = self.expr(func.base)
        if func.arrow:
            if not isinstance(T.unqual(obj.ty), T.Pointer):
                self.fail(f"member reference type '{obj.ty}' is not a pointer", operator_location(func))
            this, st = self.value(obj), T.unqual(obj.ty).base
        else:
            this = A.Unary("&", obj, loc=obj.loc)
            this.ty, st = T.Pointer(base=obj.ty), obj.ty
        if e.args:
            self.fail("too many arguments to function call, expected 0", e.args[0].loc)
        s, named = T.unqual(st), self.destroyed_type(func.name[1:], func.loc)
        if T.unqual(named) != s:
            self.fail(f"destructor type '{named}' in object destruction expression does not match the type "
                      f"'{st}' of the object being destroyed", func.loc)
        if isinstance(s, T.Struct) and s.info.fields is not None and s.info.dtor is not None:
            self.check_call_space(s.info.dtor, e.loc)
            call = A.Call(A.Name(s.info.dtor.name, loc=e.loc), [self.pointer_cast(this, s)], loc=e.loc)
            call.decl, call.ty = s.info.dtor, T.VOID
            return call
        kept = A.Cast(None, this, implicit=True, loc=e.loc)
        kept.ty = T.VOID
        return kept

    def emplace_call(self, base: A.Expr, func: A.Member, s: T.Struct, e: A.Call) -> A.Expr:
        """`v.emplace_back(args...)` of a class with `__emplace_slot` (<vector>): the element
        built from the arguments in place, as `v.__emplace_done(new (v.__emplace_slot())
        T(args...))` (any arguments, as C++'s variadic template takes them)."""
        element = A.TypeName(None, None, loc=e.loc)
        element.ty = s.info.typedefs["value_type"].ty
        slot = A.Call(A.Member(copy.deepcopy(base), "__emplace_slot", func.arrow, loc=func.loc), [], loc=e.loc)
        built = A.New(element, None, list(e.args), placement=[slot], loc=e.loc)
        done = A.Call(A.Member(copy.deepcopy(base), "__emplace_done", func.arrow, loc=func.loc), [built], loc=e.loc)
        return self.expr(done)

    def destroyed_type(self, name: str, loc) -> T.Type:
        """The type a destructor call's `~name` names: a class, a typedef or a template
        parameter (`~T` with T int: a pseudo-destructor); not a keyword (`~int`)."""
        if T.prim_from_words([name]) is not None:
            self.fail("expected a class name after '~' to name a destructor", loc)
        return self.named_type(name, loc)

    def method_call(self, e: A.Call):
        """`obj.f(x)`, `p->f(x)`, or `f(x)` inside a member function: `this` passed first."""
        func = e.func
        if isinstance(func, A.Member):
            pristine = copy.deepcopy(func.base) if func.name == "emplace_back" else None
            obj = self.expr(func.base)
            ot = T.unqual(obj.ty)
            if func.arrow:
                if not isinstance(ot, T.Pointer):
                    self.fail(f"member reference type '{obj.ty}' is not a pointer", operator_location(func))
                this, st = self.value(obj), ot.base
            else:
                this = A.Unary("&", obj, loc=obj.loc)
                this.ty, st = T.Pointer(base=obj.ty), obj.ty
            name = func.name
        else:
            this_sym = self.scope.lookup("this")
            if this_sym is None:   # `Foo::get()` outside Foo's member functions
                self.fail("call to non-static member function without an object argument", func.loc)
            st = T.unqual(this_sym.ty.base)
            this = A.Name("this", loc=func.loc)
            name = func.name
        s = T.unqual(st) if st is not None else None
        if not isinstance(s, T.Struct) or s.info.fields is None:
            self.fail(f"member reference base type '{st}' is not a structure or union", func.loc)
        qualifier, _, name = name.rpartition("::")   # `Base::f(x)`, `obj.Base::f()`: Base's f
        start = self.qualifying_class(s, qualifier, name, func.loc)[0] if qualifier else s
        if name == "emplace_back" and isinstance(func, A.Member) and self.find_methods(s, "__emplace_slot")[0]:
            return self.emplace_call(pristine, func, s, e)
        cands, owner = self.find_methods(start, name)
        if not cands:
            self.fail(f"no member named '{name}' in '{start}'", func.loc)
        self.check_access(owner, name, func.loc)
        args = [self.argument(a) for a in e.args]   # calls.py
        statics = all(c.is_static for c in cands)
        if statics:
            fn = self.best_overload(name, cands, args, e.loc)
        else:
            if not isinstance(func, A.Member):   # `f(x)` in a member function: this->f(x)
                this = self.value(this) if self.scope.lookup("this") is not None else None
                if this is None:
                    self.fail(f"call to non-static member function without an object argument", e.loc)
            this = self.base_pointer(this, owner)
            fn = self.best_overload(name, cands, [this] + args, e.loc) if st.const is False or \
                any(c.declarator.const_method for c in cands) else None
            if fn is None or (st.const and not fn.declarator.const_method):
                self.fail(f"'this' argument to member function '{name}' has type '{st}', but function is not marked const", func.loc)
            args = [this] + args
        self.check_call_space(fn, e.loc)
        e.args = self.bind_arguments(fn, args, e.loc)
        e.decl, e.ty = fn, T.unqual(fn.ty.ret)
        if isinstance(e.ty, T.Reference):
            return self.dereference(e, e.ty.base)   # cxx.py
        return e

    def overloaded_operator(self, name: str, operands: list, loc):
        """`a op b` of a class object as the call of its `operator op`: a member of the left
        operand's class, or a function of the file or of an operand's class's namespace
        (argument-dependent lookup: std's `operator+` of two std::strings); None when there is none."""
        first = T.unqual(operands[0].ty)
        members = self.find_methods(first, name)[0] if isinstance(first, T.Struct) else []
        this = A.Unary("&", operands[0], loc=loc)
        this.ty = T.Pointer(base=operands[0].ty)
        viable = [m for m in members if self.match_cost(m, ([] if m.is_static else [this]) + operands[1:]) is not None]
        free = self.operator_functions(name, operands, loc)
        if viable or (members and not free):
            return self.method_call(A.Call(A.Member(operands[0], name, False, loc=loc), operands[1:], loc=loc))
        if free:
            args = [self.guarded(self.value, a) for a in operands]
            fn = self.best_overload(name, free, args, loc)
            call = A.Call(A.Name(fn.name, loc=loc), operands, loc=loc)
            call.args, call.decl, call.ty = self.bind_arguments(fn, args, loc), fn, T.unqual(fn.ty.ret)
            return self.dereference(call, call.ty.base) if isinstance(call.ty, T.Reference) else call
        return None

    def operator_functions(self, name: str, operands: list, loc=None) -> list:
        """The functions `operator op` names at file scope and in the namespaces of the
        operands' classes (`std::string` -> std); of an operator function template
        (`template <class T> ostream &operator<<(ostream &, const Complex<T> &)`), its
        instance for the operands where they give every template parameter."""
        found = []
        homes = [self.globals] + [self.globals.namespace(T.unqual(o.ty).name.rpartition("::")[0])
                                  for o in operands if isinstance(T.unqual(o.ty), T.Struct) and "::" in T.unqual(o.ty).name]
        for home in homes:
            sym = home.names.get(name) if home is not None else None
            if isinstance(sym, Overloads):
                found += [f for f in sym.functions if f not in found and not f.is_template]
                found += [self.instantiate(f, [], operands, loc) for f in sym.functions
                          if f.is_template and self.deduces_all(f, operands)]
        return found

    def deduces_all(self, tmpl: A.FunctionDef, args: list) -> bool:
        """Whether the arguments give each template parameter of `tmpl`, which takes as many."""
        params = tmpl.declarator.params_suffix.params if tmpl.declarator.params_suffix else []
        return len(params) == len(args) and all(p.kind == "type" and self.deduce(tmpl, p.name, args) is not None
                                                for p in tmpl.template_params)

    def names_method(self, name: str) -> bool:
        """Whether `Class::f` names a (non-static) member function of a class."""
        qualifier, _, member = name.rpartition("::")
        s = self.tags.get(self.scope.prefix + qualifier) or self.tags.get(qualifier) if qualifier else None
        return isinstance(s, T.Struct) and s.info.fields is not None and bool(self.find_methods(s, member)[0])

    def qualifying_class(self, s: T.Struct, qualifier: str, member: str, loc) -> tuple:
        """`s` or the base of `s` that `qualifier` names (in `Base::member`), and the chain
        of `__base` hops to it."""
        hops, c = [], s
        while c is not None:
            if qualifier in (c.name, c.name.rpartition("::")[2]):
                return c, hops
            hops.append(BASE_FIELD)
            c = c.info.base
        self.fail(f"'{qualifier}::{member}' is not a member of class '{s}'", loc)

    def find_methods(self, s: T.Struct, name: str):
        while s is not None:
            if name in s.info.methods:
                return s.info.methods[name].functions, s
            s = s.info.base
        return [], None

    def base_pointer(self, this: A.Expr, owner: T.Struct) -> A.Expr:
        """`this` (a pointer to a derived class) as a pointer to its base `owner`."""
        t = T.unqual(this.ty)
        if T.unqual(t.base) == owner:
            return this
        c = A.Cast(None, this, implicit=True, loc=this.loc)
        c.ty = T.Pointer(base=T.qualified(owner, const=t.base.const))
        return c

    def find_field(self, s: T.Struct, name: str, loc=None):
        """(the field's type, the chain of `__base` hops to it, its class), or None;
        `Base::name` is looked up from the base `Base`."""
        hops = []
        if "::" in name:
            qualifier, _, name = name.rpartition("::")
            s, hops = self.qualifying_class(s, qualifier, name, loc)
        while s is not None:
            if name in s.info.fields:
                return s.info.fields[name][0], hops, s
            if s.info.base is None:
                return None
            hops.append(BASE_FIELD)
            s = s.info.base
        return None

    def check_access(self, owner: T.Struct | None, name: str, loc) -> None:
        """clang's error on a private or protected member used outside its class."""
        if owner is None or name not in (getattr(owner.info, "access", None) or {}):
            return
        access, decl_loc = owner.info.access[name]
        if access == "public":
            return
        inside = self.fn.owner if self.fn is not None else None
        while inside is not None:
            if inside == owner:
                return
            inside = inside.info.base if access == "protected" else None
        self.error(f"'{name}' is a {access} member of '{owner.name}'", loc)
        self.diags.note(f"declared {access} here", decl_loc)
        raise Abort()

    # ---- conversion operators --------------------------------------------------------------
    def conversion_operators(self, s: T.Struct, to: T.Type, explicit: bool) -> list:
        """The conversion operators of `s` (`operator T *()`) whose result converts to `to`,
        the exact ones first; an `explicit` one only where `explicit` (a condition)."""
        found = []
        while s is not None and s.info.fields is not None:
            for group in s.info.methods.values():
                found += [fn for fn in group.functions if fn.declarator.conversion is not None and fn.ty is not None
                          and (explicit or "explicit" not in fn.specs.storage)]
            s = s.info.base
        dst = T.unqual(to)
        exact = [fn for fn in found if T.unqual(fn.ty.ret) == dst]
        return exact + [fn for fn in found if fn not in exact and _converts(T.unqual(fn.ty.ret), dst)]

    def conversion_call(self, e: A.Expr, to: T.Type, loc, explicit: bool) -> A.Expr:
        """`e.operator T *()`: the class object `e` converted by its conversion operator to
        `to`; `e` itself when it has none."""
        cands = self.conversion_operators(T.unqual(e.ty), to, explicit)
        if e.ty.const:
            cands = [fn for fn in cands if fn.declarator.const_method]
        if not cands:
            return e
        fn = cands[0]
        if self.is_lvalue(e):
            this = A.Unary("&", e, loc=e.loc)
        else:
            this = A.Materialize(e, loc=e.loc)   # a temporary's conversion: `T *p = SharedMemory<T>();`
        this.ty = T.Pointer(base=e.ty)
        self.check_call_space(fn, loc)
        call = A.Call(A.Name(fn.name, loc=loc), [], loc=loc)
        call.args = self.bind_arguments(fn, [this], loc)
        call.decl, call.ty = fn, T.unqual(fn.ty.ret)
        if isinstance(call.ty, T.Reference):
            return self.dereference(call, call.ty.base)   # cxx.py
        return call

    # ---- construction ------------------------------------------------------------------
    def has_ctors(self, ty: T.Type) -> bool:
        s = T.unqual(ty)
        return isinstance(s, T.Struct) and s.info.fields is not None and bool(getattr(s.info, "ctors", None))

    def construct_object(self, s: T.Struct, args: list, loc) -> A.Construct:
        """`s(args)` by its constructors, with C++'s overload resolution."""
        s = T.unqual(s)
        if len(args) == 1 and not is_braced(args[0]) and T.unqual(args[0].ty) == s:
            return self.copied(args[0], s, loc)
        this = self.this_argument(s, loc)
        viable = [c for c in self.default_ctors(s) if self.match_cost(c, [this] + list(args)) is not None]
        fn = self.best_overload(s.name, viable, [this] + list(args), loc) if viable else None
        if fn is None:
            self.fail(f"no matching constructor for initialization of '{s}'", loc)
        self.check_access(s, s.name, loc) if s.name in s.info.access else None
        self.check_call_space(fn, loc)
        c = A.Construct(None, self.bind_arguments(fn, [this] + list(args), loc)[1:], loc=loc)
        c.ctor, c.ty = fn, s
        return c

    def copied(self, e: A.Expr, s: T.Struct, loc) -> A.Expr:
        """A copy of the object `e` as C++ makes it: by the class's copy constructor
        (`T(const T &)`) when it has one and `e` is an object, not a temporary (which C++17
        constructs in place); bitwise otherwise."""
        copy_ctor = self.copy_constructor(s)
        if copy_ctor is None or not self.is_lvalue(e):
            return e
        self.check_call_space(copy_ctor, loc)
        this = self.this_argument(s, loc)
        c = A.Construct(None, self.bind_arguments(copy_ctor, [this, e], loc)[1:], loc=loc)
        c.ctor, c.ty = copy_ctor, s
        return c

    def this_argument(self, s: T.Struct, loc) -> A.Expr:
        """A placeholder `this` for `s`'s constructors, to rank them by their other arguments."""
        this = A.IntLit(0, "0", loc=loc)
        this.ty = T.Pointer(base=s)
        return this

    def copy_constructor(self, s: T.Struct) -> A.FunctionDef | None:
        for c in getattr(s.info, "ctors", None) or ():
            params = c.ty.params[1:] if c.ty is not None else ()
            if len(params) == 1 and isinstance(params[0], T.Reference) and T.unqual(params[0].base) == s:
                return c
        return getattr(s.info, "implicit_copy", None) if isinstance(s, T.Struct) and s.info.fields is not None else None

    def new_object_initializer(self, e: A.New, ty: T.Type, nbytes: A.Expr) -> A.Expr | None:
        """`new T(args)` / `new T` of a class with constructors: its constructor called on
        the new bytes (`e.alloc`)."""
        s = T.unqual(ty)
        if e.count is not None and (self.has_ctors(s) or e.cookie):
            return self.new_array_initializer(e, s)
        if not self.has_ctors(s):
            return super().new_object_initializer(e, ty, nbytes)
        if e.braced and e.args and (list_type := self.initializer_list_parameter(s)) is not None:
            c = self.construct_object(s, [self.initializer_list(list_type, e.args, e.loc)], e.loc)   # cxx.py
        else:
            c = self.construct(s, list(e.args or []), e.loc)
        if not isinstance(c, A.Construct) or getattr(c, "ctor", None) is None:   # a bitwise copy
            return c
        return self.constructor_call(c, self.pointer_cast(e.alloc, s), e.loc)

    def new_array_initializer(self, e: A.New, s: T.Struct) -> None:
        """`new T[n]` / `new T[n]()` of a class with a constructor or destructor: its
        default constructor for each element (`e.each`), or zeroed bytes for `()`."""
        if e.args:
            self.fail("array 'new' cannot have initialization arguments", e.loc)
        if self.has_ctors(s):
            e.each = self.construct_object(s, [], e.loc)
        else:
            e.zeroed = e.args is not None
        return None

    def array_cookie(self, ty: T.Type) -> int:
        """Itanium's array cookie: `new T[n]` of a class with a destructor stores n in the
        max(sizeof(size_t), alignof(T)) bytes before the elements, for `delete[]`."""
        s = T.unqual(ty)
        if not isinstance(s, T.Struct) or s.info.fields is None or s.info.dtor is None:
            return 0
        return max(T.SIZE_T.size, s.align)

    def delete_destructor(self, ty: T.Type, pointer: A.Expr, array: bool, loc) -> A.Expr | None:
        """`delete p` of a class with a destructor: its destructor called on `*p` first
        (`delete[] p`: on each element, lowered as a loop)."""
        s = T.unqual(ty)
        if not isinstance(s, T.Struct) or s.info.fields is None or s.info.dtor is None:
            return None
        self.check_call_space(s.info.dtor, loc)
        call = A.Call(A.Name(s.info.dtor.name, loc=loc), [self.pointer_cast(pointer, s)], loc=loc)
        call.decl, call.ty = s.info.dtor, T.VOID
        return call

    def constructor_call(self, c: A.Construct, this: A.Expr, loc) -> A.Call:
        """The constructor call `c` makes, on the object `this` points to, as a void call."""
        call = A.Call(A.Name(c.ctor.name, loc=loc), [this] + c.args, loc=loc)
        call.decl, call.ty = c.ctor, T.VOID
        return call

    def pointer_cast(self, p: A.Expr, s: T.Struct) -> A.Expr:
        if T.unqual(T.unqual(p.ty).base) == s:
            return p
        c = A.Cast(None, p, implicit=True, loc=p.loc)
        c.ty = T.Pointer(base=s)
        return c

    def default_construct(self, v: A.VarDecl) -> None:
        """`T x;` for a class with constructors: its default constructor."""
        ty = T.unqual(v.ty)
        if isinstance(ty, T.Struct) and self.default_ctors(ty):
            v.init = self.construct_object(ty, [], v.loc)



def destroyed_member(s: T.Struct):
    """(name, class) of each member or base of `s` that has a destructor, in declaration order."""
    for name, (fty, _) in s.info.fields.items():
        t = T.unqual(fty)
        if isinstance(t, T.Struct) and t.info.fields is not None and getattr(t.info, "dtor", None) is not None:
            yield name, t


def _same_signature(a: A.FunctionDef, b: A.FunctionDef) -> bool:
    pa, pb = a.ty.params, b.ty.params
    return len(pa) == len(pb) and all(T.unqual(x) == T.unqual(y) for x, y in zip(pa, pb)) and \
        a.declarator.const_method == b.declarator.const_method and a.is_static == b.is_static


def _needed(fn: A.FunctionDef) -> bool:
    """Whether a member function's body is checked: a class template's member function
    only once used (its destructor always: objects are destroyed without a call)."""
    return fn.owner is None or fn.owner.info.template_name is None or fn.used or fn.member_kind == "dtor"


def _converts(src: T.Type, dst: T.Type) -> bool:
    """Whether a conversion operator's result converts implicitly to `dst`."""
    if T.is_arithmetic(src) and T.is_arithmetic(dst):
        return True
    if isinstance(src, T.Pointer) and isinstance(dst, T.Pointer):
        return pointer_convertible(src, dst)
    return dst == T.BOOL and isinstance(src, T.Pointer)


def own_name(s: T.Struct) -> str:
    """The name a class's constructors have: a class template's `Matrix<std::vector<int>>` has
    `Matrix`, a namespace's class `sim::Grid` has `Grid`."""
    return (s.info.template_name or s.name).rpartition("::")[2]

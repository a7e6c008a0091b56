"""C++ beyond classes: namespaces, using, enums, static_assert, references, new/delete,
nullptr, auto, decltype, the named casts and range-based for.

Namespaces are scopes (scopes.py): a namespace's declarations are entered in its own
`Scope`, a child of the scope around it (reopening one reuses it); a function or
variable declared in one is named by its qualified name (`ns::f`) after it is
declared, so that the IR and the messages say which it is.  `using namespace x`
makes x's names visible in the current scope, `using x::y` enters y itself.

References are `T.Reference` types.  A reference is held as its referee's address:
binding one (`bind_reference`) gives a pointer-valued expression (`&lvalue`, or a
`Materialize`d temporary for a `const T&` bound to an rvalue), and reading a name,
call or cast of reference type gives that pointer dereferenced (`dereference`), an
lvalue of the referee's type.  Later stages see only pointers.

`new` allocates with the headers' `malloc` and `delete` releases with `free` (on the
host heap, or the device heap in device code); `new T(args)` stores its one value.
Hooks for classes: `new_object_initializer` (a constructor call for `new T(args)`) and
`delete_destructor` (a destructor call before `free`); `range_for_members` (a range
with begin()/end()).
"""
from __future__ import annotations

import copy

from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.nesting import TOO_DEEP
from minicuda.grammar.sema.scopes import Abort, ConstSym, Overloads, Scope, TypedefSym

RANGE_INDEX = "__range_index"
USER_CONVERSION = 4   # an overload's cost of a converting constructor: worse than any standard conversion


class Cxx:
    """Needs from the analyser: `scope`, `globals`, `tags`, `expr`, `value`, `convert`,
    `implicit`, `is_lvalue`, `base_type`, `declarator_type`, `declaration`,
    `declare_function`, `const_eval`, `statement_step`, `error` and `fail`."""

    converting = False   # inside converts_by_constructor: no second user-defined conversion

    # ---- namespaces and using -------------------------------------------------------------
    def top_level(self, decls: list, scope: Scope, out: list) -> None:
        """Declare `decls` in `scope` (the file's or a namespace's), listing in `out`
        each function definition with the scope its body sees."""
        for decl in decls:
            try:
                with self.in_scope(scope):
                    if isinstance(decl, A.Namespace):
                        inner = scope if not decl.name else scope.add_namespace(decl.name)
                        self.top_level(decl.decls, inner, out)
                    elif isinstance(decl, (A.ClassTemplate, A.TemplateStatic)) or (isinstance(decl, A.FunctionDef) and (
                            decl.declarator.qualifier_args is not None or decl.explicit_specialization)):
                        self.template_declaration(decl)   # templates.py
                    elif isinstance(decl, A.FunctionDef) and decl.declarator.qualifier is not None:
                        self.define_member(decl)   # `int Foo::get() {...}` (classes.py)
                    elif isinstance(decl, A.FunctionDef):
                        home = self.function_home(decl, scope)
                        with self.in_scope(home):
                            try:
                                self.declare_function(decl)
                            except Abort:
                                self.poisoned.add(decl.name)
                                raise
                        decl.home = home if home is not self.globals else None
                        decl.name = home.prefix + decl.name.rsplit("::", 1)[-1]
                        if "constexpr" in decl.specs.storage and decl.body is not None and decl.ty is not None \
                                and not decl.is_template:
                            self.function_body(decl)   # now: constant expressions after it may call it
                        else:
                            out.append(decl)
                    elif isinstance(decl, A.Declaration):
                        self.declaration(decl, top_level=True)
                        self.qualify_declared(decl, scope)
                    elif isinstance(decl, (A.UsingDirective, A.UsingDecl, A.StaticAssert, A.NamespaceAlias)):
                        self.cxx_declaration(decl)
            except Abort:
                pass
            except RecursionError:
                self.error(TOO_DEEP, decl.loc)

    def function_home(self, fn: A.FunctionDef, scope: Scope) -> Scope:
        """The namespace a function belongs to: `void x::f() {...}` belongs to x."""
        if "::" not in fn.name:
            return scope
        ns = scope.namespace(fn.name.rsplit("::", 1)[0])
        if ns is None:
            self.fail(f"use of undeclared identifier '{fn.name.rsplit('::', 1)[0]}'", fn.loc)
        fn.name = fn.name.rsplit("::", 1)[1]
        return ns

    def qualify_declared(self, decl: A.Declaration, scope: Scope) -> None:
        """A namespace's variables take their qualified names (their symbols in the IR)."""
        if scope.prefix and "typedef" not in decl.specs.storage:
            for v in decl.decls:
                if isinstance(scope.names.get(v.name), A.VarDecl):
                    v.name = scope.prefix + v.name

    def namespace_scope(self) -> Scope:
        """Where a function declared here joins its overloads: the innermost namespace."""
        s = self.scope
        while s.parent is not None and not s.prefix:
            s = s.parent
        return s

    def cxx_declaration(self, decl) -> None:
        """A using-directive, using-declaration or static_assert, at file or block scope."""
        if isinstance(decl, A.UsingDirective):
            ns = self.scope.namespace(decl.namespace)
            if ns is None:
                if decl.namespace.strip(":") == "std":   # the standard library's names are global here
                    return
                self.fail("expected namespace name", decl.loc)
            self.scope.use(ns)
        elif isinstance(decl, A.NamespaceAlias):
            ns = self.scope.namespace(decl.target)
            if ns is None:
                self.fail("expected namespace name", decl.target_loc)
            self.scope.add_alias(decl.name, ns)
        elif isinstance(decl, A.UsingDecl):
            sym = self.scope.lookup(decl.name)
            if sym is None:
                head, _, last = decl.name.rpartition("::")
                if head.strip(":") == "std":
                    return
                self.fail(f"no member named '{last}' in namespace '{head}'", decl.loc)
            head, _, last = decl.name.rpartition("::")
            self.scope.names[last] = self.used_symbol(sym, last)
            home = self.scope.namespace(head) if head.strip(":") else None
            if home is not None:   # `using ns::Op;` of an enum: `Op::Add` names its enumerator here too
                prefix = last + "::"
                self.scope.names.update({k: v for k, v in home.names.items() if k.startswith(prefix)})
        else:
            self.static_assertion(decl)

    def used_symbol(self, sym, name: str):
        """What `using x::name` enters here: a function's overloads as a set of this scope's
        own (more may be declared here: <cmath>'s std::sqrt(float) beside `using ::sqrt`),
        joining those already here; any other symbol itself."""
        if not isinstance(sym, Overloads):
            return sym
        here = self.scope.names.get(name)
        mine = here if isinstance(here, Overloads) and here is not sym else Overloads(sym.name)
        mine.functions += [fn for fn in sym.functions if fn not in mine.functions]
        return mine

    def stmt_UsingDirective(self, s):
        self.cxx_declaration(s)
        return A.ExprStmt(None, loc=s.loc)

    stmt_UsingDecl = stmt_StaticAssert = stmt_NamespaceAlias = stmt_UsingDirective

    def static_assertion(self, s: A.StaticAssert) -> None:
        cond = self.value(s.cond)
        n = self.const_eval(cond) if T.is_scalar(cond.ty) else None
        if n is None:
            self.fail("static assertion expression is not an integral constant expression", s.cond.loc)
        if not n:
            text = s.message.decode("utf-8", "replace") if s.message is not None else None
            self.fail("static assertion failed" + (f": {text}" if text else ""), s.cond.loc)

    # ---- enums ----------------------------------------------------------------------------
    def enum_type(self, spec: A.EnumSpec) -> T.Type:
        """The enum's underlying type; its enumerators become constants of the scope (a
        scoped enum's only as `E::name`), its tag a type name."""
        if spec.enumerators is None:
            sym = self.scope.lookup(spec.tag)
            if not isinstance(sym, TypedefSym):
                self.fail(f"unknown type name '{spec.tag}'", spec.loc)
            return sym.ty
        ty = self.base_type(spec.base) if spec.base is not None else T.INT
        if not T.is_integer(ty):
            self.fail(f"non-integral type '{ty}' is an invalid underlying type", spec.base.loc)
        ty = T.unqual(ty)
        if spec.tag:
            self.scope.names[spec.tag] = TypedefSym(spec.tag, ty, spec.loc)
        value = 0
        for e in spec.enumerators:
            if e.value is not None:
                v = self.value(e.value)
                n = self.const_eval(v) if T.is_integer(v.ty) else None
                if n is None:
                    self.fail("expression is not an integral constant expression", e.value.loc)
                value = int(n)
            sym = ConstSym(e.name, ty, value)
            if not spec.scoped:
                self.scope.names[e.name] = sym
            if spec.tag:
                self.scope.names[f"{spec.tag}::{e.name}"] = sym
            value += 1
        return ty

    # ---- references -----------------------------------------------------------------------
    def dereference(self, e: A.Expr, referee: T.Type) -> A.Expr:
        """`e` (a pointer-valued reference) read as the lvalue it refers to."""
        e.ty = T.Pointer(base=referee)
        d = A.Unary("*", e, loc=e.loc)
        d.ty = referee
        return d

    def is_lvalue_arm(self, e: A.Expr) -> bool:
        """Whether `e` is an lvalue, a conditional of lvalue arms (`c ? x : (d ? y : z)`) included."""
        if isinstance(e, A.Conditional):
            return all(self.is_lvalue_arm(_without_qualifier_cast(a)) for a in (e.then, e.else_))
        return self.is_lvalue(e)

    def bind_reference(self, e: A.Expr, ref: T.Reference, context: str, loc) -> A.Expr:
        """The address a reference of type `ref` initialised with `e` holds."""
        base = ref.base
        src = e.operand if isinstance(e, A.Cast) and e.implicit and isinstance(T.unqual(e.operand.ty), T.Array) else e
        same = T.unqual(src.ty) == T.unqual(base) or same_array(src.ty, base)
        derived = not same and derives_from(T.unqual(src.ty), T.unqual(base))
        if self.is_lvalue(src) and (same or derived):
            if (src.ty.const and not base.const) or (src.ty.volatile and not base.volatile):
                self.fail(f"binding reference of type '{base}' to value of type '{src.ty}' drops "
                          f"'{'const' if src.ty.const else 'volatile'}' qualifier", loc)
            addr = A.Unary("&", src, loc=src.loc)
            addr.ty = T.Pointer(base=src.ty if derived else base)
            return self.implicit(addr, T.Pointer(base=base)) if derived else addr
        if isinstance(src, A.Assign) and same and _repeatable(src.target) and not (src.target.ty.const and not base.const):
            addr = A.Unary("&", _copy_tree(src.target), loc=src.loc)   # `return *this = x;`: the assigned object
            addr.ty = T.Pointer(base=base)
            after = A.Comma(src, addr, loc=src.loc)
            after.ty = addr.ty
            return after
        if isinstance(src, A.Conditional):   # c ? a : b with lvalue arms of one type is an lvalue
            arms = [_without_qualifier_cast(src.then), _without_qualifier_cast(src.else_)]
            if all(self.is_lvalue_arm(a) and T.unqual(a.ty) == T.unqual(base) for a in arms):
                addrs = [self.bind_reference(a, T.Reference(base=T.qualified(base, const=base.const or a.ty.const)),
                                             context, loc) for a in arms]
                chosen = A.Conditional(src.cond, *addrs, loc=src.loc)
                chosen.ty = T.Pointer(base=base)
                return chosen
        if not base.const or base.volatile:
            what = "a temporary of type" if same or not self.is_lvalue(src) else "a value of unrelated type"
            self.fail(f"non-const lvalue reference to type '{base}' cannot bind to {what} '{e.ty}'", loc)
        if isinstance(T.unqual(base), (T.Struct, T.Array)) and not same and not self.converts_by_constructor(e, base) \
                and not self.converts_by_operator(e, base):
            self.fail(f"a reference of type '{ref}' to a temporary of type '{e.ty}' is not supported", loc)
        value = self.convert(self.value(e), T.unqual(base), context, loc)
        temp = A.Materialize(value, loc=value.loc)
        temp.ty = T.Pointer(base=base)
        return temp

    def reference_cost(self, a: A.Expr, ref: T.Reference, conversion_cost) -> int | None:
        """The overload cost of binding `ref` to the argument `a`."""
        if isinstance(a, A.Cast) and a.implicit and isinstance(T.unqual(a.operand.ty), T.Array):
            if same_array(a.operand.ty, ref.base) and self.is_lvalue(a.operand):   # int (&a)[64]
                return 0
        src, base = T.unqual(a.ty), T.unqual(ref.base)
        if derives_from(src, base) and (ref.base.const or (self.is_lvalue(a) and not a.ty.const)):
            return 1   # derived to base, as a pointer conversion ranks
        if not ref.base.const and not (self.is_lvalue(a) and src == base):
            return None
        cost = conversion_cost(a, base)
        if cost is None and (self.converts_by_constructor(a, base) or self.converts_by_operator(a, base)):
            return USER_CONVERSION
        return cost

    def converts_by_operator(self, a: A.Expr, ty: T.Type) -> bool:
        """Whether the class object `a` converts to the class `ty` by a conversion operator of
        its own (`operator thread_group() const`), as an argument passed by value or by const
        reference."""
        src, dst = T.unqual(a.ty), T.unqual(ty)
        return isinstance(src, T.Struct) and isinstance(dst, T.Struct) and src != dst \
            and any(T.unqual(fn.ty.ret) == dst for fn in self.conversion_operators(src, dst, False))

    def converts_by_constructor(self, a: A.Expr, ty: T.Type) -> bool:
        """Whether the class `ty` has a converting constructor taking `a` (not a class
        object) by standard conversions: `const std::string &` bound to "text"."""
        s = T.unqual(ty)
        if self.converting or not self.has_ctors(s) or isinstance(T.unqual(a.ty), T.Struct):
            return False   # C++ makes at most one user-defined conversion
        self.converting = True
        try:
            return bool(self.converting_constructors(s, a))   # conversions.py
        finally:
            self.converting = False

    # ---- new and delete ---------------------------------------------------------------------
    def expr_New(self, e: A.New):
        ty = self.type_of(e.type_name) if e.type_name.specs is not None else e.type_name.ty
        if isinstance(ty, T.Reference) or T.is_void(ty) or isinstance(ty, T.Function):
            self.fail(f"cannot allocate {'reference' if isinstance(ty, T.Reference) else 'incomplete'} type '{ty}' "
                      f"with new", e.loc)
        size = self.size_of(ty, e.loc)
        if e.count is not None:
            count = self.value(e.count)
            if not T.is_integer(count.ty):
                self.fail(f"array size expression must have integral or unscoped enumeration type, not '{count.ty}'",
                          e.count.loc)
            e.count = self.implicit(count, T.SIZE_T)
            nbytes = A.Binary("*", _copy_tree(e.count), _size_literal(size, e.loc), loc=e.loc)
            nbytes.ty = T.SIZE_T
            e.cookie = self.array_cookie(ty)
            if e.cookie:
                nbytes = A.Binary("+", nbytes, _size_literal(e.cookie, e.loc), loc=e.loc)
                nbytes.ty = T.SIZE_T
        else:
            nbytes = _size_literal(size, e.loc)
        if e.braced and e.args:
            self.check_braced_new(e, ty)
        if e.placement is not None:
            e.alloc = self.placement_address(e)
        else:
            e.alloc = self.runtime_call("malloc", [nbytes], e.loc)
        e.ty = T.Pointer(base=ty)
        if e.args is not None or self.has_ctors(ty):
            e.init = self.new_object_initializer(e, ty, nbytes)
        if e.each is None and not e.zeroed and not e.cookie:
            e.count = None   # malloc's argument is all the lowering needs
        return e

    def placement_address(self, e: A.New) -> A.Expr:
        """`new (p) T(args)`: the object is built at p (a pointer, as a `void *`), nothing
        allocated; other placement arguments (an allocation function's) are not supported."""
        if e.count is not None:
            self.fail("placement array 'new' is not supported", e.loc)
        if len(e.placement) != 1:
            self.fail("placement 'new' with other than one pointer argument is not supported", e.placement[-1].loc)
        p = self.value(e.placement[0])
        if not isinstance(T.unqual(p.ty), T.Pointer):
            self.fail(f"no matching 'operator new' function for placement argument of type '{p.ty}'", e.placement[0].loc)
        return self.implicit(p, T.Pointer(base=T.VOID))

    def allocation_call(self, e: A.Call) -> A.Expr:
        """`::operator new(n)` / `::operator delete(p)` (and their [] forms): the bytes from
        malloc / back to free, no constructor or destructor run."""
        name = e.func.name
        allocates = name.startswith("operator new")
        if len(e.args) != 1:
            what = "size" if allocates else "pointer"
            self.fail(f"'{name}' with other than one ({what}) argument is not supported", e.loc)
        return self.runtime_call("malloc" if allocates else "free", e.args, e.loc)

    def check_braced_new(self, e: A.New, ty: T.Type) -> None:
        """`new T{args}` is `new T(args)` for a scalar or a class with constructors (`new
        T{}` and `new T[n]{}` value-initialise); the rest is not supported."""
        if e.count is not None:
            self.fail("array 'new' with a non-empty initializer list is not supported", e.args[0].loc)
        if isinstance(T.unqual(ty), (T.Struct, T.Array)) and not self.has_ctors(ty):
            self.fail(f"'new' of aggregate type '{ty}' with an initializer list is not supported", e.loc)

    def array_cookie(self, ty: T.Type) -> int:
        """The bytes `new T[n]` puts before the elements to hold n (0: none); classes with
        destructors replace this."""
        return 0

    def new_object_initializer(self, e: A.New, ty: T.Type, nbytes: A.Expr) -> A.Expr | None:
        """What `new T(args)` / `new T[n]()` does with the bytes `e.alloc` gives: a value of
        type T to store there, or a void expression to run (it may use `e.alloc`, which
        then stands for the same pointer, evaluated once); None: nothing.  `new T()` and
        `new T[n]()` zero the bytes.  Classes with constructors replace this with their
        constructor call."""
        args = e.args
        if args and len(args) == 1 and e.count is None and isinstance(T.unqual(ty), T.Struct):
            args[0] = self.value(args[0])   # `new P(p)` of a class without constructors: a copy
            if T.unqual(args[0].ty) == T.unqual(ty):
                return self.convert(args[0], T.unqual(ty), "initializing", args[0].loc)
        if args and (e.count is not None or isinstance(T.unqual(ty), (T.Struct, T.Array))):
            what = "array 'new' cannot have initialization arguments" if e.count is not None else \
                f"no matching constructor for initialization of '{ty}'"
            self.fail(what, e.loc)
        if not args and (e.count is not None or isinstance(T.unqual(ty), (T.Struct, T.Array))):
            zero = self.runtime_call("memset", [self.implicit(e.alloc, T.Pointer(base=T.VOID)),
                                                _int_literal(0, e.loc), _copy_tree(nbytes)], e.loc)
            effect = A.Cast(None, zero, implicit=True, loc=e.loc)
            effect.ty = T.VOID
            return effect
        if not args:
            return self.convert(_int_literal(0, e.loc), T.unqual(ty), "initializing", e.loc)
        if len(args) > 1:
            self.fail("excess elements in scalar initializer", args[1].loc)
        return self.convert(self.value(args[0]), T.unqual(ty), "initializing", args[0].loc)

    def expr_Delete(self, e: A.Delete):
        p = self.value(e.operand)
        pt = T.unqual(p.ty)
        if not isinstance(pt, T.Pointer):
            self.fail(f"cannot delete expression of type '{p.ty}'", e.operand.loc)
        e.operand = p
        e.destroy = self.delete_destructor(pt.base, p, e.array, e.loc)
        e.cookie = self.array_cookie(pt.base) if e.array else 0
        e.free = self.runtime_call("free", [self.implicit(p, T.Pointer(base=T.VOID))], e.loc)
        e.ty = T.VOID
        return e

    def delete_destructor(self, ty: T.Type, pointer: A.Expr, array: bool, loc) -> A.Expr | None:
        """The destructor call `delete` makes before freeing (None: none); classes with
        destructors replace this."""
        return None

    def runtime_call(self, name: str, args: list, loc) -> A.Call:
        """A call of the headers' function `name` (malloc, free, memset), checked."""
        sym = self.globals.lookup(name)
        if not isinstance(sym, Overloads) or not sym.functions:
            self.fail(f"'{name}' is not declared: it is needed here", loc)
        call = A.Call(A.Name(name, loc=loc), args, loc=loc)
        return self.expr_Call(call)

    def expr_Materialize(self, e: A.Materialize):
        return e

    # ---- nullptr, auto, decltype, casts -------------------------------------------------------
    def expr_NullPtr(self, e: A.NullPtr):
        """nullptr: a null pointer constant (typed as 0L: it converts to every pointer)."""
        zero = A.IntLit(0, "0L", loc=e.loc)
        zero.ty = T.LONG
        return zero

    def deduced_type(self, v: A.VarDecl) -> T.Type:
        """The type `auto` stands for in `v`'s declaration, from its initializer."""
        if v.init is None or isinstance(v.init, A.InitList):
            self.fail(f"declaration of variable '{v.name}' with deduced type 'auto' requires an initializer", v.loc)
        reference = any(p.reference for p in v.declarator.pointers)
        init = self.expr(v.init) if reference else self.value(v.init)
        v.init = init
        ty = init.ty if reference else T.unqual(init.ty)
        for p in v.declarator.pointers:
            if p.reference:
                continue
            if not isinstance(T.unqual(ty), T.Pointer):
                self.fail(f"variable '{v.name}' with type 'auto *' has incompatible initializer of type '{init.ty}'", v.loc)
            ty = T.unqual(ty).base
        return ty

    def cxx_cast(self, e: A.Cast, to: T.Type):
        """static_cast / reinterpret_cast / const_cast to a reference: the operand's lvalue."""
        if e.style == "dynamic_cast":
            self.fail("'dynamic_cast' is not supported", e.loc)
        if isinstance(to, T.Reference):
            inner = self.expr(e.operand)
            if not self.is_lvalue(inner):
                self.fail(f"{e.style} from rvalue to reference type '{to}' is not supported", e.loc)
            addr = A.Unary("&", inner, loc=inner.loc)
            addr.ty = T.Pointer(base=inner.ty)
            c = A.Cast(None, addr, implicit=True, loc=e.loc)
            c.ty = T.Pointer(base=to.base)
            return self.dereference(c, to.base)
        return None

    # ---- std::initializer_list -----------------------------------------------------------------
    def initializer_list_parameter(self, ty: T.Type) -> T.Struct | None:
        """The `std::initializer_list<E>` a constructor of the class `ty` takes as its one
        parameter (by value or reference): a braced list initialising `ty` is given to it."""
        s = T.unqual(ty)
        if not isinstance(s, T.Struct) or s.info.fields is None:
            return None
        for ctor in s.info.ctors:
            params = [T.unqual(p.base if isinstance(p, T.Reference) else p) for p in ctor.ty.params[1:]]
            if len(params) == 1 and isinstance(params[0], T.Struct) and params[0].info.template_name == "initializer_list":
                return params[0]
        return None

    def initializer_list(self, list_type: T.Struct, items: list, loc) -> A.InitList:
        """`{first, count}` of a `std::initializer_list<E>` over a temporary array holding `items`."""
        elem = list_type.info.template_args[0]
        if self.has_ctors(elem):   # `{"a", "bb"}` of std::string, `{{1, 2}, P(3)}`: each element built by a constructor
            items = [self.convert(self.value(self.braced_assigned_value(i, elem) if isinstance(i, A.InitList) else i),
                                  elem, "initializing", i.loc) for i in items]   # operators.py
        holder = T.define_struct(f"__initializer_list_array<{elem}, {len(items)}>", "struct")
        T.complete_struct(holder, [("__elems", T.Array(elem=elem, length=len(items)))])
        array = self.init_list(A.InitList([A.InitList(list(items), loc=loc)], loc=loc), holder)
        temp = A.Materialize(array, loc=loc)
        temp.ty = T.Pointer(base=holder)
        first = A.Cast(None, temp, implicit=True, loc=loc)
        first.ty = T.Pointer(base=T.qualified(elem, const=True))
        view = A.InitList([first, _size_literal(len(items), loc)], loc=loc)
        view.ty = list_type
        return view

    # ---- range-based for --------------------------------------------------------------------
    def stmt_RangeFor(self, s: A.RangeFor):
        """`for (decl : array) body` as `for (long i = 0; i < length; ++i) { decl = array[i]; body }`."""
        rng = self.expr(copy.deepcopy(s.range))
        rt = T.unqual(rng.ty)
        if not isinstance(rt, T.Array) or rt.length is None:
            return (yield from self.range_for_members(s, rng))
        loc = s.loc
        index = A.Declarator(RANGE_INDEX, loc=loc)
        long_specs = A.DeclSpecs(type_words=["long"], loc=loc)
        init = A.DeclStmt(A.Declaration(long_specs, [A.VarDecl(long_specs, index, _int_literal(0, loc),
                                                               name=RANGE_INDEX, loc=loc)], loc=loc), loc=loc)
        cond = A.Binary("<", A.Name(RANGE_INDEX, loc=loc), A.IntLit(rt.length, str(rt.length), loc=loc), loc=loc)
        step = A.IncDec("++", True, A.Name(RANGE_INDEX, loc=loc), loc=loc)
        element = A.Index(s.range, A.Name(RANGE_INDEX, loc=loc), loc=s.range.loc)
        var = A.VarDecl(s.specs, s.declarator, element, name=s.declarator.name or "", loc=s.declarator.loc)
        body = A.Compound([A.DeclStmt(A.Declaration(s.specs, [var], loc=var.loc), loc=var.loc), s.body], loc=s.body.loc)
        loop = A.For(init, cond, step, body, pragmas=s.pragmas, loc=loc)
        return (yield self.statement_step(loop))

    def range_for_members(self, s: A.RangeFor, rng: A.Expr):
        """A range-based for over a class with begin() and end(), as C++ defines it:
        `{ auto &__range = range; for (auto __begin = __range.begin(), __end = __range.end();
        __begin != __end; ++__begin) { decl = *__begin; body } }` (a range that is not an
        lvalue is held by value, as the temporary a `auto &&` would keep alive)."""
        rt = T.unqual(rng.ty)
        if not (isinstance(rt, T.Struct) and "begin" in rt.info.methods and "end" in rt.info.methods):
            self.fail(f"range-based 'for' over a value of type '{rng.ty}' is not supported (only arrays of known "
                      "size and classes with begin() and end())", s.range.loc)
        loc = s.loc
        by_ref = [A.Pointer(reference="&", loc=loc)] if self.is_lvalue(rng) else []
        held = _auto_decl(RANGE_HELD, s.range, loc, by_ref)
        ends = [A.VarDecl(_auto_specs(loc), A.Declarator(name, loc=loc), _member_call(RANGE_HELD, end, loc),
                          name=name, loc=loc) for name, end in ((RANGE_BEGIN, "begin"), (RANGE_END, "end"))]
        init = A.DeclStmt(A.Declaration(_auto_specs(loc), ends, loc=loc), loc=loc)
        cond = A.Binary("!=", A.Name(RANGE_BEGIN, loc=loc), A.Name(RANGE_END, loc=loc), loc=loc)
        step = A.IncDec("++", True, A.Name(RANGE_BEGIN, loc=loc), loc=loc)
        element = A.Unary("*", A.Name(RANGE_BEGIN, loc=loc), loc=s.range.loc)
        var = A.VarDecl(s.specs, s.declarator, element, name=s.declarator.name or "", loc=s.declarator.loc)
        body = A.Compound([A.DeclStmt(A.Declaration(s.specs, [var], loc=var.loc), loc=var.loc), s.body], loc=s.body.loc)
        loop = A.For(init, cond, step, body, pragmas=s.pragmas, loc=loc)
        return (yield self.statement_step(A.Compound([held, loop], loc=loc)))


RANGE_HELD, RANGE_BEGIN, RANGE_END = "__range", "__begin", "__end"


def _auto_specs(loc) -> A.DeclSpecs:
    return A.DeclSpecs(type_words=["auto"], loc=loc)


def _auto_decl(name: str, init: A.Expr, loc, pointers: list) -> A.DeclStmt:
    var = A.VarDecl(_auto_specs(loc), A.Declarator(name, pointers=pointers, loc=loc), init, name=name, loc=loc)
    return A.DeclStmt(A.Declaration(_auto_specs(loc), [var], loc=loc), loc=loc)


def _member_call(obj: str, method: str, loc) -> A.Call:
    return A.Call(A.Member(A.Name(obj, loc=loc), method, loc=loc), [], loc=loc)


def _int_literal(value: int, loc) -> A.IntLit:
    lit = A.IntLit(value, str(value), loc=loc)
    lit.ty = T.INT
    return lit


def _size_literal(value: int, loc) -> A.IntLit:
    lit = A.IntLit(value, f"{value}UL", loc=loc)
    lit.ty = T.SIZE_T
    return lit



def _repeatable(e: A.Expr) -> bool:
    """Whether evaluating the lvalue `e` twice is evaluating it once: `x`, `*this`, `p->a.b`."""
    if isinstance(e, A.Name):
        return True
    if isinstance(e, A.Unary) and e.op == "*":
        return _repeatable(e.operand)
    if isinstance(e, A.Member):
        return _repeatable(e.base)
    return isinstance(e, A.Cast) and e.implicit and _repeatable(e.operand)


def _copy_tree(e: A.Expr) -> A.Expr:
    """A copy of the checked expression `e` whose names still refer to the same declarations."""
    shared = {id(n.decl): n.decl for n in A.walk(e) if getattr(n, "decl", None) is not None}
    return copy.deepcopy(e, shared)


def _without_qualifier_cast(e: A.Expr) -> A.Expr:
    """e without an implicit cast that only drops qualifiers (`const int` to `int`)."""
    while isinstance(e, A.Cast) and e.implicit and T.unqual(e.operand.ty) == T.unqual(e.ty):
        e = e.operand
    return e


def derives_from(s: T.Type, base: T.Type) -> bool:
    """Whether the class `s` has `base` among its base classes (not `base` itself)."""
    if not isinstance(s, T.Struct) or not isinstance(base, T.Struct) or s.info.fields is None:
        return False
    s = getattr(s.info, "base", None)
    while s is not None:
        if s == base:
            return True
        s = getattr(s.info, "base", None)
    return False


def same_array(src: T.Type, base: T.Type) -> bool:
    """Whether an array of type `src` binds to a reference to `base`: the same length and
    element type, `base`'s elements as qualified or more (`const int (&a)[6]` to an int[6])."""
    src, base = T.unqual(src), T.unqual(base)
    if not (isinstance(src, T.Array) and isinstance(base, T.Array)) or src.length != base.length:
        return False
    return T.unqual(src.elem) == T.unqual(base.elem) and (base.elem.const or not src.elem.const)

"""Conversions: implicit ones with C++'s rules, casts, and construction.

`implicit(e, ty)` wraps `e` in a `Cast(implicit=True)` to `ty` (nothing when `e`
already has that type); `convert(e, ty, context, loc)` first checks that the
conversion is allowed, and reports it as clang does for that context
("initializing", "assigning", "return", "parameter", "builtin-arg", "launch",
"switch").  Allowed implicitly: between arithmetic types; a pointer to a pointer
with the same or more qualified pointee, or to `void *`; a null pointer constant to
a pointer; a pointer to `bool`; an integer or uint3 to dim3 (by construction); and
for builtins, any `T **` as `void **` (cudaMalloc is a template in CUDA's headers).
`conversion_cost` ranks the same conversions for overload resolution: 0 exact, 1
promotion or qualification, 2 conversion, 3 to bool or dim3, None not viable.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar import types as T


def returns_local(e: A.Expr) -> bool:
    """`return x;` of a local object: g++ builds it in the caller's place (NRVO), no copy."""
    decl = e.decl if isinstance(e, A.Name) else None
    return isinstance(decl, A.VarDecl) and not getattr(decl, "is_global_scope", True) and \
        "static" not in decl.specs.storage


class Conversions:
    """Needs from the analyser: `value`, `type_of`, `fail` and `const_eval`."""

    def implicit(self, e: A.Expr, ty: T.Type) -> A.Expr:
        if e.ty == ty:
            return e
        c = A.Cast(None, e, implicit=True, loc=e.loc)
        c.ty = ty
        return c

    def convert(self, e: A.Expr, to: T.Type, context: str, loc) -> A.Expr:
        """Implicit conversion of the rvalue `e` to `to`, with C++'s rules."""
        if isinstance(to, T.Reference):
            return self.bind_reference(e, to, context, loc)   # cxx.py
        src, dst = T.unqual(e.ty), T.unqual(to)
        if src == dst:
            if isinstance(dst, T.Struct) and context in ("initializing", "parameter") or \
                    isinstance(dst, T.Struct) and context == "return" and not returns_local(e):
                e = self.copied(e, dst, loc)   # classes.py: a user copy constructor
            return self.implicit(e, dst) if e.ty != dst else e
        ok = False
        if T.is_arithmetic(src) and T.is_arithmetic(dst):
            ok = True
        elif isinstance(dst, T.Pointer) and isinstance(src, T.Pointer):
            ok = pointer_convertible(src, dst) or (context == "builtin-arg" and void_pp_accepts(dst, src))
            if not ok and writable_string(e, dst):   # accepted, as nvcc does; a write to it then faults
                self.diags.warning(f"ISO C++11 does not allow conversion from string literal to '{to}' "
                                   f"[-Wwritable-strings]", e.loc)
                ok = True
        elif isinstance(dst, T.Pointer) and T.is_integer(src) and self.is_null_constant(e):
            ok = True
        elif dst == T.BOOL and isinstance(src, T.Pointer):
            ok = True
        elif isinstance(dst, T.Struct) and dst.name == "dim3" and (T.is_integer(src) or (isinstance(src, T.Struct) and src.name == "uint3")):
            return self.construct(dst, [e], loc)
        elif self.has_ctors(dst) and not isinstance(src, T.Struct):   # a converting constructor
            return self.construct_object(dst, [e], loc)
        elif self.has_ctors(dst) and self.converting_constructors(dst, e):   # from another class
            return self.construct_object(dst, [e], loc)
        elif isinstance(src, T.Struct) and self.conversion_operators(src, dst, explicit=False):
            return self.convert(self.conversion_call(e, dst, loc, explicit=False), to, context, loc)   # classes.py
        if not ok:
            self.fail(_conversion_message(context, e, to), loc)
        return self.implicit(e, dst)

    def converting_constructors(self, s: T.Struct, e: A.Expr) -> list:
        """The constructors of `s` not declared `explicit` that take `e` alone: an object of
        another class (`duration<double, milli> ms = t1 - t0;`, <chrono>) or a value
        (`const std::string &` bound to "text", cxx.py)."""
        this = self.this_argument(s, e.loc)   # classes.py
        return [c for c in s.info.ctors if "explicit" not in c.specs.storage and self.match_cost(c, [this, e]) is not None]

    def is_null_constant(self, e: A.Expr) -> bool:
        return T.is_integer(e.ty) and self.const_eval(e) == 0

    def expr_Cast(self, e: A.Cast):
        if e.implicit:
            return e
        to = self.type_of(e.type_name)
        if e.style != "c" or isinstance(to, T.Reference):
            named = self.cxx_cast(e, to)   # cxx.py
            if named is not None:
                return named
        v = self.value(e.operand)
        src, dst = T.unqual(v.ty), T.unqual(to)
        ok = (T.is_void(dst) or (T.is_scalar(src) and T.is_scalar(dst) and not (T.is_float(src) and isinstance(dst, T.Pointer))
              and not (isinstance(src, T.Pointer) and T.is_float(dst))) or src == dst)
        if isinstance(dst, T.Struct) and dst.name == "dim3" and T.is_integer(src):
            return self.construct(dst, [v], e.loc)
        if not ok:
            self.fail(f"cannot cast from type '{v.ty}' to '{to}'", e.loc)
        e.operand, e.ty = v, to
        return e

    def expr_Construct(self, e: A.Construct):
        ty = self.type_of(e.type_name) if e.type_name is not None else e.target_ty
        if e.braced and isinstance(T.unqual(ty), T.Struct) and not self.has_ctors(ty) and \
                T.unqual(ty).name not in ("dim3", "uint3"):
            return self.init_list(A.InitList(e.args, loc=e.loc), T.unqual(ty))   # `Stats{1, v}`: aggregate
        if e.braced and (list_type := self.initializer_list_parameter(ty)) is not None:   # `vector<int>{1, 2}`
            return self.construct_object(T.unqual(ty), [self.initializer_list(list_type, e.args, e.loc)], e.loc)
        return self.construct(ty, e.args, e.loc)

    def construct(self, ty: T.Type, args: list, loc) -> A.Expr:
        """dim3(x, y, z), a functional cast float(x), or direct-initialisation `int a(3)`."""
        args = [a if (a.ty is not None and not isinstance(a, A.Name)) or isinstance(a, A.InitList) else self.value(a) for a in args]
        if (braced := [a for a in args if is_braced(a)]) and not self.has_ctors(ty):
            self.fail(f"no matching constructor for initialization of '{ty}' with an initializer list argument", braced[0].loc)
        if isinstance(ty, T.Struct) and ty.name in ("dim3", "uint3"):
            return self.construct_dim3(ty, args, loc)
        if self.has_ctors(ty) or (not args and self.default_ctors(ty)):   # a class's implicit one too
            return self.construct_object(ty, args, loc)
        if isinstance(ty, T.Struct) and not args:
            c = A.InitList([], loc=loc)
            c.ty = T.unqual(ty)
            return c
        if isinstance(ty, T.Struct):
            if len(args) == 1 and T.unqual(args[0].ty) == T.unqual(ty):
                return args[0]
            self.fail(f"no matching constructor for initialization of '{ty}'", loc)
        if len(args) != 1:
            if not args and T.is_scalar(ty):
                zero = A.IntLit(0, "0", loc=loc)
                zero.ty = T.INT
                return self.implicit(zero, T.unqual(ty))
            self.fail(f"excess elements in scalar initializer", loc)
        c = A.Cast(None, args[0], loc=loc)
        c.ty = T.unqual(ty)
        if not (T.is_scalar(T.unqual(args[0].ty)) and T.is_scalar(c.ty)):
            self.fail(f"cannot initialize a value of type '{ty}' with an rvalue of type '{args[0].ty}'", loc)
        return c

    def construct_dim3(self, ty: T.Struct, args: list, loc) -> A.Construct:
        """A dim3 or uint3 from up to three unsigned integers, or from another one."""
        if len(args) > 3:
            self.fail(f"no matching constructor for initialization of '{ty}'", loc)
        if len(args) == 1 and isinstance(T.unqual(args[0].ty), T.Struct) and T.unqual(args[0].ty).name in ("dim3", "uint3"):
            c = A.Construct(None, args, loc=loc)
            c.ty = T.unqual(ty)
            return c
        conv = [self.convert(a, T.UINT, "parameter", a.loc) for a in args]
        c = A.Construct(None, conv, loc=loc)
        c.ty = T.unqual(ty)
        return c


def is_braced(e: A.Expr) -> bool:
    """Whether `e` is a braced list not yet given a type: an argument `{x, y}` (calls.py)."""
    return isinstance(e, A.InitList) and e.ty is None


def pointer_convertible(src: T.Pointer, dst: T.Pointer) -> bool:
    """T* -> const T*, T* -> void*, and qualification additions."""
    sb, db = src.base, dst.base
    if (sb.const and not db.const) or (sb.volatile and not db.volatile):
        return False
    if T.is_void(db):
        return True
    if T.unqual(sb) == T.unqual(db):
        return True
    if isinstance(sb, T.Pointer) and isinstance(db, T.Pointer) and db.const:
        return pointer_convertible(sb, db)
    return False


def writable_string(e: A.Expr, dst: T.Pointer) -> bool:
    """A string literal converted to a pointer to non-const char: deprecated C++03, which
    clang and nvcc accept with a warning."""
    while isinstance(e, A.Cast) and e.implicit:
        e = e.operand
    return isinstance(e, A.StringLit) and T.unqual(dst.base) == T.CHAR and not dst.base.const


def void_pp_accepts(dst: T.Pointer, src: T.Pointer) -> bool:
    """cudaMalloc(T **) is a template in CUDA's headers: accept any T ** for void **."""
    return isinstance(dst.base, T.Pointer) and T.is_void(dst.base.base) and isinstance(src.base, T.Pointer)


def conversion_cost(a: A.Expr, p: T.Type, builtin: bool, null: bool) -> int | None:
    src, dst = T.unqual(a.ty), T.unqual(p)
    if src == dst:
        return 0
    if T.is_arithmetic(src) and T.is_arithmetic(dst):
        if T.promote(src) == dst or (src == T.FLOAT and dst == T.DOUBLE):
            return 1
        return 2
    if isinstance(src, T.Pointer) and isinstance(dst, T.Pointer):
        if pointer_convertible(src, dst):
            return 1 if T.unqual(src.base) == T.unqual(dst.base) else 2
        if builtin and void_pp_accepts(dst, src):
            return 2
        return 3 if writable_string(a, dst) else None
    if isinstance(dst, T.Pointer) and null:
        return 2
    if dst == T.BOOL and isinstance(src, T.Pointer):
        return 3
    if isinstance(dst, T.Struct) and dst.name == "dim3" and T.is_integer(src):
        return 3
    return None


def _conversion_message(context: str, e: A.Expr, to: T.Type) -> str:
    kind = "lvalue" if isinstance(e, (A.Name, A.Index, A.Member)) or (isinstance(e, A.Unary) and e.op == "*") else "rvalue"
    if isinstance(e, A.Cast) and e.implicit:
        kind = "lvalue" if isinstance(e.operand, (A.Name, A.Index, A.Member)) and not isinstance(e.operand.ty, T.Array) else "rvalue"
    if context == "assigning":
        return f"assigning to '{to}' from incompatible type '{e.ty}'"
    if context == "return":
        return f"cannot initialize return object of type '{to}' with an {kind} of type '{e.ty}'"
    if context in ("parameter", "builtin-arg"):
        return f"cannot initialize a parameter of type '{to}' with an {kind} of type '{e.ty}'"
    if context == "launch":
        return f"cannot convert '{e.ty}' to '{to}' in kernel launch configuration"
    return f"cannot initialize a variable of type '{to}' with an {kind} of type '{e.ty}'"

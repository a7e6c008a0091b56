"""AST node definitions for mini-CUDA.

Every node keeps `loc`, the SourceLocation of its representative token in the
original file.  Expression nodes get `ty` (their C type) from semantic analysis;
names get `decl`.  Sema also inserts `Cast(implicit=True)` nodes wherever C's
conversions apply, so later stages see every conversion spelled out.

Declarations are kept close to C's syntax (specifiers + declarator); sema turns them
into types.  A declarator's `pointers` apply to the base type first, then its
`suffixes` (arrays, parameter lists) from right to left.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minicuda.diagnostics import SourceLocation


# The metadata of a field that lists nodes held elsewhere in the tree: not children.
REFERENCES = {"references": True}


@dataclass(eq=False)
class Node:
    loc: SourceLocation = field(default=None, kw_only=True, repr=False)

    def children(self) -> list["Node"]:
        out = []
        for name in _CHILD_FIELDS.get(type(self)) or _child_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                out.append(value)
            elif isinstance(value, list):
                out += [v for v in value if isinstance(v, Node)]
        return out


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of node class `cls` that may hold children (not loc, ty, decl or
    references), in declaration order: worked out once per class."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(
            name for name, f in cls.__dataclass_fields__.items()
            if name not in ("loc", "ty", "decl") and not f.metadata.get("references"))
    return names


# ---- declarations ------------------------------------------------------------------
@dataclass(eq=False)
class StructSpec(Node):
    kind: str                    # struct, union or class
    tag: str | None
    members: list["StructMember"] | None  # None: a reference to a declared struct
    methods: list["FunctionDef"] = field(default_factory=list)   # member functions, constructors, destructor
    base: str | None = None               # the base class's name (single, non-virtual)
    align: int = 1                        # __attribute__((aligned(N))) / __align__(N) / alignas(N)
    template_args: list["Node"] | None = None   # `struct Traits<T *> {...}`: a class template's specialisation


@dataclass(eq=False)
class StructMember(Node):
    specs: "DeclSpecs"
    declarators: list["Declarator"]
    access: str = "public"


@dataclass(eq=False)
class CtorInit(Node):
    """One entry of a constructor's member initialiser list: `x(a)` or `Base(a, b)`."""
    name: str
    args: list["Expr"]


@dataclass(eq=False)
class DeclSpecs(Node):
    storage: list[str] = field(default_factory=list)    # typedef, extern, static, inline, ...
    qualifiers: list[str] = field(default_factory=list)  # const, volatile
    cuda: list[str] = field(default_factory=list)        # __global__, __device__, __shared__, ...
    type_words: list[str] = field(default_factory=list)  # unsigned, long, int, ...
    type_name: str | None = None                         # a typedef name
    template_args: list["Node"] | None = None            # Foo<int, 4>: a class template's arguments
    member_type: str | None = None                       # Foo<int>::iterator: the member typedef named
    struct: StructSpec | None = None
    enum: "EnumSpec | None" = None
    decltype: "Expr | None" = None                       # decltype(expr)
    launch_bounds: list["Expr"] = field(default_factory=list)


@dataclass(eq=False)
class Pointer(Node):
    qualifiers: list[str] = field(default_factory=list)  # const, volatile, __restrict__
    reference: str = ""                                  # "&" (a reference) or "&&"; "" a pointer


@dataclass(eq=False)
class ArraySuffix(Node):
    size: "Expr | None"


@dataclass(eq=False)
class ParamsSuffix(Node):
    params: list["ParamDecl"]
    variadic: bool = False


@dataclass(eq=False)
class Declarator(Node):
    name: str | None
    pointers: list[Pointer] = field(default_factory=list)
    suffixes: list[Node] = field(default_factory=list)   # ArraySuffix / ParamsSuffix
    ctor_args: list["Expr"] | None = None                # dim3 block(x, y)
    qualifier: str | None = None                         # Foo in `Foo::get` (a member defined out of its class)
    const_method: bool = False                           # `int get() const`
    braced: bool = False                                 # `Foo x{1, 2}`: ctor_args given in braces
    qualifier_args: list["Node"] | None = None           # `Foo<T>::get`: the qualifying class template's arguments
    template_args: list["Node"] | None = None            # `f<int>(...)`: an explicit specialisation's arguments
    conversion: "TypeName | None" = None                 # `operator T *()`: the type converted to
    member_init: "Expr | InitList | None" = None         # `int n = 0;` in a class: the default member initialiser
    nested: "Declarator | None" = None                   # `(*cmp)` in `int (*cmp)(int)`: applied after this one
    trailing: "TypeName | None" = None                   # `-> int` of `auto f(int x) -> int`

    @property
    def params_suffix(self) -> ParamsSuffix | None:
        if self.nested is not None:   # `int (*p)(int)` declares a pointer, not a function
            return None
        return self.suffixes[-1] if self.suffixes and isinstance(self.suffixes[-1], ParamsSuffix) else None


@dataclass(eq=False)
class TypeName(Node):
    specs: DeclSpecs
    declarator: Declarator        # abstract: name is None
    ty: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class ParamDecl(Node):
    specs: DeclSpecs
    declarator: Declarator
    default: "Expr | None" = None
    ty: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class InitList(Node):
    items: list[Node]
    ty: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class VarDecl(Node):
    """One declarator of a declaration: `int a = 1` or `__shared__ float s[256]`."""
    specs: DeclSpecs
    declarator: Declarator
    init: "Expr | InitList | None" = None
    name: str = ""
    ty: Any = field(default=None, init=False, repr=False)
    space: str = field(default="local", init=False)  # local, global, shared, constant, param, host
    is_global_scope: bool = field(default=False, init=False)
    static_local: bool = field(default=False, init=False)   # `static int n;` in a function: a global
    definition: "VarDecl | None" = field(default=None, init=False, repr=False)   # a static data member's, outside its class


@dataclass(eq=False)
class Declaration(Node):
    specs: DeclSpecs
    decls: list[VarDecl]


@dataclass(eq=False)
class TemplateParam(Node):
    name: str
    kind: str                     # "type" or "value"
    specs: DeclSpecs | None = None
    declarator: Declarator | None = None
    default: "Node | None" = None  # a default template argument: a TypeName or an expression


@dataclass(eq=False)
class ClassTemplate(Node):
    """`template <typename T> struct Foo {...}`, or a specialisation of one (`spec.template_args`
    set): `template <> struct Foo<int> {...}`, `template <typename T> struct Foo<T *> {...}`."""
    params: list[TemplateParam]
    spec: StructSpec


@dataclass(eq=False)
class TemplateStatic(Node):
    """`template <typename T> int Foo<T>::count = 0;`: a class template's static data member."""
    params: list[TemplateParam]
    decl: "Declaration"


@dataclass(eq=False)
class FunctionDef(Node):
    specs: DeclSpecs
    declarator: Declarator
    body: "Compound | None"
    name: str = ""
    template_params: list[TemplateParam] = field(default_factory=list)
    template_args: list[Any] = field(default_factory=list)   # set on an instantiation
    ty: Any = field(default=None, init=False, repr=False)
    params: list[ParamDecl] = field(default_factory=list, init=False, repr=False)
    exec_space: frozenset = field(default=frozenset(), init=False)  # {"global"} / {"host","device"} ...
    is_builtin: bool = field(default=False, init=False)
    launch_bounds: tuple[int, ...] = field(default=(), init=False)   # __launch_bounds__'s values, set by sema
    ctor_inits: list[CtorInit] | None = None      # a constructor's member initialisers
    access: str = "public"                        # a member function's access
    owner: Any = field(default=None, init=False, repr=False)   # the class (T.Struct) of a member function
    is_static: bool = field(default=False, init=False)         # a static member function: no `this`
    home: Any = field(default=None, init=False, repr=False)   # sema: the scope of its namespace
    explicit_specialization: bool = False         # `template <> int f<int>(int)`
    used: bool = field(default=False, init=False)  # called somewhere (sema: a class template's members)
    callers: list = field(default_factory=list, init=False, repr=False,   # sema: the functions calling it (None: outside one)
                          metadata={"references": True})
    special: str = ""                             # `= delete` / `= default` on a member function: "delete" / "default"

    @property
    def is_template(self) -> bool:
        return bool(self.template_params) and not self.template_args


@dataclass(eq=False)
class TranslationUnit(Node):
    decls: list[Node]
    instantiations: list[FunctionDef] = field(default_factory=list, init=False)
    # set by sema: the functions with a body that may run (instantiations included) and
    # the user's file-scope variables, in order
    functions: list[FunctionDef] = field(default_factory=list, init=False, repr=False, metadata=REFERENCES)
    global_vars: list[VarDecl] = field(default_factory=list, init=False, repr=False, metadata=REFERENCES)
    # set by the parser: names whose declaration had a syntax error (sema does not report them again)
    poisoned: set[str] = field(default_factory=set, init=False, repr=False)


# ---- statements --------------------------------------------------------------------
@dataclass(eq=False)
class Compound(Node):
    items: list[Node]


@dataclass(eq=False)
class ExprStmt(Node):
    expr: "Expr | None"


@dataclass(eq=False)
class DeclStmt(Node):
    declaration: Declaration


@dataclass(eq=False)
class If(Node):
    cond: "Expr"
    then: Node
    else_: Node | None = None


@dataclass(eq=False)
class While(Node):
    cond: "Expr"
    body: Node
    pragmas: list[str] = field(default_factory=list)


@dataclass(eq=False)
class DoWhile(Node):
    body: Node
    cond: "Expr"
    pragmas: list[str] = field(default_factory=list)


@dataclass(eq=False)
class For(Node):
    init: Node | None            # DeclStmt or ExprStmt
    cond: "Expr | None"
    step: "Expr | None"
    body: Node
    pragmas: list[str] = field(default_factory=list)  # e.g. "unroll", "unroll 4"


@dataclass(eq=False)
class Switch(Node):
    expr: "Expr"
    body: Node


@dataclass(eq=False)
class Case(Node):
    value: "Expr"
    body: Node
    const_value: int | None = field(default=None, init=False)


@dataclass(eq=False)
class Default(Node):
    body: Node


@dataclass(eq=False)
class Break(Node):
    pass


@dataclass(eq=False)
class Continue(Node):
    pass


@dataclass(eq=False)
class Return(Node):
    value: "Expr | None"


@dataclass(eq=False)
class Pragma(Node):
    text: str


@dataclass(eq=False)
class Throw(Node):
    """`throw value;`: sema sets `type_name` (libstdc++'s name of the thrown type) and, for a
    std exception or a class derived from one, `what` (its message, None for what() of the
    class's own; `value` is then None)."""
    value: "Expr | None"
    type_name: str = ""
    what: "Expr | None" = None


@dataclass(eq=False)
class Catch(Node):
    param: "ParamDecl | None"     # None: catch (...)
    body: "Compound"


@dataclass(eq=False)
class Try(Node):
    body: "Compound"
    handlers: list


# ---- expressions -------------------------------------------------------------------
@dataclass(eq=False)
class Expr(Node):
    ty: Any = field(default=None, init=False, repr=False, kw_only=True)


@dataclass(eq=False)
class Name(Expr):
    name: str
    decl: Any = field(default=None, init=False, repr=False)
    scope_type: "TemplateId | None" = None   # `Foo<int>::get`: the class template specialisation named before `::`


@dataclass(eq=False)
class IntLit(Expr):
    value: int
    text: str = ""


@dataclass(eq=False)
class FloatLit(Expr):
    value: float
    text: str = ""


@dataclass(eq=False)
class CharLit(Expr):
    value: int
    text: str = ""


@dataclass(eq=False)
class StringLit(Expr):
    value: bytes


@dataclass(eq=False)
class BoolLit(Expr):
    value: bool


@dataclass(eq=False)
class Binary(Expr):
    op: str
    lhs: Expr
    rhs: Expr


@dataclass(eq=False)
class Unary(Expr):
    op: str                      # - + ~ ! & *
    operand: Expr


@dataclass(eq=False)
class IncDec(Expr):
    op: str                      # ++ or --
    prefix: bool
    operand: Expr


@dataclass(eq=False)
class Assign(Expr):
    op: str                      # = += -= ...
    target: Expr
    value: Expr
    compute_ty: Any = field(default=None, init=False, repr=False)  # x op= y computes in this type


@dataclass(eq=False)
class Conditional(Expr):
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(eq=False)
class Comma(Expr):
    lhs: Expr
    rhs: Expr


@dataclass(eq=False)
class Cast(Expr):
    type_name: TypeName | None
    operand: Expr
    implicit: bool = False
    style: str = "c"             # or static_cast, reinterpret_cast, const_cast


@dataclass(eq=False)
class SizeofExpr(Expr):
    operand: Expr


@dataclass(eq=False)
class SizeofType(Expr):
    type_name: TypeName
    align: bool = False          # alignof(T)


@dataclass(eq=False)
class Index(Expr):
    base: Expr
    index: Expr


@dataclass(eq=False)
class Member(Expr):
    base: Expr
    name: str
    arrow: bool = False


@dataclass(eq=False)
class TemplateId(Expr):
    name: str
    args: list[Node] | None      # None: no explicit arguments (deduced)
    decl: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Call(Expr):
    func: Expr
    args: list[Expr]
    decl: Any = field(default=None, init=False, repr=False)   # the FunctionDef called


@dataclass(eq=False)
class IndirectCall(Expr):
    """A call through a function pointer, `p(x)` or `(*p)(x)`: made by sema from a Call."""
    func: Expr                   # the pointer's value
    args: list[Expr]


@dataclass(eq=False)
class Launch(Expr):
    func: Expr
    config: list[Expr]           # grid, block[, shared bytes[, stream]]
    args: list[Expr]
    decl: Any = field(default=None, init=False, repr=False)


@dataclass(eq=False)
class Lambda(Expr):
    """`[captures](params) mutable -> ret { body }`: captures are (kind, name, loc), kind one of
    "copy", "reference" (name None: the capture-default `=` / `&`) and "this"."""
    captures: list
    params: list[ParamDecl]
    mutable: bool
    ret: "TypeName | None"
    body: Compound


@dataclass(eq=False)
class Construct(Expr):
    """A functional cast or constructor call: dim3(x, y), float(i), `Stats{1, 2}`."""
    type_name: TypeName
    args: list[Expr]
    braced: bool = field(default=False, kw_only=True)   # `T{...}`: an aggregate's braced initialiser


def walk(node: Node):
    """Every node below (and including) `node`, depth first, parents first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children()))


# ---- C++ beyond classes: namespaces, using, enums, static_assert, new/delete -------
@dataclass(eq=False)
class Namespace(Node):
    name: str | None             # None: an anonymous namespace
    decls: list[Node]


@dataclass(eq=False)
class UsingDirective(Node):
    """`using namespace x;`"""
    namespace: str


@dataclass(eq=False)
class NamespaceAlias(Node):
    """`namespace x = y;` (the parser's name pre-pass also reads `x::m` as `y::m`)"""
    name: str
    target: str
    target_loc: object = None


@dataclass(eq=False)
class UsingDecl(Node):
    """`using x::y;`"""
    name: str


@dataclass(eq=False)
class StaticAssert(Node):
    cond: Expr
    message: bytes | None


@dataclass(eq=False)
class Enumerator(Node):
    name: str
    value: Expr | None


@dataclass(eq=False)
class EnumSpec(Node):
    tag: str | None
    scoped: bool                 # enum class / enum struct
    base: DeclSpecs | None       # enum E : short
    enumerators: list[Enumerator] | None   # None: a reference to a declared enum


@dataclass(eq=False)
class NullPtr(Expr):
    pass


@dataclass(eq=False)
class New(Expr):
    """`new T`, `new T(args)`, `new T[n]`: sema sets `alloc` (the call allocating the
    bytes) and `init` (the value stored in a single object, or None).  An array of a
    class with a constructor or destructor keeps `count` (a size_t, evaluated once) and
    sets `each` (the constructor call run on every element, or None), `zeroed` (`new
    T[n]()` of a class without constructors) and `cookie` (the bytes before the elements
    holding the count, when the class has a destructor; 0: none)."""
    type_name: TypeName
    count: Expr | None           # new T[count]
    args: list[Expr] | None      # new T(args); None: no parentheses
    braced: bool = field(default=False, kw_only=True)   # new T{args}
    placement: list[Expr] | None = field(default=None, kw_only=True)   # new (p) T: p's the object's bytes
    alloc: Expr | None = field(default=None, init=False, repr=False)
    init: Expr | None = field(default=None, init=False, repr=False)
    each: Expr | None = field(default=None, init=False, repr=False)
    zeroed: bool = field(default=False, init=False, repr=False)
    cookie: int = field(default=0, init=False, repr=False)


@dataclass(eq=False)
class Delete(Expr):
    """`delete p` / `delete[] p`: sema sets `free` (the call releasing the bytes) and
    `destroy` (a destructor call to run first, or None; for `delete[]`, run on every
    element, last first, their count read from the `cookie` bytes before them)."""
    operand: Expr
    array: bool = False
    free: Expr | None = field(default=None, init=False, repr=False)
    destroy: Expr | None = field(default=None, init=False, repr=False)
    cookie: int = field(default=0, init=False, repr=False)


@dataclass(eq=False)
class Materialize(Expr):
    """A temporary holding an rvalue, so that a `const T&` can bind to it: its value is
    the temporary's address (a `T *`)."""
    operand: Expr


@dataclass(eq=False)
class RangeFor(Node):
    """`for (decl : range) body`; sema turns one over an array into a For."""
    specs: DeclSpecs
    declarator: Declarator
    range: Expr
    body: Node
    pragmas: list[str] = field(default_factory=list)

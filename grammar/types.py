"""C types for mini-CUDA, with the sizes of the CUDA/Linux x86-64 ABI (LP64).

Types are immutable values; `const`/`volatile` are fields of each type, and
`unqual(t)` drops them for comparisons.  Pointers are 64-bit.  `usual_arithmetic`
and `promote` implement C's conversions for binary operators.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

MAX_OBJECT_SIZE = (1 << 63) - 1   # PTRDIFF_MAX: the largest object gcc and clang accept on x86-64


@dataclass(frozen=True)
class Type:
    const: bool = field(default=False, kw_only=True, compare=True)
    volatile: bool = field(default=False, kw_only=True, compare=True)

    @property
    def size(self) -> int:
        raise NotImplementedError

    @property
    def align(self) -> int:
        return self.size

    def spelled(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.spelled()

    def _quals(self) -> str:
        return ("const " if self.const else "") + ("volatile " if self.volatile else "")


# name, size, signed, rank (for conversions), is_float
_PRIMS = {
    "void": (0, False, 0, False), "bool": (1, False, 1, False),
    "char": (1, True, 2, False), "signed char": (1, True, 2, False), "unsigned char": (1, False, 2, False),
    "short": (2, True, 3, False), "unsigned short": (2, False, 3, False),
    "int": (4, True, 4, False), "unsigned int": (4, False, 4, False),
    "long": (8, True, 5, False), "unsigned long": (8, False, 5, False),
    "long long": (8, True, 6, False), "unsigned long long": (8, False, 6, False),
    "float": (4, True, 10, True), "double": (8, True, 11, True),
}


@dataclass(frozen=True)
class Prim(Type):
    name: str = "int"

    @property
    def size(self) -> int:
        return _PRIMS[self.name][0]

    @property
    def signed(self) -> bool:
        return _PRIMS[self.name][1]

    @property
    def rank(self) -> int:
        return _PRIMS[self.name][2]

    @property
    def is_float(self) -> bool:
        return _PRIMS[self.name][3]

    def spelled(self) -> str:
        return self._quals() + self.name


@dataclass(frozen=True)
class Pointer(Type):
    base: Type = None
    restrict: bool = False

    size = 8
    align = 8

    def spelled(self) -> str:
        inner = self.base.spelled()
        star = "*" if inner.endswith("*") else " *"
        q = (" const" if self.const else "") + (" volatile" if self.volatile else "") + (" __restrict__" if self.restrict else "")
        return f"{inner}{star}{q}"


@dataclass(frozen=True)
class Reference(Type):
    """`T&`: an lvalue of type `base` that lives elsewhere.  It is held as a pointer
    (8 bytes: a reference variable, parameter or return value is its referee's
    address); sema reads a reference as that pointer implicitly dereferenced."""
    base: Type = None

    size = 8
    align = 8

    def spelled(self) -> str:
        inner = self.base.spelled()
        return f"{inner}{'&' if inner.endswith('*') else ' &'}"


@dataclass(frozen=True)
class Array(Type):
    elem: Type = None
    length: int | None = None

    @property
    def size(self) -> int:
        return self.elem.size * (self.length or 0)

    @property
    def align(self) -> int:
        return self.elem.align

    def spelled(self) -> str:
        return f"{self.elem.spelled()}[{'' if self.length is None else self.length}]"


@dataclass(frozen=True)
class Struct(Type):
    """A struct, compared by identity of its definition (`key`)."""
    name: str = ""
    key: int = 0
    kind: str = "struct"

    @property
    def info(self) -> "StructInfo":
        return STRUCTS[self.key]

    @property
    def size(self) -> int:
        return self.info.size

    @property
    def align(self) -> int:
        return self.info.align

    def spelled(self) -> str:
        return self._quals() + (self.name or f"(anonymous {self.kind})")


@dataclass
class StructInfo:
    name: str
    kind: str
    fields: dict[str, tuple[Type, int]] | None = None   # name -> (type, byte offset); None: incomplete
    size: int = 0
    align: int = 1
    # C++ classes (grammar/sema/classes.py): member functions, constructors, destructor,
    # static data members, each member's access, the base class
    methods: dict = field(default_factory=dict)
    ctors: list = field(default_factory=list)
    dtor: object = None
    statics: dict = field(default_factory=dict)
    access: dict = field(default_factory=dict)
    base: "Struct | None" = None
    # a class template's specialisation (grammar/sema/templates.py): the template's name and
    # arguments (`Matrix`, [int]), and the scope its members see (the parameters bound)
    template_name: str | None = None
    template_args: tuple = ()
    template_scope: object = None
    home: object = None          # sema: the scope the class is defined in (its namespace's names)
    member_inits: dict = field(default_factory=dict)   # field -> its default member initialiser
    typedefs: dict = field(default_factory=dict)   # a member typedef's name -> its TypedefSym (`vector<int>::iterator`)


STRUCTS: dict[int, StructInfo] = {}


def define_struct(name: str, kind: str) -> Struct:
    key = len(STRUCTS) + 1
    STRUCTS[key] = StructInfo(name, kind)
    return Struct(name=name, key=key, kind=kind)


def complete_struct(s: Struct, members: list[tuple[str, Type]], min_align: int = 1) -> None:
    """Lay out the members; `min_align`: an alignment the declaration asks for (__align__(N))."""
    info, offset, align = s.info, 0, max(min_align, 1)
    info.fields = {}
    for name, ty in members:
        a = max(ty.align, 1)
        if info.kind == "union":
            info.fields[name] = (ty, 0)
            offset = max(offset, ty.size)
        else:
            offset = (offset + a - 1) // a * a
            info.fields[name] = (ty, offset)
            offset += ty.size
        align = max(align, a)
    info.size = (offset + align - 1) // align * align
    info.align = align


@dataclass(frozen=True)
class Function(Type):
    ret: Type = None
    params: tuple[Type, ...] = ()
    variadic: bool = False

    size = 1

    def spelled(self) -> str:
        ps = ", ".join(p.spelled() for p in self.params) + (", ..." if self.variadic else "")
        return f"{self.ret.spelled()} ({ps or 'void'})"


VOID = Prim(name="void")
BOOL = Prim(name="bool")
CHAR = Prim(name="char")
INT = Prim(name="int")
UINT = Prim(name="unsigned int")
LONG = Prim(name="long")
ULONG = Prim(name="unsigned long")
LLONG = Prim(name="long long")
ULLONG = Prim(name="unsigned long long")
FLOAT = Prim(name="float")
DOUBLE = Prim(name="double")
SIZE_T = ULONG


def unqual(t: Type) -> Type:
    return replace(t, const=False, volatile=False) if (t.const or t.volatile) else t


def qualified(t: Type, **quals: bool) -> Type:
    """`t` with the qualifiers given (const=..., volatile=...) set as given."""
    return replace(t, **quals)


def is_integer(t: Type) -> bool:
    return isinstance(t, Prim) and not t.is_float and t.name != "void"


def is_float(t: Type) -> bool:
    return isinstance(t, Prim) and t.is_float


def is_arithmetic(t: Type) -> bool:
    return isinstance(t, Prim) and t.name != "void"


def is_scalar(t: Type) -> bool:
    return is_arithmetic(t) or isinstance(t, Pointer)


def is_void(t: Type) -> bool:
    return isinstance(t, Prim) and t.name == "void"


def decay(t: Type) -> Type:
    """Arrays become pointers to their first element; functions, function pointers."""
    if isinstance(t, Array):
        return Pointer(base=t.elem)
    if isinstance(t, Function):
        return Pointer(base=t)
    return t


def promote(t: Type) -> Type:
    """Integer promotion: bool, char, short -> int."""
    t = unqual(t)
    if is_integer(t) and t.rank < INT.rank:
        return INT
    return t


def usual_arithmetic(a: Type, b: Type) -> Type:
    """C's usual arithmetic conversions for a binary operator's operands."""
    a, b = promote(a), promote(b)
    if is_float(a) or is_float(b):
        if a == DOUBLE or b == DOUBLE:
            return DOUBLE
        return FLOAT
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank >= b.rank else b
    uns, sig = (a, b) if not a.signed else (b, a)
    if uns.rank >= sig.rank:
        return uns
    if sig.size > uns.size:
        return sig
    return Prim(name="unsigned " + sig.name)


def prim_from_words(words: list[str]) -> str | None:
    """The primitive named by specifier words (`unsigned long int` -> 'unsigned long'), or None."""
    counts = {w: words.count(w) for w in set(words)}
    signed = counts.pop("signed", 0)
    unsigned = counts.pop("unsigned", 0)
    if signed and unsigned or signed > 1 or unsigned > 1:
        return None
    longs = counts.pop("long", 0)
    if counts.get("int") == 1 and (longs or "short" in counts):
        counts.pop("int")
    base = [w for w in counts for _ in range(counts[w])]
    if len(base) > 1:
        return None
    b = base[0] if base else None
    if longs:
        if b not in (None, "int", "double") or longs > 2 or (b == "double" and (longs > 1 or signed or unsigned)):
            return None
        if b == "double":
            return "double"  # long double is computed as double
        name = "long" if longs == 1 else "long long"
    elif b in (None, "int"):
        if b is None and not (signed or unsigned):
            return None
        name = "int"
    elif b == "short":
        name = "short"
    elif b == "char":
        return "unsigned char" if unsigned else ("signed char" if signed else "char")
    elif b in ("float", "double", "void", "bool"):
        if signed or unsigned:
            return None
        return b
    else:
        return None
    return "unsigned " + name if unsigned else name

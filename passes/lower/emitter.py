"""The emitter every part of the lowering writes through, and the facts they all read.

`Emitter` numbers virtual registers (`%rN` 32-bit, `%rdN` 64-bit, `%pN`
predicates) and labels (`.LN`) per function, opens blocks and appends
instructions, each carrying the location of the AST node being lowered (`at(node)`
moves it).  Code emitted after a jump opens a fresh block, unreachable, which a
later pass drops.  FunctionLowering (function.py) sets up the state it works on:
`fn`, `block`, `loc` and `counters`.

Also here: how a C type shows in the IR (`type_mod`, `mem_width`, `is_wide`), the
implicit casts the lowering looks through, and `Unsupported`, raised for a construct
sema accepts but the lowering cannot express; ModuleLowering reports it located.
"""
from __future__ import annotations

from minicuda.diagnostics import SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.ir import Block, Instr, Label, Reg
from minicuda.semantics import takes_ftz, with_ftz

# the special register each launch-geometry variable is read from (S2R SR_TID.X & co.)
SPECIAL_REGISTERS = {"threadIdx": "SR_TID", "blockIdx": "SR_CTAID", "blockDim": "SR_NTID", "gridDim": "SR_NCTAID"}


class Unsupported(Exception):
    """A construct sema accepts and the lowering cannot express, at its location."""

    def __init__(self, message: str, loc: SourceLocation | None):
        self.message, self.loc = message, loc


def type_mod(t: T.Type) -> str:
    """The integer type modifier for t: S32 U32 S64 U64 (pointers are U64)."""
    t = T.unqual(t)
    if isinstance(t, (T.Pointer, T.Array)):
        return "U64"
    if t.size == 8:
        return "S64" if t.signed else "U64"
    return "U32" if (not t.signed or t == T.BOOL) and t.size == 4 else "S32"


def mem_width(t: T.Type) -> str:
    """The width modifier of a load or store of t: 64 32 S16 U16 S8 U8."""
    t = T.unqual(t)
    if isinstance(t, T.Pointer) or t.size == 8:
        return "64"
    if t.size == 4:
        return "32"
    if T.is_integer(t) and t.size == 2:
        return "S16" if t.signed else "U16"
    return "S8" if T.is_integer(t) and t.signed and t != T.BOOL else "U8"


def is_wide(t: T.Type) -> bool:
    """t lives in a 64-bit register (%rd): pointers, arrays (as addresses), 8-byte scalars."""
    t = T.unqual(t)
    return isinstance(t, (T.Pointer, T.Array, T.Reference)) or (isinstance(t, T.Prim) and t.size == 8)


class Emitter:
    """Registers, labels, blocks and emission for the function in `self.fn`."""

    def reg(self, t: T.Type | str) -> Reg:
        kind = t if isinstance(t, str) else ("rd" if is_wide(t) else "r")
        n = self.counters[kind]
        self.counters[kind] += 1
        return Reg(f"%{kind}{n}")

    def pred(self) -> Reg:
        return self.reg("p")

    def label(self) -> str:
        n = self.counters["L"]
        self.counters["L"] += 1
        return f".L{n}"

    def start(self, label: str) -> None:
        self.block = Block(label)
        self.fn.blocks.append(self.block)

    def emit(self, op: str, mods=(), dsts=(), srcs=(), guard=None, neg=False) -> Instr:
        if self.block is None or self.block.terminator is not None:
            self.start(self.label())  # code after a jump: unreachable, dropped later
        mods = tuple(m for m in mods if m)
        if self.flushes_denormals and takes_ftz(op, mods):
            mods = with_ftz(op, mods)   # -ftz=true: device code's f32 instructions flush denormals
        ins = Instr(op, mods, tuple(dsts), tuple(srcs), guard, neg, self.loc)
        self.block.instrs.append(ins)
        return ins

    @property
    def flushes_denormals(self) -> bool:
        """-ftz=true applies here: device code (host code keeps subnormals, as nvcc's)."""
        return self.lowering.ftz and self.fn.kind != "host"

    def jump(self, label: str) -> None:
        if self.block is not None and self.block.terminator is None:
            self.emit("BRA", srcs=(Label(label),))

    def at(self, node: A.Node):
        if node is not None and node.loc is not None:
            self.loc = node.loc
        return self


def strip_bool_casts(e: A.Expr) -> A.Expr:
    """e without implicit bool -> bool casts."""
    while isinstance(e, A.Cast) and e.implicit and T.unqual(e.ty) == T.BOOL and T.unqual(e.operand.ty) == T.BOOL:
        e = e.operand
    return e


def strip_decay(e: A.Expr) -> A.Expr:
    """e without the implicit decay of an array or function to a pointer."""
    while isinstance(e, A.Cast) and e.implicit and isinstance(T.unqual(e.operand.ty), (T.Array, T.Function)):
        e = e.operand
    return e

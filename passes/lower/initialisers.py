"""Initialisers: what a declaration's initialiser stores.

A local array or struct is stored element by element into its frame slot (the
missing tail of an array zeroed, a string literal stored byte by byte), a struct
initialised from another is copied, and a constructed value (a dim3) gets a frame
slot of its own.  A global's initialiser must be a constant expression:
`static_bytes` evaluates it (grammar.consteval) into the bytes the module's global
starts with.
"""
from __future__ import annotations

import struct

from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.ir import Imm, Mem, Sym
from minicuda.passes.lower.emitter import Unsupported


class InitialiserLowering:
    """The stores a local's initialiser and a constructed value make."""

    def init_memory(self, base: Sym, t: T.Type, init, store_op: str) -> None:
        if isinstance(init, A.InitList):
            if isinstance(t, T.Array):
                for i, item in enumerate(init.items):
                    self.init_memory(Sym(base.name, base.offset + i * t.elem.size), t.elem, item, store_op)
                for i in range(len(init.items), t.length or 0):
                    self.store(Mem(Sym(base.name, base.offset + i * t.elem.size)), Imm(0), t.elem, store_op)
            else:
                for (name, (fty, off)), item in zip(T.unqual(t).info.fields.items(), init.items):
                    self.init_memory(Sym(base.name, base.offset + off), fty, item, store_op)
            return
        if isinstance(init, A.StringLit) and isinstance(t, T.Array):
            data = init.value + b"\0" * max(1, (t.length or 0) - len(init.value))
            for i, byte in enumerate(data[: t.length]):
                self.store(Mem(Sym(base.name, base.offset + i)), Imm(byte), T.CHAR, store_op)
            return
        if isinstance(init, A.Construct) and getattr(init, "ctor", None) is not None:
            self.construct_at(init, Mem(base))
            return
        if isinstance(init, A.Call) and isinstance(T.unqual(init.ty), T.Struct) and not init.decl.is_builtin:
            self.call_into(init, Mem(base))
            return
        if isinstance(T.unqual(t), T.Struct):
            self.copy_struct(Mem(base), self.address(init), T.unqual(t), store_op, init)
            return
        self.store(Mem(base), self.rvalue(init), t, store_op)

    def construct_in_frame(self, e: A.Construct) -> Mem:
        t = T.unqual(e.ty)
        off = self.frame_slot(t)
        if len(e.args) == 1 and isinstance(T.unqual(e.args[0].ty), T.Struct):
            self.copy_struct(Mem(Sym("frame", off)), self.address(e.args[0]), t, "STL", e.args[0])
            return Mem(Sym("frame", off))
        values = [self.rvalue(a) for a in e.args] + [Imm(1)] * (3 - len(e.args))
        for i, v in enumerate(values[:3]):
            self.store(Mem(Sym("frame", off + 4 * i)), v, T.UINT, "STL")
        return Mem(Sym("frame", off))


def static_bytes(init, ty: T.Type) -> bytes:
    """The initial bytes of a global from its constant initializer.  An array's or a
    string's trailing zeros are left out (memory starts zeroed), so `char g[1ull << 40]
    = {1}` is one byte, not a tebibyte."""
    t = T.unqual(ty)
    if isinstance(init, A.InitList):
        if isinstance(t, T.Array):
            items = [static_bytes(i, t.elem) for i in init.items]
            return b"".join(item.ljust(t.elem.size, b"\0") for item in items[:-1]) + (items[-1] if items else b"")
        out = bytearray(t.size)
        for (name, (fty, off)), item in zip(t.info.fields.items(), init.items):
            chunk = static_bytes(item, fty)
            out[off:off + len(chunk)] = chunk
        return bytes(out)
    if isinstance(init, A.StringLit):
        return (init.value + b"\0")[: t.size]
    try:
        value = consteval.evaluate(init)
    except consteval.NotConstant:
        raise Unsupported("a global's initializer must be a constant expression", init.loc) from None
    if T.is_float(t):
        return struct.pack("<d" if t == T.DOUBLE else "<f", float(value))
    if isinstance(t, T.Pointer):
        if value != 0:
            raise Unsupported("a global pointer may only be initialized with 0", init.loc)
        return b"\0" * 8
    return (int(value) & ((1 << (8 * t.size)) - 1)).to_bytes(t.size, "little")

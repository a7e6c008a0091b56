"""Class and struct objects by value: parameters, returns, constructors, destructors.

A struct passed by value travels as its pieces, one parameter each (a kernel's as a
function's), and the callee stores them into a frame slot of its own.  The pieces
(`struct_pieces`) are 32-bit words, or narrower where the struct's alignment is (a
struct of chars goes byte by byte): never an access past its end or misaligned.  A
function returning a struct takes a hidden first parameter (`sret`), the address
where its caller wants the value, and `return v;` copies there.  A constructor is a
call with the object's address as `this`; a local object whose class has a
destructor is destroyed when its scope ends, in reverse order of construction, and
when `return`, `break` or `continue` leaves its scope (`destroy_to`).  A destructor's
members and base with destructors are destroyed after its body (`destroy_members`).
"""
from __future__ import annotations

from minicuda import builtins
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.grammar.sema.classes import destroyed_member
from minicuda.ir import Imm, Label, Mem, Param, Reg, Sym


def is_struct(t: T.Type) -> bool:
    return isinstance(T.unqual(t), T.Struct)


def struct_pieces(t: T.Type) -> list[tuple[int, str]]:
    """The (offset, width) pieces a struct value is copied and passed in: as wide as its
    alignment allows up to 32 bits, narrower at its end; width is a load's modifier."""
    t = T.unqual(t)
    widest = min(max(t.align, 1), 4)
    pieces, off = [], 0
    while off < t.size:
        n = widest
        while off + n > t.size:
            n //= 2
        pieces.append((off, PIECE_WIDTHS[n]))
        off += n
    return pieces


PIECE_WIDTHS = {4: "32", 2: "U16", 1: "U8"}
PIECE_BYTES = {"32": 4, "U16": 2, "U8": 1}
VECTOR_WIDTHS = {16: "128", 8: "64"}
VECTOR_REGISTERS = {"128": "rq", "64": "rd"}   # the virtual register class a vector piece is held in


def copy_pieces(t: T.Type) -> list[tuple[int, str]]:
    """The (offset, width) pieces a struct is copied in from memory to memory: one 64- or
    128-bit access per 8 or 16 bytes where its alignment allows (float2, int4, double2: the
    LDG.64 / LDG.128 nvcc emits), else `struct_pieces`."""
    t = T.unqual(t)
    vector = min(max(t.align, 1), 16)
    if vector not in VECTOR_WIDTHS or t.size % vector:
        return struct_pieces(t)
    return [(off, VECTOR_WIDTHS[vector]) for off in range(0, t.size, vector)]


def piece_register(width: str) -> str:
    """The virtual register class that holds a piece of `width` (`copy_pieces`)."""
    return VECTOR_REGISTERS.get(width, "r")


def width_mods(width: str) -> tuple:
    """A load's or store's modifiers for a piece of `width` (none for 32 bits)."""
    return () if width == "32" else (width,)


class ObjectLowering:
    """Struct values, constructors and destructors of one function."""

    # ---- by value ---------------------------------------------------------------------
    def struct_param(self, p: A.ParamDecl) -> None:
        t = T.unqual(p.ty)
        off = self.frame_slot(t)
        name = p.declarator.name or f"arg{len(self.fn.params)}"
        for i, (at, width) in enumerate(struct_pieces(t)):
            r = self.reg("r")
            self.fn.params.append(Param(r, f"{name}.{i}", PIECE_BYTES[width], "value"))
            self.emit("STL", width_mods(width), (), (Mem(Sym("frame", off + at)), r))
        self.vars[id(p)] = ("frame", off)

    def struct_words(self, e: A.Expr) -> list:
        """The pieces of a struct value (`struct_pieces`), loaded from where it is."""
        mem = self.address(e)
        op = self.load_op_of(mem, e)
        words = []
        for at, width in struct_pieces(e.ty):
            r = self.reg("r")
            self.emit(op, width_mods(width), (r,), (Mem(mem.base, mem.offset + at),))
            words.append(r)
        return words

    def load_op_of(self, mem: Mem, e: A.Expr) -> str:
        if isinstance(mem.base, Sym) and mem.base.name == "frame":
            return "LDL"
        if isinstance(mem.base, Sym):
            return self.access_op(e, load=True)
        return "LDG"

    def arguments(self, args: list) -> list:
        out = []
        for a in args:
            if is_struct(a.ty):
                made = len(self.temporaries) if self.temporaries is not None else None
                out += self.struct_words(a)
                if made is not None and len(self.temporaries) > made:   # the callee destroys its parameter
                    self.temporaries.pop()
            else:
                out.append(self.rvalue(a))
        return out

    def call_into(self, e: A.Call, dst: Mem | None) -> Mem | None:
        """A call of a function returning a struct, its value stored at `dst` (a frame
        slot of its own when None)."""
        temporary = dst is None
        if dst is None:
            dst = Mem(Sym("frame", self.frame_slot(T.unqual(e.ty))))
        if e.decl.is_builtin:   # make_int2 & co., __ldg of a vector (passes/lower/builtins.py)
            row = builtins.lookup(e.decl.name)
            if row.shape == "read_only":
                self.at(e).read_only_struct(e, dst)
            else:
                self.at(e).builtin_make_vector(row, e, dst, [self.rvalue(a) for a in e.args])
            return dst
        args = self.arguments(e.args)
        self.at(e).emit("CALL", dsts=(), srcs=(Sym(self.lowering.function_name(e.decl)), self.mem_address(dst)) + tuple(args))
        if temporary:
            self.temporary(dst, e.ty)
        return dst

    def return_struct(self, value: A.Expr) -> None:
        self.struct_into(value, Mem(self.sret))

    def struct_into(self, value: A.Expr, dst: Mem) -> None:
        """The class value `value` (a call's result, a constructed object, a copy) stored at `dst`."""
        while isinstance(value, A.Cast) and value.implicit and is_struct(value.operand.ty):
            value = value.operand   # `const P` to `P`
        if isinstance(value, A.Call) and is_struct(value.ty) and not value.decl.is_builtin:
            self.call_into(value, dst)
        elif isinstance(value, A.Construct) and getattr(value, "ctor", None) is not None:
            self.construct_at(value, dst)
        else:
            self.copy_struct(dst, self.address(value), T.unqual(value.ty), "STG")

    # ---- constructors and destructors ---------------------------------------------------
    def construct_at(self, e: A.Construct, dst: Mem) -> Mem:
        args = self.arguments(e.args)
        self.at(e).emit("CALL", dsts=(), srcs=(Sym(self.lowering.function_name(e.ctor)), self.mem_address(dst)) + tuple(args))
        return dst

    # ---- arrays of objects: new T[n], delete[] p -----------------------------------------
    def new_objects(self, e: A.New) -> Reg:
        """`new T[n]` of a class with a constructor or destructor: malloc's bytes (n
        stored first in the cookie, when there is one), then each element constructed
        in order (or zeroed, for `new T[n]()`); the value is the first element's address."""
        t = T.unqual(e.ty.base)
        n = self.rvalue(e.count)
        nbytes = self.arith("*", T.SIZE_T, n, Imm(t.size))
        if e.cookie:
            nbytes = self.arith("+", T.SIZE_T, nbytes, Imm(e.cookie))
        self.early_values[id(e.alloc.args[0])] = (e.alloc.args[0], nbytes, self.loc)
        raw = self.as_reg(self.rvalue(e.alloc), 64)
        p = raw
        if e.cookie:
            self.at(e).store(Mem(raw, e.cookie - T.SIZE_T.size), n, T.SIZE_T)
            p = self.reg("rd")
            self.emit("IADD", ("S64",), (p,), (raw, Imm(e.cookie)))
        if e.each is not None or e.zeroed:
            self.each_element(p, n, t, lambda at: self.init_element(e, at, t), backwards=False)
        return p

    def init_element(self, e: A.New, at: Reg, t: T.Struct) -> None:
        if e.each is not None:
            self.construct_at(e.each, Mem(at))
            return
        step = 4 if t.size % 4 == 0 else 1
        for off in range(0, t.size, step):
            self.store(Mem(at, off), Imm(0), T.UINT if step == 4 else T.UCHAR)

    def delete_objects(self, e: A.Delete) -> Imm:
        """`delete[] p` of a class with a destructor: unless p is null, each element
        destroyed, last first (their count read from the cookie before them), then the
        bytes from the cookie on freed."""
        t = T.unqual(T.unqual(e.operand.ty).base)
        p = self.as_reg(self.rvalue(e.operand), 64)
        end_l = self.label()
        null = self.pred()
        self.at(e).emit("ISETP", ("EQ", "U64"), (null,), (p, Imm(0)))
        self.emit("BRA", srcs=(Label(end_l),), guard=null)
        n = self.load(Mem(p, -T.SIZE_T.size), T.SIZE_T)
        dtor = Sym(self.lowering.function_name(e.destroy.decl))
        self.each_element(p, n, t, lambda at: self.emit("CALL", dsts=(), srcs=(dtor, at)), backwards=True)
        raw = self.reg("rd")
        self.emit("IADD", ("S64",), (raw, ), (p, Imm(-e.cookie)))
        self.early_values[id(e.free.args[0])] = (e.free.args[0], raw, self.loc)
        self.effect(e.free)
        self.jump(end_l)
        self.start(end_l)
        return Imm(0)

    def each_element(self, p: Reg, n, t: T.Struct, body, backwards: bool) -> None:
        """body(address) for the n elements of type t from p, first to last or last first."""
        i = self.reg("rd")
        self.emit("MOV", dsts=(i,), srcs=(n if backwards else Imm(0),))
        cond_l, body_l, end_l = self.label(), self.label(), self.label()
        self.jump(cond_l)
        self.start(cond_l)
        done = self.pred()
        if backwards:
            self.emit("ISETP", ("EQ", "U64"), (done,), (i, Imm(0)))
        else:
            self.emit("ISETP", ("GE", "U64"), (done,), (i, n))
        self.emit("BRA", srcs=(Label(end_l),), guard=done)
        self.start(body_l)
        if backwards:
            self.emit("IADD", ("S64",), (i,), (i, Imm(-1)))
        at = self.reg("rd")
        self.emit("IMAD", ("S64",), (at,), (i, Imm(t.size), p))
        body(at)
        if not backwards:
            self.emit("IADD", ("S64",), (i,), (i, Imm(1)))
        self.jump(cond_l)
        self.start(end_l)

    def destructible(self, v: A.VarDecl) -> None:
        """Remember a local object whose class has a destructor, to destroy at its scope's end."""
        t = T.unqual(v.ty)
        if isinstance(t, T.Struct) and t.info.dtor is not None and self.dtor_scopes:
            self.dtor_scopes[-1].append(v)

    # ---- temporaries: destroyed at the end of their full expression ----------------------
    def temporary(self, mem: Mem, ty: T.Type) -> None:
        """A class temporary built at `mem`: destroyed when its full expression ends (the
        statement being lowered keeps `temporaries`; None: not kept, as in a branch)."""
        t = T.unqual(ty)
        if self.temporaries is not None and t.info.dtor is not None:
            self.temporaries.append((mem, t))

    def full_expression(self, lower, extend: bool = False) -> None:
        """lower() with its temporaries destroyed after it, in reverse order of construction;
        `extend`: kept to the end of the scope instead (bound to a reference variable)."""
        saved, self.temporaries = self.temporaries, []
        try:
            lower()
            made = self.temporaries
        finally:
            self.temporaries = saved
        if extend and self.dtor_scopes:
            self.dtor_scopes[-1].extend(made)
        else:
            self.destroy(made)

    def without_temporaries(self, lower):
        """lower() keeping none of its temporaries: code that may not run (a branch's arm)."""
        saved, self.temporaries = self.temporaries, None
        try:
            return lower()
        finally:
            self.temporaries = saved

    def destroy(self, objects: list, keep=None) -> None:
        """Destroy `objects` (local variables, or temporaries as (where, class)), the last
        first; all but `keep`."""
        for v in reversed(objects):
            if isinstance(v, tuple):   # a temporary: (where, class)
                self.emit("CALL", dsts=(), srcs=(Sym(self.lowering.function_name(v[1].info.dtor)), self.mem_address(v[0])))
                continue
            if v is keep:
                continue
            dtor = T.unqual(v.ty).info.dtor
            self.emit("CALL", dsts=(), srcs=(Sym(self.lowering.function_name(dtor)), self.mem_address(self.address_of_var(v))))

    def address_of_var(self, v: A.VarDecl) -> Mem:
        kind = self.vars[id(v)]
        return Mem(Sym("frame", kind[1]))

    def destroy_to(self, depth: int, keep=None) -> None:
        """Destroy the objects of every scope above `depth` (a jump out of them) but `keep`
        (a local object `return` hands to the caller as it is)."""
        for scope in reversed(self.dtor_scopes[depth:]):
            self.destroy(scope, keep)

    def destroy_members(self) -> None:
        """At the end of a destructor: its class's members and base with destructors, in
        reverse order of declaration (after the destructor's own body)."""
        if getattr(self.ast, "member_kind", "") != "dtor":
            return
        this = self.ast.params[0]
        name = A.Name("this", loc=self.ast.loc)
        name.decl, name.ty = this, this.ty
        s = T.unqual(this.ty.base)
        members = list(destroyed_member(s))
        if not members:
            return
        base = self.rvalue(name)
        for field, t in reversed(members):
            at = self.mem_address(Mem(base, s.info.fields[field][1]))
            self.emit("CALL", dsts=(), srcs=(Sym(self.lowering.function_name(t.info.dtor)), at))

    def destructible_params(self, params: list) -> list:
        """A function's by-value class parameters with destructors: the callee destroys
        them when it returns (after building its return value), as g++'s order shows."""
        return [p for p in params if isinstance(T.unqual(p.ty), T.Struct) and T.unqual(p.ty).info.dtor is not None]

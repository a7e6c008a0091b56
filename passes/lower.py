"""Lowering: the checked AST to IR, one Function per kernel, device and host function.

Scalars whose address is never taken live in virtual registers (`%r` 32-bit,
`%rd` 64-bit, `%p` predicates for conditions); arrays, structs and address-taken
locals live in the function's frame (`$frame+off`, accessed with LDL/STL).
Pointers are 64-bit generic addresses; an access through a known variable uses the
load/store of its space (LDS/STS shared, LDC constant, LDL/STL frame), an access
through a pointer LDG/STG.  Control flow is lowered as nvcc -G does, every branch
kept: `if` is `@!P BRA else`, loops test at the top, `&&`, `||` and `?:` branch.
String literals become module globals.  Every instruction carries the source
location of the AST node it came from.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from minicuda import builtins
from minicuda.diagnostics import CompileError, Diagnostic, InternalError, SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.ir import (Block, Function, Global, Imm, Instr, Label, Mem, Module, Param, Reg, Special,
                         Str, Sym)

_CMP = {"==": "EQ", "!=": "NE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE"}
_SPECIAL = {"threadIdx": "SR_TID", "blockIdx": "SR_CTAID", "blockDim": "SR_NTID", "gridDim": "SR_NCTAID"}


class _Unsupported(Exception):
    def __init__(self, message: str, loc: SourceLocation | None):
        self.message, self.loc = message, loc


def _unwidened(e: A.Expr) -> A.Expr:
    """e without an implicit float -> double conversion."""
    if isinstance(e, A.Cast) and e.implicit and T.unqual(e.operand.ty) == T.FLOAT and T.unqual(e.ty) == T.DOUBLE:
        return e.operand
    return e


def _is_double_argument(e: A.Call) -> bool:
    return T.unqual(_unwidened(e.args[0]).ty) == T.DOUBLE


def type_mod(t: T.Type) -> str:
    """The integer type modifier for t: S32 U32 S64 U64 (pointers are U64)."""
    t = T.unqual(t)
    if isinstance(t, (T.Pointer, T.Array)):
        return "U64"
    if t.size == 8:
        return "S64" if t.signed else "U64"
    return "U32" if (not t.signed or t == T.BOOL) and t.size == 4 else "S32"


def mem_width(t: T.Type) -> str:
    t = T.unqual(t)
    if isinstance(t, T.Pointer) or t.size == 8:
        return "64"
    if t.size == 4:
        return "32"
    if T.is_integer(t) and t.size == 2:
        return "S16" if t.signed else "U16"
    return "S8" if T.is_integer(t) and t.signed and t != T.BOOL else "U8"


def is_wide(t: T.Type) -> bool:
    t = T.unqual(t)
    return isinstance(t, (T.Pointer, T.Array)) or (isinstance(t, T.Prim) and t.size == 8)


@dataclass
class _Loop:
    brk: str
    cont: str | None


class FunctionLowering:
    def __init__(self, fn: A.FunctionDef, module: Module, lowering: "ModuleLowering"):
        self.ast = fn
        self.module = module
        self.lowering = lowering
        kind = "kernel" if "global" in fn.exec_space else ("device" if fn.exec_space == {"device"} else "host")
        self.fn = Function(lowering.function_name(fn), kind, loc=fn.loc)
        self.counters = {"r": 0, "rd": 0, "p": 0, "L": 0}
        self.vars: dict[int, tuple] = {}      # id(decl) -> ("reg", Reg) | ("frame", offset) | ("sym", name)
        self.addressed = _address_taken(fn.body)
        self.block: Block | None = None
        self.loc: SourceLocation | None = fn.loc
        self.loops: list[_Loop] = []
        self.switch_labels: list[dict[int, str]] = []

    # ---- registers, blocks, emission -----------------------------------------------------
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
        ins = Instr(op, tuple(m for m in mods if m), tuple(dsts), tuple(srcs), guard, neg, self.loc)
        self.block.instrs.append(ins)
        return ins

    def jump(self, label: str) -> None:
        if self.block is not None and self.block.terminator is None:
            self.emit("BRA", srcs=(Label(label),))

    def at(self, node: A.Node):
        if node is not None and node.loc is not None:
            self.loc = node.loc
        return self

    # ---- function ------------------------------------------------------------------------
    def lower(self) -> Function:
        self.start(".L_entry")
        for p in self.ast.params:
            self.param(p)
        if not T.is_void(self.ast.ty.ret):
            self.fn.rets = [self.reg(self.ast.ty.ret)]
        self.stmt(self.ast.body)
        self.at(self.ast.body)
        if self.block.terminator is None:
            if self.fn.kind == "kernel":
                self.emit("EXIT")
            else:
                if self.fn.rets and self.ast.name == "main":
                    self.emit("MOV", dsts=self.fn.rets, srcs=(Imm(0),))
                self.emit("RET")
        self.fn.blocks[0].label = ".L_entry"
        return self.fn

    def param(self, p: A.ParamDecl) -> None:
        t = T.unqual(p.ty)
        if isinstance(t, T.Struct):
            raise _Unsupported(f"passing a struct ('{t}') by value is not supported", p.loc)
        r = self.reg(t)
        kind = "pointer" if isinstance(t, T.Pointer) else "value"
        self.fn.params.append(Param(r, p.declarator.name or f"arg{len(self.fn.params)}", t.size, kind))
        if id(p) in self.addressed:
            off = self.frame_slot(t)
            self.vars[id(p)] = ("frame", off)
            self.store(Mem(Sym("frame", off)), r, t, "STL")
        else:
            self.vars[id(p)] = ("reg", r)

    def frame_slot(self, t: T.Type) -> int:
        align = max(t.align, 1)
        off = (self.fn.local_bytes + align - 1) // align * align
        self.fn.local_bytes = off + max(t.size, 1)
        return off

    # ---- statements ------------------------------------------------------------------------
    def stmt(self, s: A.Node) -> None:
        getattr(self, "s_" + type(s).__name__)(s)

    def s_Compound(self, s: A.Compound):
        for item in s.items:
            self.stmt(item)

    def s_Pragma(self, s):
        pass

    def s_DeclStmt(self, s: A.DeclStmt):
        for v in s.declaration.decls:
            if v.ty is None:
                continue
            self.at(v).local(v)

    def local(self, v: A.VarDecl) -> None:
        t = v.ty
        if v.space == "shared":
            name = self.lowering.shared_symbol(self.fn, v)
            self.vars[id(v)] = ("sym", name)
            return
        if "extern" in v.specs.storage:
            self.vars[id(v)] = ("sym", v.name)
            return
        if isinstance(T.unqual(t), (T.Array, T.Struct)) or id(v) in self.addressed:
            off = self.frame_slot(t)
            self.vars[id(v)] = ("frame", off)
            if v.init is not None:
                self.init_memory(Sym("frame", off), t, v.init, "STL")
            return
        r = self.reg(t)
        self.vars[id(v)] = ("reg", r)
        if v.init is not None:
            self.emit("MOV", dsts=(r,), srcs=(self.rvalue(v.init),))

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
        if isinstance(T.unqual(t), T.Struct):
            self.copy_struct(Mem(base), self.address(init), T.unqual(t), store_op)
            return
        self.store(Mem(base), self.rvalue(init), t, store_op)

    def s_ExprStmt(self, s: A.ExprStmt):
        if s.expr is not None:
            self.at(s).effect(s.expr)

    def s_If(self, s: A.If):
        self.at(s)
        then_l, end_l = self.label(), self.label()
        else_l = self.label() if s.else_ is not None else end_l
        self.branch(s.cond, then_l, else_l, then_l)
        self.start(then_l)
        self.stmt(s.then)
        if s.else_ is not None:
            self.at(s).jump(end_l)
            self.start(else_l)
            self.stmt(s.else_)
        self.jump(end_l)
        self.start(end_l)

    def s_While(self, s: A.While):
        self.at(s)
        cond_l, body_l, end_l = self.label(), self.label(), self.label()
        self.jump(cond_l)
        self.start(cond_l)
        self.branch(s.cond, body_l, end_l, body_l)
        self.start(body_l)
        self.loops.append(_Loop(end_l, cond_l))
        self.stmt(s.body)
        self.loops.pop()
        self.at(s).jump(cond_l)
        self.start(end_l)

    def s_DoWhile(self, s: A.DoWhile):
        self.at(s)
        body_l, cond_l, end_l = self.label(), self.label(), self.label()
        self.jump(body_l)
        self.start(body_l)
        self.loops.append(_Loop(end_l, cond_l))
        self.stmt(s.body)
        self.loops.pop()
        self.jump(cond_l)
        self.start(cond_l)
        self.at(s.cond).branch(s.cond, body_l, end_l, end_l)
        self.start(end_l)

    def s_For(self, s: A.For):
        self.at(s)
        if s.init is not None:
            self.stmt(s.init)
        cond_l, body_l, step_l, end_l = self.label(), self.label(), self.label(), self.label()
        self.jump(cond_l)
        self.start(cond_l)
        if s.cond is not None:
            self.at(s.cond).branch(s.cond, body_l, end_l, body_l)
        self.start(body_l)
        self.loops.append(_Loop(end_l, step_l))
        self.stmt(s.body)
        self.loops.pop()
        self.jump(step_l)
        self.start(step_l)
        if s.step is not None:
            self.at(s.step).effect(s.step)
        self.at(s).jump(cond_l)
        self.start(end_l)

    def s_Switch(self, s: A.Switch):
        self.at(s)
        value = self.rvalue(s.expr)
        labels: dict[int, str] = {}
        default = None
        for node in _switch_cases(s.body):
            labels[id(node)] = self.label()
            if isinstance(node, A.Default):
                default = labels[id(node)]
        end_l = self.label()
        wide = is_wide(s.expr.ty)
        for node in _switch_cases(s.body):
            if isinstance(node, A.Case):
                p = self.pred()
                self.at(node).emit("ISETP", ("EQ", type_mod(s.expr.ty)), (p,), (value, Imm(node.const_value)))
                nxt = self.label()
                self.emit("BRA", srcs=(Label(labels[id(node)]),), guard=p)
                self.start(nxt)
        self.at(s).jump(default or end_l)
        self.switch_labels.append(labels)
        self.loops.append(_Loop(end_l, self.loops[-1].cont if self.loops else None))
        self.stmt(s.body)
        self.loops.pop()
        self.switch_labels.pop()
        self.jump(end_l)
        self.start(end_l)
        _ = wide

    def s_Case(self, s: A.Case):
        label = self.switch_labels[-1][id(s)]
        self.jump(label)
        self.start(label)
        self.stmt(s.body)

    s_Default = s_Case

    def s_Break(self, s):
        self.at(s).jump(self.loops[-1].brk)

    def s_Continue(self, s):
        cont = next(l.cont for l in reversed(self.loops) if l.cont is not None)
        self.at(s).jump(cont)

    def s_Return(self, s: A.Return):
        self.at(s)
        if s.value is not None:
            if T.is_void(s.value.ty) or not self.fn.rets:
                self.effect(s.value)
            else:
                self.emit("MOV", dsts=self.fn.rets, srcs=(self.rvalue(s.value),))
        self.emit("EXIT" if self.fn.kind == "kernel" else "RET")

    # ---- conditions ------------------------------------------------------------------------
    def branch(self, cond: A.Expr, true_l: str, false_l: str, fall: str) -> None:
        """Jump to true_l when cond holds, else to false_l (C's short-circuit order).

        `fall` is the label the caller starts next: that edge is a fall-through."""
        c = _strip(cond)
        if isinstance(c, A.Binary) and c.op in ("&&", "||"):
            mid = self.label()
            if c.op == "&&":
                self.branch(c.lhs, mid, false_l, mid)
            else:
                self.branch(c.lhs, true_l, mid, mid)
            self.start(mid)
            self.branch(c.rhs, true_l, false_l, fall)
            return
        if isinstance(c, A.Unary) and c.op == "!":
            self.branch(c.operand, false_l, true_l, fall)
            return
        p, neg = self.predicate(cond)
        if fall == true_l:
            self.emit("BRA", srcs=(Label(false_l),), guard=p, neg=not neg)
        elif fall == false_l:
            self.emit("BRA", srcs=(Label(true_l),), guard=p, neg=neg)
        else:
            self.emit("BRA", srcs=(Label(false_l),), guard=p, neg=not neg)
            self.start(self.label())
            self.emit("BRA", srcs=(Label(true_l),))

    def predicate(self, e: A.Expr) -> tuple[Reg, bool]:
        """A predicate register and whether it is negated, true when e is."""
        c = _strip(e)
        self.at(e)
        if isinstance(c, A.Binary) and c.op in _CMP:
            return self.compare(c), False
        if isinstance(c, A.Unary) and c.op == "!":
            p, neg = self.predicate(c.operand)
            return p, not neg
        if isinstance(c, A.Binary) and c.op in ("&&", "||"):
            return self.predicate_value(e), False
        value = self.rvalue(c)
        p = self.pred()
        self.zero_test(p, value, c.ty)
        return p, False

    def zero_test(self, p: Reg, value, t: T.Type) -> None:
        t = T.unqual(t)
        if T.is_float(t):
            self.emit("DSETP" if t == T.DOUBLE else "FSETP", ("NE",), (p,), (value, Imm(0.0)))
        else:
            self.emit("ISETP", ("NE", type_mod(t)), (p,), (value, Imm(0)))

    def compare(self, c: A.Binary) -> Reg:
        lhs, rhs = self.rvalue(c.lhs), self.rvalue(c.rhs)
        t = T.unqual(c.lhs.ty)
        p = self.pred()
        self.at(c)
        if T.is_float(t):
            self.emit("DSETP" if t == T.DOUBLE else "FSETP", (_CMP[c.op],), (p,), (lhs, rhs))
        else:
            self.emit("ISETP", (_CMP[c.op], type_mod(t)), (p,), (lhs, rhs))
        return p

    def predicate_value(self, e: A.Expr) -> Reg:
        """A predicate holding e, computed with branches (&&, || short-circuit)."""
        p = self.pred()
        true_l, false_l, end_l = self.label(), self.label(), self.label()
        self.branch(e, true_l, false_l, true_l)
        self.start(true_l)
        self.emit("PLOP", ("OR",), (p,), (Reg("PT"), Reg("PT")))
        self.jump(end_l)
        self.start(false_l)
        self.emit("PNOT", (), (p,), (Reg("PT"),))
        self.jump(end_l)
        self.start(end_l)
        return p

    # ---- expressions -----------------------------------------------------------------------
    def effect(self, e: A.Expr) -> None:
        self.rvalue(e, discard=True)

    def rvalue(self, e: A.Expr, discard: bool = False):
        """The value of e as an operand (register or immediate)."""
        self.at(e)
        method = getattr(self, "e_" + type(e).__name__)
        return method(e) if not discard or type(e).__name__ not in ("Assign", "IncDec", "Call") else method(e, discard=True)

    def e_IntLit(self, e):
        return Imm(e.value & ((1 << (8 * T.unqual(e.ty).size)) - 1) if e.value < 0 else e.value)

    def e_CharLit(self, e):
        return Imm(e.value)

    def e_BoolLit(self, e):
        return Imm(int(e.value))

    def e_FloatLit(self, e):
        return Imm(float(struct.unpack("f", struct.pack("f", e.value))[0]) if e.ty == T.FLOAT else float(e.value))

    def e_StringLit(self, e):
        r = self.reg("rd")
        self.emit("MOV", dsts=(r,), srcs=(Sym(self.lowering.string(e.value)),))
        return r

    def e_Name(self, e: A.Name):
        decl = e.decl
        if isinstance(decl, A.VarDecl) and decl.space == "builtin":
            if decl.name == "warpSize":
                return Imm(32)
            raise _Unsupported(f"'{decl.name}' used as a whole value; use its .x/.y/.z", e.loc)
        kind = self.storage(decl)
        t = T.unqual(e.ty)
        if kind[0] == "reg":
            return kind[1]
        if isinstance(t, (T.Array, T.Function)):
            return self.address_value(e)
        if isinstance(t, T.Struct):
            raise _Unsupported(f"a struct value ('{t}') here is not supported", e.loc)
        return self.load(self.address(e), t, self.space_op(decl, load=True))

    def storage(self, decl) -> tuple:
        if id(decl) in self.vars:
            return self.vars[id(decl)]
        if isinstance(decl, A.VarDecl) and decl.is_global_scope:
            return ("sym", self.lowering.global_symbol(decl))
        raise InternalError("lower", f"no storage for '{getattr(decl, 'name', decl)}'")

    def space_op(self, decl, load: bool) -> str:
        kind = self.storage(decl)
        space = getattr(decl, "space", "local")
        if kind[0] == "frame":
            return "LDL" if load else "STL"
        if space == "shared":
            return "LDS" if load else "STS"
        if space == "constant" and load:
            return "LDC"
        return "LDG" if load else "STG"

    def address(self, e: A.Expr) -> Mem:
        """The memory address of an lvalue (or of an array / struct)."""
        e = _strip_decay(e)
        self.at(e)
        if isinstance(e, A.Name):
            kind = self.storage(e.decl)
            if kind[0] == "frame":
                return Mem(Sym("frame", kind[1]))
            if kind[0] == "sym":
                return Mem(Sym(kind[1]))
            raise InternalError("lower", f"'{e.name}' lives in a register")
        if isinstance(e, A.Unary) and e.op == "*":
            return Mem(self.as_reg(self.rvalue(e.operand), 64))
        if isinstance(e, A.Index):
            base = self.rvalue(e.base)
            return self.element(base, e.index, e.ty)
        if isinstance(e, A.Member):
            if e.arrow:
                base = Mem(self.as_reg(self.rvalue(e.base), 64))
                st = T.unqual(T.unqual(e.base.ty).base)
            else:
                if isinstance(_strip(e.base), A.Name) and getattr(_strip(e.base).decl, "space", "") == "builtin":
                    raise _Unsupported("the address of a built-in variable cannot be taken", e.loc)
                base = self.address(e.base)
                st = T.unqual(e.base.ty)
            return Mem(base.base, base.offset + st.info.fields[e.name][1])
        if isinstance(e, A.StringLit):
            return Mem(Sym(self.lowering.string(e.value)))
        if isinstance(e, A.Construct):
            return self.construct_in_frame(e)
        if isinstance(e, A.Call):
            raise _Unsupported("a struct returned by value is not supported", e.loc)
        raise InternalError("lower", f"not an lvalue: {type(e).__name__}")

    def element(self, base, index: A.Expr, elem_t: T.Type) -> Mem:
        size = max(T.unqual(elem_t).size, 1) if not isinstance(T.unqual(elem_t), T.Function) else 1
        idx = self.rvalue(index)
        if isinstance(idx, Imm):
            return Mem(self.as_reg(base, 64), idx.value * size) if not isinstance(base, Imm) else Mem(self.as_reg(base, 64), idx.value * size)
        addr = self.reg("rd")
        self.emit("IMAD", ("S64",), (addr,), (idx, Imm(size), base))
        return Mem(addr)

    def as_reg(self, v, bits: int) -> Reg:
        if isinstance(v, Reg):
            return v
        r = self.reg("rd" if bits == 64 else "r")
        self.emit("MOV", dsts=(r,), srcs=(v,))
        return r

    def address_value(self, e: A.Expr) -> Reg:
        mem = self.address(e)
        r = self.reg("rd")
        if isinstance(mem.base, Sym):
            self.emit("MOV", dsts=(r,), srcs=(Sym(mem.base.name, mem.base.offset + mem.offset),))
        elif mem.offset:
            self.emit("IADD", ("S64",), (r,), (mem.base, Imm(mem.offset)))
        else:
            return mem.base
        return r

    def load(self, mem: Mem, t: T.Type, op: str = "LDG"):
        t = T.unqual(t)
        r = self.reg(t)
        self.emit(op, (mem_width(t),) if mem_width(t) != "32" else (), (r,), (mem,))
        return r

    def store(self, mem: Mem, value, t: T.Type, op: str = "STG") -> None:
        t = T.unqual(t)
        self.emit(op, (mem_width(t),) if mem_width(t) != "32" else (), (), (mem, value))

    def store_to(self, target: A.Expr, value) -> None:
        target = _strip_decay(target)
        if isinstance(target, A.Name):
            kind = self.storage(target.decl)
            if kind[0] == "reg":
                self.emit("MOV", dsts=(kind[1],), srcs=(value,))
                return
            self.store(self.address(target), value, target.ty, self.space_op(target.decl, load=False))
            return
        self.store(self.address(target), value, target.ty, self.access_op(target, load=False))

    def read(self, target: A.Expr):
        target = _strip_decay(target)
        if isinstance(target, A.Name):
            return self.e_Name(target)
        return self.load(self.address(target), target.ty, self.access_op(target, load=True))

    def access_op(self, e: A.Expr, load: bool) -> str:
        """The memory op for an lvalue: by its variable's space when it is one."""
        root = e
        while isinstance(root, (A.Member, A.Index)) and not (isinstance(root, A.Member) and root.arrow):
            base = _strip_decay(root.base)
            if isinstance(root, A.Index) and not isinstance(T.unqual(base.ty), T.Array):
                return "LDG" if load else "STG"
            root = base
        if isinstance(root, A.Name) and not isinstance(root, A.Member):
            return self.space_op(root.decl, load)
        return "LDG" if load else "STG"

    def e_Index(self, e: A.Index):
        if isinstance(T.unqual(e.ty), T.Array):
            return self.address_value(e)
        return self.read(e)

    def e_Member(self, e: A.Member):
        base = _strip(e.base)
        if not e.arrow and isinstance(base, A.Name) and getattr(base.decl, "space", "") == "builtin":
            r = self.reg("r")
            self.emit("S2R", dsts=(r,), srcs=(Special(f"{_SPECIAL[base.name]}.{e.name.upper()}"),))
            return r
        if isinstance(T.unqual(e.ty), T.Array):
            return self.address_value(e)
        return self.read(e)

    def e_Unary(self, e: A.Unary):
        if e.op == "&":
            return self.address_value(e.operand)
        if e.op == "*":
            if isinstance(T.unqual(e.ty), (T.Array, T.Struct)):
                return self.as_reg(self.rvalue(e.operand), 64)
            return self.load(self.address(e), e.ty)
        if e.op == "!":
            p, neg = self.predicate(e.operand)
            return self.pred_to_int(p, not neg)
        v = self.rvalue(e.operand)
        t = T.unqual(e.ty)
        r = self.reg(t)
        if e.op == "+":
            return v
        if e.op == "-":
            op = "DNEG" if t == T.DOUBLE else "FNEG" if t == T.FLOAT else "INEG"
            self.emit(op, (type_mod(t),) if op == "INEG" else (), (r,), (v,))
        else:
            self.emit("NOT", (type_mod(t),), (r,), (v,))
        return r

    def pred_to_int(self, p: Reg, neg: bool = False) -> Reg:
        r = self.reg("r")
        self.emit("SEL", dsts=(r,), srcs=(Imm(0), Imm(1), p) if neg else (Imm(1), Imm(0), p))
        return r

    def e_Binary(self, e: A.Binary):
        if e.op in _CMP or e.op in ("&&", "||"):
            p, neg = self.predicate(e)
            return self.pred_to_int(p, neg)
        t = T.unqual(e.ty)
        lt, rt = T.unqual(e.lhs.ty), T.unqual(e.rhs.ty)
        if isinstance(t, T.Pointer) or (e.op == "-" and isinstance(lt, T.Pointer)):
            return self.pointer_op(e, lt, rt)
        a, b = self.rvalue(e.lhs), self.rvalue(e.rhs)
        self.at(e)
        return self.arith(e.op, t, a, b)

    def arith(self, op: str, t: T.Type, a, b) -> Reg:
        r = self.reg(t)
        if T.is_float(t):
            p = "D" if t == T.DOUBLE else "F"
            name = {"+": "ADD", "-": "SUB", "*": "MUL", "/": "DIV"}[op]
            self.emit(p + name, (), (r,), (a, b))
            return r
        mod = type_mod(t)
        ops = {"+": ("IADD", ()), "-": ("ISUB", ()), "*": ("IMUL", ()), "/": ("IDIV", ()), "%": ("IREM", ()),
               "&": ("LOP", ("AND",)), "|": ("LOP", ("OR",)), "^": ("LOP", ("XOR",)), "<<": ("SHL", ()), ">>": ("SHR", ())}
        name, extra = ops[op]
        self.emit(name, extra + (mod,), (r,), (a, b))
        return r

    def pointer_op(self, e: A.Binary, lt, rt):
        if isinstance(lt, T.Pointer) and isinstance(rt, T.Pointer):
            a, b = self.rvalue(e.lhs), self.rvalue(e.rhs)
            diff, r = self.reg("rd"), self.reg("rd")
            self.at(e).emit("ISUB", ("S64",), (diff,), (a, b))
            self.emit("IDIV", ("S64",), (r,), (diff, Imm(max(lt.base.size, 1))))
            return r
        ptr_e, int_e = (e.lhs, e.rhs) if isinstance(lt, T.Pointer) else (e.rhs, e.lhs)
        base, idx = self.rvalue(ptr_e), self.rvalue(int_e)
        size = max(T.unqual(e.ty).base.size, 1)
        r = self.reg("rd")
        self.at(e)
        if e.op == "-":
            neg = self.reg("rd")
            self.emit("INEG", ("S64",), (neg,), (idx,))
            idx = neg
        self.emit("IMAD", ("S64",), (r,), (idx, Imm(size), base))
        return r

    def e_Cast(self, e: A.Cast):
        src, dst = T.unqual(e.operand.ty), T.unqual(e.ty)
        if isinstance(src, T.Array) or isinstance(src, T.Function):
            return self.address_value(e.operand)
        if T.is_void(dst):
            self.effect(e.operand)
            return Imm(0)
        if dst == T.BOOL and src != T.BOOL:
            p, neg = self.predicate(e.operand)
            return self.pred_to_int(p, neg)
        v = self.rvalue(e.operand)
        self.at(e)
        return self.convert(v, src, dst)

    def convert(self, v, src: T.Type, dst: T.Type):
        if isinstance(src, T.Pointer):
            src = T.ULONG
        if isinstance(dst, T.Pointer):
            dst = T.ULONG
        if src == dst or _same_bits(src, dst):
            return v
        if isinstance(v, Imm):
            folded = _fold_convert(v.value, src, dst)
            if folded is not None:
                return Imm(folded)
        r = self.reg(dst)
        if T.is_float(src) and T.is_float(dst):
            self.emit("F2F", (_fname(dst), _fname(src)), (r,), (v,))
        elif T.is_float(dst):
            self.emit("I2F", (_fname(dst), _iname(src)), (r,), (v,))
        elif T.is_float(src):
            self.emit("F2I", (_iname(dst), _fname(src)), (r,), (v,))
        else:
            self.emit("I2I", (_iname(dst), _iname(src)), (r,), (v,))
        return r

    def e_Assign(self, e: A.Assign, discard: bool = False):
        target = _strip_decay(e.target)
        t = T.unqual(target.ty)
        if isinstance(t, T.Struct):
            self.copy_struct(self.address(target), self.address(e.value), t, self.access_op(target, load=False))
            return Imm(0)
        if e.op == "=":
            value = self.rvalue(e.value)
        else:
            op = e.op[:-1]
            current = self.read(target)
            rhs = self.rvalue(e.value)
            self.at(e)
            if isinstance(t, T.Pointer):
                value = self.reg("rd")
                idx = rhs
                if op == "-":
                    idx = self.reg("rd")
                    self.emit("INEG", ("S64",), (idx,), (rhs,))
                self.emit("IMAD", ("S64",), (value,), (idx, Imm(max(t.base.size, 1)), current))
            else:
                ct = e.compute_ty if op not in ("<<", ">>") else T.promote(t)
                value = self.convert(self.arith(op, ct, self.convert(current, t, ct), rhs), ct, t)
        self.at(e).store_to(target, value)
        return value

    def e_IncDec(self, e: A.IncDec, discard: bool = False):
        target = _strip_decay(e.operand)
        t = T.unqual(target.ty)
        current = self.read(target)
        old = current
        if not discard and not e.prefix and isinstance(current, Reg) and self._in_register(target):
            old = self.reg(t)
            self.emit("MOV", dsts=(old,), srcs=(current,))
        self.at(e)
        op = "+" if e.op == "++" else "-"
        if isinstance(t, T.Pointer):
            new = self.arith(op, T.LONG, current, Imm(max(t.base.size, 1)))
        elif T.is_float(t):
            new = self.arith(op, t, current, Imm(1.0))
        else:
            ct = T.promote(t)
            new = self.convert(self.arith(op, ct, self.convert(current, t, ct), Imm(1)), ct, t)
        self.store_to(target, new)
        return new if e.prefix else old

    def _in_register(self, target) -> bool:
        return isinstance(target, A.Name) and self.storage(target.decl)[0] == "reg"

    def e_Conditional(self, e: A.Conditional):
        t = T.unqual(e.ty)
        r = self.reg(t) if not T.is_void(t) else None
        then_l, else_l, end_l = self.label(), self.label(), self.label()
        self.branch(e.cond, then_l, else_l, then_l)
        for label, arm in ((then_l, e.then), (else_l, e.else_)):
            self.start(label)
            v = self.rvalue(arm)
            if r is not None:
                self.at(arm).emit("MOV", dsts=(r,), srcs=(v,))
            self.jump(end_l)
        self.start(end_l)
        return r if r is not None else Imm(0)

    def e_Comma(self, e: A.Comma):
        self.effect(e.lhs)
        return self.rvalue(e.rhs)

    def e_SizeofExpr(self, e):
        return Imm(e.operand.ty.size)

    def e_SizeofType(self, e):
        return Imm(e.type_name.ty.size)

    def e_Construct(self, e: A.Construct):
        raise _Unsupported(f"a '{e.ty}' value is only supported in a declaration or a launch", e.loc)

    def construct_in_frame(self, e: A.Construct) -> Mem:
        t = T.unqual(e.ty)
        off = self.frame_slot(t)
        if len(e.args) == 1 and isinstance(T.unqual(e.args[0].ty), T.Struct):
            self.copy_struct(Mem(Sym("frame", off)), self.address(e.args[0]), t, "STL")
            return Mem(Sym("frame", off))
        values = [self.rvalue(a) for a in e.args] + [Imm(1)] * (3 - len(e.args))
        for i, v in enumerate(values[:3]):
            self.store(Mem(Sym("frame", off + 4 * i)), v, T.UINT, "STL")
        return Mem(Sym("frame", off))

    def copy_struct(self, dst: Mem, src: Mem, t: T.Type, store_op: str) -> None:
        load_op = "LDL" if isinstance(src.base, Sym) and src.base.name == "frame" else "LDG"
        for off in range(0, t.size, 4):
            r = self.reg("r")
            self.emit(load_op, (), (r,), (Mem(src.base, src.offset + off),))
            self.emit(store_op, (), (), (Mem(dst.base, dst.offset + off), r))

    # ---- calls -----------------------------------------------------------------------------
    def e_Call(self, e: A.Call, discard: bool = False):
        fn = e.decl
        name = fn.name
        if fn.is_builtin:
            return self.builtin(e, name, discard)
        args = [self.rvalue(a) for a in e.args]
        rets = () if T.is_void(fn.ty.ret) else (self.reg(fn.ty.ret),)
        self.at(e).emit("CALL", dsts=rets, srcs=(Sym(self.lowering.function_name(fn)),) + tuple(args))
        return rets[0] if rets else Imm(0)

    def builtin(self, e: A.Call, name: str, discard: bool):
        """A call of a function the bundled headers declare, as its row in the builtin table says."""
        row = builtins.lookup(name)
        if row is None or row.kind == builtins.UNSUPPORTED:
            raise InternalError("lower", f"the builtin '{name}' has no implementation (sema reports unsupported calls)")
        t = T.unqual(e.ty)
        r = self.reg(t) if not T.is_void(t) else None
        if row.kind == builtins.RUNTIME:     # printf, cudaMalloc, strtol, ...: a call into the runtime
            vals = [self.rvalue(a) for a in e.args]
            self.at(e).emit("CALL", ("RT",), (r,) if r is not None else (), (Sym(name),) + tuple(vals))
            return r if r is not None else Imm(0)
        vals = [self.rvalue(a) for a in self.builtin_arguments(row, e)]
        if row.shape == "atomic":
            vals[0] = Mem(self.as_reg(vals[0], 64))
        self.at(e)
        getattr(self, "builtin_" + row.shape)(row, e, r, vals)
        return r if r is not None else Imm(0)

    def builtin_arguments(self, row, e: A.Call) -> list:
        """The arguments to evaluate: isnan & co. test a float that was widened to their
        double parameter as the float itself (the answer is the same; nvcc's code does)."""
        if row.shape == "constant":     # __builtin_nanf("") reads no argument
            return []
        if row.shape in ("is_nan", "compare_magnitude", "sign_bit"):
            return [_unwidened(a) for a in e.args]
        return e.args

    # one handler per shape of the builtin table (minicuda.builtins.SHAPES); args are already evaluated
    def builtin_plain(self, row, e: A.Call, r, vals: list) -> None:
        fixed = () if row.operand is None else (Special(row.operand) if isinstance(row.operand, str) else Imm(row.operand),)
        self.emit(row.op, row.mods, (r,) if r is not None else (), tuple(vals) + fixed)

    def builtin_constant(self, row, e: A.Call, r, vals: list) -> None:
        self.emit(row.op, (), (r,), (Imm(row.operand),))

    def builtin_minmax(self, row, e: A.Call, r, vals: list) -> None:
        t = T.unqual(e.ty)
        if T.is_float(t):
            self.emit("DMNMX" if t == T.DOUBLE else "FMNMX", row.mods, (r,), tuple(vals))
        else:
            self.emit("IMNMX", row.mods + (type_mod(t),), (r,), tuple(vals))

    def builtin_atomic(self, row, e: A.Call, r, vals: list) -> None:
        elem = T.unqual(T.unqual(e.args[0].ty).base)
        tmod = "F32" if elem == T.FLOAT else "F64" if elem == T.DOUBLE else type_mod(elem)
        self.emit("ATOM", row.mods + (tmod,), (r,), tuple(vals))

    def builtin_shuffle(self, row, e: A.Call, r, vals: list) -> None:
        mask, var, lane, width = vals
        self.emit("SHFL", row.mods + (("64",) if is_wide(e.ty) else ()), (r,), (var, lane, width, mask))

    def builtin_vote(self, row, e: A.Call, r, vals: list) -> None:
        mask, pred = vals
        self.emit("VOTE", row.mods, (r,), (pred, mask))

    def builtin_fdim(self, row, e: A.Call, r, vals: list) -> None:
        x, y = vals
        p, d = self.pred(), self.reg(e.ty)
        prefix = "D" if T.unqual(e.ty) == T.DOUBLE else "F"
        self.emit(prefix + "SETP", ("LE",), (p,), (x, y))
        self.emit(prefix + "SUB", (), (d,), (x, y))
        self.emit("SEL", (), (r,), (Imm(0.0), d, p))

    def builtin_saturate(self, row, e: A.Call, r, vals: list) -> None:
        low = self.reg(T.FLOAT)
        self.emit("FMNMX", ("MAX",), (low,), (vals[0], Imm(0.0)))
        self.emit("FMNMX", ("MIN",), (r,), (low, Imm(1.0)))

    def builtin_leading_zeros(self, row, e: A.Call, r, vals: list) -> None:
        top = self.reg("r")
        self.emit("FLO", row.mods, (top,), tuple(vals))
        self.emit("ISUB", (), (r,), (Imm(63 if "U64" in row.mods else 31), top))

    def builtin_first_set(self, row, e: A.Call, r, vals: list) -> None:
        reversed_, shift = self.reg("rd" if "U64" in row.mods else "r"), self.reg("r")
        self.emit("BREV", row.mods, (reversed_,), tuple(vals))
        self.emit("FLO", row.mods + ("SH",), (shift,), (reversed_,))
        self.emit("IADD", (), (r,), (shift, Imm(1)))

    def builtin_mul24(self, row, e: A.Call, r, vals: list) -> None:
        low24 = []
        for v in vals:
            shifted, extended = self.reg("r"), self.reg("r")
            self.emit("SHL", (), (shifted,), (v, Imm(8)))
            self.emit("SHR", ("S32",), (extended,), (shifted, Imm(8)))
            low24.append(extended)
        self.emit(row.op, row.mods, (r,), tuple(low24))

    def _float_prefix(self, e: A.Call) -> tuple[str, tuple]:
        """F and () for a float argument, D and (F64,) for a double."""
        return ("D", ("F64",)) if _is_double_argument(e) else ("F", ())

    def builtin_is_nan(self, row, e: A.Call, r, vals: list) -> None:
        prefix, _ = self._float_prefix(e)
        p = self.pred()
        self.emit(prefix + row.op[1:], row.mods, (p,), (vals[0], vals[0]))
        self.emit("P2R", (), (r,), (p,))

    def builtin_compare_magnitude(self, row, e: A.Call, r, vals: list) -> None:
        prefix, width = self._float_prefix(e)
        magnitude, p = self.reg(T.DOUBLE if _is_double_argument(e) else T.FLOAT), self.pred()
        self.emit("MUFU", ("FABS",) + width, (magnitude,), (vals[0],))
        self.emit(prefix + row.op[1:], row.mods, (p,), (magnitude, Imm(math.inf)))
        self.emit("P2R", (), (r,), (p,))

    def builtin_sign_bit(self, row, e: A.Call, r, vals: list) -> None:
        if not _is_double_argument(e):
            self.emit(row.op, row.mods, (r,), (vals[0], Imm(31)))
            return
        top = self.reg("rd")
        self.emit(row.op, ("U64",), (top,), (vals[0], Imm(63)))
        self.emit("I2I", ("U32", "U64"), (r,), (top,))

    def e_Launch(self, e: A.Launch):
        grid, block = (self.address(c) for c in e.config[:2])
        dims = []
        for mem in (grid, block):
            for i in range(3):
                r = self.reg("r")
                self.emit("LDL", (), (r,), (Mem(mem.base, mem.offset + 4 * i),))
                dims.append(r)
        smem = self.rvalue(e.config[2]) if len(e.config) > 2 else Imm(0)
        stream = self.rvalue(e.config[3]) if len(e.config) > 3 else Imm(0)
        args = [self.rvalue(a) for a in e.args]
        self.at(e).emit("LAUNCH", (), (), (Sym(self.lowering.function_name(e.decl)),) + tuple(dims) + (smem, stream) + tuple(args))
        return Imm(0)

    def e_TemplateId(self, e):
        raise _Unsupported("a function name is not a value here", e.loc)


# ---- module level ----------------------------------------------------------------------
class ModuleLowering:
    def __init__(self, tu: A.TranslationUnit, arch: str):
        self.tu = tu
        self.module = Module(arch=arch)
        self.strings: dict[bytes, str] = {}

    def function_name(self, fn: A.FunctionDef) -> str:
        base = getattr(fn, "instance_name", fn.name).replace(" ", "")
        overloads = [f for f in self.tu.functions if f.name == fn.name and getattr(f, "instance_name", None) is None]
        if len(overloads) > 1 and not hasattr(fn, "instance_name"):
            base += "(" + ",".join(str(p).replace(" ", "") for p in fn.ty.params) + ")"
        return base

    def string(self, data: bytes) -> str:
        if data not in self.strings:
            name = f"str{len(self.strings)}"
            self.strings[data] = name
            self.module.globals[name] = Global(name, "string", len(data) + 1, 1, data + b"\0")
        return self.strings[data]

    def global_symbol(self, v: A.VarDecl) -> str:
        if v.name not in self.module.globals:
            init = _static_bytes(v.init, v.ty) if v.init is not None else None
            space = {"global": "global", "constant": "constant", "shared": "shared", "host": "host"}.get(v.space, "host")
            self.module.globals[v.name] = Global(v.name, space, max(v.ty.size, 1), max(v.ty.align, 1), init)
        return v.name

    def shared_symbol(self, fn: Function, v: A.VarDecl) -> str:
        if "extern" in v.specs.storage:
            fn.dynamic_shared = True
            name = "dynamic_smem"
            self.module.globals.setdefault(name, Global(name, "shared", 0, 16))
            return name
        name = f"{fn.name}::{v.name}"
        n = 1
        while name in self.module.globals:
            n += 1
            name = f"{fn.name}::{v.name}.{n}"
        align = max(v.ty.align, 1)
        fn.shared_bytes = (fn.shared_bytes + align - 1) // align * align + v.ty.size
        self.module.globals[name] = Global(name, "shared", v.ty.size, align)
        return name

    def lower(self) -> Module:
        errors = []
        for v in getattr(self.tu, "global_vars", []):
            if v.ty is not None and "extern" not in v.specs.storage:
                try:
                    self.global_symbol(v)
                except _Unsupported as u:
                    errors.append(Diagnostic("error", u.message, u.loc))
        for f in self.tu.functions:
            try:
                fn = FunctionLowering(f, self.module, self).lower()
                self.module.functions[fn.name] = fn
            except _Unsupported as u:
                errors.append(Diagnostic("error", u.message, u.loc))
        if errors:
            raise CompileError(errors)
        return self.module


def lower(tu: A.TranslationUnit, arch: str = "sm_70") -> Module:
    return ModuleLowering(tu, arch).lower()


# ---- helpers ----------------------------------------------------------------------------
def _strip(e: A.Expr) -> A.Expr:
    while isinstance(e, A.Cast) and e.implicit and T.unqual(e.ty) == T.BOOL and T.unqual(e.operand.ty) == T.BOOL:
        e = e.operand
    return e


def _strip_decay(e: A.Expr) -> A.Expr:
    while isinstance(e, A.Cast) and e.implicit and isinstance(T.unqual(e.operand.ty), (T.Array, T.Function)):
        e = e.operand
    return e


def _switch_cases(body: A.Node):
    """Case and Default labels of one switch (not of switches nested in it)."""
    out = []
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, (A.Case, A.Default)):
            out.append(n)
        if isinstance(n, A.Switch):
            continue
        stack.extend(reversed(n.children()))
    return out


def _address_taken(body: A.Node) -> set[int]:
    taken = set()
    for n in A.walk(body) if body is not None else ():
        if isinstance(n, A.Unary) and n.op == "&":
            inner = _strip_decay(n.operand)
            while isinstance(inner, A.Member) and not inner.arrow:
                inner = inner.base
            if isinstance(inner, A.Name) and inner.decl is not None:
                taken.add(id(inner.decl))
    return taken


def _same_bits(src: T.Type, dst: T.Type) -> bool:
    """Integers held in 32-bit registers are kept extended, so widening to 32 bits,
    or reinterpreting at the same width, changes no bits."""
    if T.is_float(src) or T.is_float(dst):
        return False
    if dst.size == src.size == 8:
        return True
    if dst.size == 4:
        return src.size <= 4
    if dst.size < 4:
        return src.size <= dst.size and src.signed == dst.signed and src != T.BOOL or dst == src
    return False


def _fname(t: T.Type) -> str:
    return "F64" if T.unqual(t) == T.DOUBLE else "F32"


def _iname(t: T.Type) -> str:
    t = T.unqual(t)
    if t == T.BOOL:
        return "U8"
    return ("S" if t.signed else "U") + str(t.size * 8)


def _fold_convert(value, src: T.Type, dst: T.Type):
    """The immediate that converting immediate `value` from src to dst gives: the register's
    bits (an integer narrower than 32 bits sign- or zero-extended to 32).  None leaves the
    conversion to run time: float to integer (an F2I the optimiser may fold), a float
    result out of float range."""
    if T.is_float(src) and T.is_float(dst) and isinstance(value, (int, float)):
        value = float(value)
    elif T.is_integer(src) and isinstance(value, int):
        value = consteval.wrap(value, src)
    else:
        return None
    result = consteval.convert(value, src, dst)
    if T.is_float(dst):
        return result if dst == T.DOUBLE or abs(value) < 3.4e38 else None
    return result & ((1 << (64 if dst.size == 8 else 32)) - 1)


def _static_bytes(init, ty: T.Type) -> bytes:
    """The initial bytes of a global from its constant initializer."""
    t = T.unqual(ty)
    if isinstance(init, A.InitList):
        if isinstance(t, T.Array):
            data = b"".join(_static_bytes(i, t.elem) for i in init.items)
            return data + b"\0" * (t.size - len(data))
        out = bytearray(t.size)
        for (name, (fty, off)), item in zip(t.info.fields.items(), init.items):
            chunk = _static_bytes(item, fty)
            out[off:off + len(chunk)] = chunk
        return bytes(out)
    if isinstance(init, A.StringLit):
        return (init.value + b"\0" * t.size)[: t.size]
    try:
        value = consteval.evaluate(init)
    except consteval.NotConstant:
        raise _Unsupported("a global's initializer must be a constant expression", init.loc) from None
    if T.is_float(t):
        return struct.pack("<d" if t == T.DOUBLE else "<f", float(value))
    if isinstance(t, T.Pointer):
        if value != 0:
            raise _Unsupported("a global pointer may only be initialized with 0", init.loc)
        return b"\0" * 8
    return (int(value) & ((1 << (8 * t.size)) - 1)).to_bytes(t.size, "little")

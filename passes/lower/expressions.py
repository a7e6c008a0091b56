"""Expressions: `rvalue` gives the value of an expression as an operand, a register
or an immediate, through the `e_<Node>` method of its node.

Integers narrower than 32 bits are kept extended in 32-bit registers, so many
integer conversions change no bits and emit nothing, and converting an immediate
folds by C's rules (grammar.consteval).  Pointer arithmetic scales by the element
size (IMAD).  A compound assignment computes in the type sema recorded and converts
back.  A call of a user function is a CALL, a builtin's goes to builtins.py; a
kernel launch is a LAUNCH with the grid and block read from their dim3 slots.

However deep an expression is, its lowering recurses at most `nesting.SPAN` operators
deep: along the chain of operands each node evaluates first (`first_operand`), the
nodes SPAN, 2*SPAN, ... levels down are lowered first, deepest first, and their
values kept for the node above (`early_values`); the instructions come out in the
same order as without.  A chain of conditional operators in the else arms is
lowered in a loop.
"""
from __future__ import annotations

import struct

from minicuda.grammar import ast as A
from minicuda.grammar import consteval
from minicuda.grammar import types as T
from minicuda.grammar.nesting import deep_first
from minicuda.ir import Imm, Mem, Reg, Special, Sym
from minicuda.passes.lower.conditions import COMPARISONS
from minicuda.passes.lower.emitter import SPECIAL_REGISTERS, Unsupported, strip_bool_casts, strip_decay, type_mod




class ExpressionLowering:
    """Expressions: `rvalue` dispatches on the node's type to `e_<Node>`."""

    def effect(self, e: A.Expr) -> None:
        self.rvalue(e, discard=True)

    def rvalue(self, e: A.Expr, discard: bool = False):
        """The value of e as an operand (register or immediate)."""
        self.at(e)
        early = self.early_values.get(id(e))
        if early is not None and early[0] is e:
            del self.early_values[id(e)]
            self.loc = early[2]
            return early[1]
        if self.walked.get(id(e)) is not e:
            self.lower_deep_operands(e, discard)
        method = getattr(self, "e_" + type(e).__name__)
        return method(e) if not discard or type(e).__name__ not in ("Assign", "IncDec", "Call") else method(e, discard=True)

    def lower_deep_operands(self, e: A.Expr, discard: bool) -> None:
        """Lower the operands SPAN, 2*SPAN, ... levels down e's chain of first operands."""
        early, reached = deep_first((e, discard), self._unwalked_first_operand)
        self.walked.update((id(n), n) for n, _ in reached)
        for node, as_effect in early:
            value = self.rvalue(node, discard=as_effect)
            self.early_values[id(node)] = (node, value, self.loc)

    def _unwalked_first_operand(self, item) -> list:
        first = first_operand(item[0])
        return [first] if first is not None and self.walked.get(id(first[0])) is not first[0] else []

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
            raise Unsupported(f"'{decl.name}' used as a whole value; use its .x/.y/.z", e.loc)
        folded = folded_constant(decl)
        if folded is not None:
            return Imm(folded)
        kind = self.storage(decl)
        t = T.unqual(e.ty)
        if kind[0] == "reg":
            return kind[1]
        if isinstance(t, (T.Array, T.Function)):
            return self.address_value(e)
        if isinstance(t, T.Struct):
            raise Unsupported(f"a struct value ('{t}') here is not supported", e.loc)
        return self.load(self.address(e), t, self.space_op(decl, load=True))

    def e_Index(self, e: A.Index):
        if isinstance(T.unqual(e.ty), T.Array):
            return self.address_value(e)
        return self.read(e)

    def e_Member(self, e: A.Member):
        base = strip_bool_casts(e.base)
        if not e.arrow and isinstance(base, A.Name) and getattr(base.decl, "space", "") == "builtin":
            r = self.reg("r")
            self.emit("S2R", dsts=(r,), srcs=(Special(f"{SPECIAL_REGISTERS[base.name]}.{e.name.upper()}"),))
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

    def e_Binary(self, e: A.Binary):
        if e.op in COMPARISONS or e.op in ("&&", "||"):
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
            if op == "/" and t == T.FLOAT and self.fast_math:
                self._fast_divide(r, a, b)      # -use_fast_math: __fdividef (builtins.py)
                return r
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
            if self.flushes_denormals and T.unqual(src) == T.FLOAT:
                flushed = self.reg(T.FLOAT)   # -ftz=true: nvcc flushes the source with FMUL.FTZ x, 1
                self.emit("FMUL", (), (flushed,), (v, Imm(1.0)))
                v = flushed
            self.emit("F2F", (_fname(dst), _fname(src)), (r,), (v,))
        elif T.is_float(dst):
            self.emit("I2F", (_fname(dst), _iname(src)), (r,), (v,))
        elif T.is_float(src):
            self.emit("F2I", (_iname(dst), _fname(src)), (r,), (v,))
        else:
            self.emit("I2I", (_iname(dst), _iname(src)), (r,), (v,))
        return r

    def e_Assign(self, e: A.Assign, discard: bool = False):
        target = strip_decay(e.target)
        t = T.unqual(target.ty)
        if isinstance(t, T.Struct):
            self.assign_struct(e)
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

    def assign_struct(self, e: A.Assign) -> Mem:
        """A struct assigned (or built in place, as a member initialiser); the target's address."""
        target = strip_decay(e.target)
        dst = self.address(target)
        if getattr(e, "constructs", False) and getattr(e.value, "ctor", None) is not None:
            return self.construct_at(e.value, dst)   # a member initialiser: no temporary
        self.copy_struct(dst, self.address(e.value), T.unqual(target.ty), self.access_op(target, load=False), e.value)
        return dst

    def e_IncDec(self, e: A.IncDec, discard: bool = False):
        target = strip_decay(e.operand)
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
        """`c1 ? a : c2 ? b : ... : z`, however long, into one result register.  At -O0 a
        nested conditional is an arm of its own, with its own join, whose result moves into
        the outer one's before a BRA to the outer join: clang -O0's `cond.end` per operator,
        so nvcc -G's BSYNC B2 / BRA / BSYNC B1 / BRA / BSYNC B0 (docs/fidelity.md)."""
        t = T.unqual(e.ty)
        r = self.reg(t) if not T.is_void(t) else None
        then_l, else_l, end_l = self.label(), self.label(), self.label()
        outer: list[tuple] = []   # -O0: the enclosing conditionals' (result, join, nested operand)
        while True:
            self.branch(e.cond, then_l, else_l, then_l)
            self.start(then_l)
            self._arm(e.then, r, end_l)
            self.start(else_l)
            if not (isinstance(e.else_, A.Conditional) and T.unqual(e.else_.ty) == t):
                break
            if self.lowering.g_shape:   # its own result and join, iteratively: a chain of any length
                outer.append((r, end_l, e.else_))
                r = self.reg(t) if r is not None else None
                end_l = self.label()
            e = e.else_
            self.at(e)
            then_l, else_l = self.label(), self.label()
        self._arm(e.else_, r, end_l)
        self.start(end_l)
        for outer_r, outer_end, nested in reversed(outer):   # each join moves its result out, then BRA
            if outer_r is not None:
                self.at(nested).emit("MOV", dsts=(outer_r,), srcs=(r,))
            self.jump(outer_end)
            self.start(outer_end)
            r = outer_r
        return r if r is not None else Imm(0)

    def _arm(self, arm: A.Expr, r: Reg | None, end_l: str) -> None:
        v = self.without_temporaries(lambda: self.rvalue(arm))
        if r is not None:
            self.at(arm).emit("MOV", dsts=(r,), srcs=(v,))
        self.jump(end_l)

    def e_Comma(self, e: A.Comma):
        self.effect(e.lhs)
        return self.rvalue(e.rhs)

    def e_SizeofExpr(self, e):
        return Imm(e.operand.ty.size)

    def e_SizeofType(self, e):
        t = T.unqual(e.type_name.ty)
        t = t.base if isinstance(t, T.Reference) else t
        return Imm(t.align if e.align else t.size)

    def e_New(self, e: A.New):
        """malloc's bytes, then `init`: a value stored there, or a void expression run (a
        memset, a constructor), in which `e.alloc` is the same pointer, not a second malloc."""
        if e.count is not None:
            return self.new_objects(e)   # objects.py
        p = self.rvalue(e.alloc)
        if e.init is not None and T.is_void(e.init.ty):
            self.early_values[id(e.alloc)] = (e.alloc, p, self.loc)
            self.effect(e.init)
        elif e.init is not None and isinstance(T.unqual(e.init.ty), T.Struct):
            self.at(e).struct_into(e.init, Mem(self.as_reg(p, 64)))   # objects.py: `new P(p)`
        elif e.init is not None:
            value = self.rvalue(e.init)
            self.at(e).store(Mem(self.as_reg(p, 64)), value, e.ty.base)
        return p

    def e_Delete(self, e: A.Delete):
        if e.array and e.destroy is not None:
            return self.delete_objects(e)   # objects.py
        if e.destroy is not None:
            self.effect(e.destroy)
        self.effect(e.free)
        return Imm(0)

    def e_Materialize(self, e: A.Materialize):
        """A temporary in the frame holding the value; its address is the value. A class
        temporary (`f(Vec3(1, 2, 3))` to a `const Vec3 &`) is built in its own frame slot."""
        t = T.unqual(e.operand.ty)
        if isinstance(t, T.Struct):
            return self.mem_address(self.address(e.operand))
        value = self.rvalue(e.operand)
        off = self.frame_slot(t)
        self.at(e).store(Mem(Sym("frame", off)), value, t, "STL")
        r = self.reg("rd")
        self.emit("MOV", dsts=(r,), srcs=(Sym("frame", off),))
        return r

    def e_Construct(self, e: A.Construct):
        raise Unsupported(f"a '{e.ty}' value is only supported in a declaration or a launch", e.loc)

    def e_Call(self, e: A.Call, discard: bool = False):
        fn = e.decl
        name = fn.name
        if fn.is_builtin:
            return self.builtin(e, name, discard)
        if isinstance(T.unqual(fn.ty.ret), T.Struct):
            self.call_into(e, None)
            return Imm(0)
        args = self.arguments(e.args)
        rets = () if T.is_void(fn.ty.ret) else (self.reg(fn.ty.ret),)
        self.at(e).emit("CALL", dsts=rets, srcs=(Sym(self.lowering.function_name(fn)),) + tuple(args))
        return rets[0] if rets else Imm(0)

    def e_IndirectCall(self, e: A.IndirectCall):
        """A call through a function pointer: CALL with the pointer as its callee, `CALL [R4]`."""
        target = self.as_reg(self.rvalue(e.func), 64)
        args = self.arguments(e.args)
        rets = () if T.is_void(e.ty) else (self.reg(e.ty),)
        self.at(e).emit("CALL", dsts=rets, srcs=(Mem(target),) + tuple(args))
        return rets[0] if rets else Imm(0)

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
        args = self.arguments(e.args)
        self.at(e).emit("LAUNCH", (), (), (Sym(self.lowering.function_name(e.decl)),) + tuple(dims) + (smem, stream) + tuple(args))
        return Imm(0)

    def e_TemplateId(self, e):
        raise Unsupported("a function name is not a value here", e.loc)


def first_operand(e: A.Expr) -> tuple[A.Expr, bool] | None:
    """The operand e's lowering evaluates before it emits anything, and whether as an
    effect (None when it first computes an address, a branch or a predicate)."""
    if isinstance(e, A.Binary) and e.op not in ("&&", "||"):
        lt = T.unqual(e.lhs.ty)
        if e.op not in COMPARISONS and (isinstance(T.unqual(e.ty), T.Pointer) or (e.op == "-" and isinstance(lt, T.Pointer))):
            return (e.lhs if isinstance(lt, T.Pointer) else e.rhs), False
        return e.lhs, False
    if isinstance(e, A.Comma):
        return e.lhs, True
    if isinstance(e, A.Cast):
        src, dst = T.unqual(e.operand.ty), T.unqual(e.ty)
        if isinstance(src, (T.Array, T.Function)) or (dst == T.BOOL and src != T.BOOL):
            return None
        return e.operand, T.is_void(dst)
    if isinstance(e, A.Unary) and e.op in ("-", "~", "+", "*"):
        return e.operand, False
    if isinstance(e, A.Assign) and e.op == "=" and not isinstance(T.unqual(strip_decay(e.target).ty), T.Struct):
        return e.value, False
    if isinstance(e, A.Index) or (isinstance(e, A.Member) and e.arrow):
        return e.base, False
    return None


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


def folded_constant(decl) -> int | float | None:
    """The value of a namespace-scope `const` scalar with a constant initialiser
    (`const int N = 1024;`, `const float EPS = 0.01f;`): nvcc folds it into device code,
    where the host variable itself cannot be read; None for any other name."""
    if not (isinstance(decl, A.VarDecl) and getattr(decl, "is_global_scope", False) and decl.space == "host"):
        return None
    t = decl.ty
    if t is None or not t.const or t.volatile or not T.is_arithmetic(T.unqual(t)) or decl.init is None \
            or isinstance(decl.init, A.InitList):
        return None
    return consteval.evaluate_or_none(decl.init)

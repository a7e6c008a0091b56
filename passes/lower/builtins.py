"""Calls of the functions the bundled headers declare, as minicuda/builtins.py's table
says.

A runtime row becomes a `CALL.RT` into the VM's runtime (printf, cudaMalloc,
strtol, ...).  An intrinsic row names its opcode, modifiers and shape, and
`builtin_<shape>` emits that shape's instructions once the arguments are
evaluated (a test holds every shape of the table to a handler here).  isnan and
its kin test a float widened to their double parameter as the float itself, as
nvcc's code does.  Sema reports calls of unsupported rows, so none gets here.
"""
from __future__ import annotations

import math

from minicuda import builtins
from minicuda.diagnostics import InternalError
from minicuda.grammar import ast as A
from minicuda.grammar import types as T
from minicuda.ir import Block, Function, Imm, Instr, Mem, Param, Reg, Special, Sym
from minicuda.passes.lower.emitter import is_wide, mem_width, type_mod
from minicuda.passes.lower.objects import copy_pieces, is_struct, piece_register, width_mods

FULL_MASK = 0xFFFFFFFF   # the legacy warp intrinsics: every lane of the warp
SMALLEST_NORMAL = 2.0 ** -126                   # the fast intrinsics' subnormal guards
TURNS_PER_RADIAN = 0.15915493667125701904       # 1 / (2 pi) as a float: __sinf's FMUL.RZ operand


class BuiltinLowering:
    """Builtin calls: `builtin` evaluates the arguments and hands them to `builtin_<shape>`."""

    @property
    def fast_math(self) -> bool:
        """-use_fast_math applies here: device code (a kernel or __device__ function; host
        code keeps IEEE math, as nvcc's does)."""
        return self.lowering.fast_math and self.fn.kind != "host"

    def builtin(self, e: A.Call, name: str, discard: bool):
        """A call of a function the bundled headers declare, as its row in the builtin table
        says; under -use_fast_math device code calls sinf & co. as their fast intrinsics."""
        if self.fast_math:
            name = builtins.fast_math_name(name, T.unqual(e.ty) == T.FLOAT) or name
        row = builtins.lookup(name)
        if row is None or row.kind == builtins.UNSUPPORTED:
            raise InternalError("lower", f"the builtin '{name}' has no implementation (sema reports unsupported calls)")
        if row.shape == "make_vector" or (row.shape == "read_only" and is_struct(e.ty)):
            # a struct value, built in a frame slot (objects.py's call_into)
            self.call_into(e, None)
            return Imm(0)
        t = T.unqual(e.ty)
        r = self.reg(t) if not T.is_void(t) else None
        if row.kind in (builtins.RUNTIME, builtins.MISSING):   # printf, cudaMalloc, ...: a call into the runtime
            vals = [Imm(0) if row.kind == builtins.MISSING and _names_function(a) else self.rvalue(a) for a in e.args]
            self.at(e).emit("CALL", ("RT",), (r,) if r is not None else (), (Sym(name),) + tuple(vals))
            return r if r is not None else Imm(0)
        vals = [self.rvalue(a) for a in self.builtin_arguments(row, e)]
        if row.shape == "atomic":
            vals[0] = Mem(self.as_reg(vals[0], 64))
        self.at(e)
        called = self.called_at_g(name, e)
        if called is not None:
            return self.header_call(row, name, e, r, vals, called)
        getattr(self, "builtin_" + row.shape)(row, e, r, vals)
        return r if r is not None else Imm(0)

    def called_at_g(self, name: str, e: A.Call) -> builtins.OutOfLine | None:
        """How nvcc -G calls this header function from device code (builtins.G_OUT_OF_LINE);
        None at -O1 and above, in host code, and where it is inline."""
        if not self.lowering.g_shape or self.fn.kind == "host":
            return None
        t = T.unqual(e.ty)
        if name.removeprefix(builtins.STD) in builtins.ATOMICS:   # by the pointed-to type
            t = T.unqual(T.unqual(e.args[0].ty).base)
        return builtins.out_of_line_at_g(name, str(t))

    def header_call(self, row, name: str, e: A.Call, r, vals: list, called: builtins.OutOfLine):
        """nvcc -G's call of a header function: CALL of a device function of the module whose
        body is the builtin's shape (made on the first call of each overload), through a
        wrapper that calls it where nvcc's header function calls another (docs/fidelity.md,
        "minicuda's -G shape").  The function's registers are its own: each argument a fresh
        parameter register, the result `r`'s."""
        params = [self.reg("rd" if isinstance(v, Mem) or (isinstance(v, Reg) and v.is_wide) or
                           (isinstance(v, Imm) and is_wide(a.ty)) else "r") for v, a in zip(vals, e.args)]
        body_vals = [Mem(p) if isinstance(v, Mem) else p for v, p in zip(vals, params)]
        caller, body = self.block, Block(".L_entry")
        self.block, blocks = body, len(self.fn.blocks)
        getattr(self, "builtin_" + row.shape)(row, e, r, body_vals)
        if self.block is not body or len(self.fn.blocks) != blocks:
            raise InternalError("lower", f"the shape '{row.shape}' of '{name}' is not one block: it cannot be "
                                         "called out of line at -G (minicuda/builtins.py's G_OUT_OF_LINE)")
        self.block = caller
        typed = f"{name.removeprefix(builtins.STD)}({','.join(str(T.unqual(a.ty)).replace(' ', '') for a in e.args)})"
        rets = [r] if r is not None else []
        leaf = typed if called.shape == builtins.LEAF else called.inner + typed[typed.index("("):]
        kinds = ["pointer" if isinstance(v, Mem) else "value" for v in vals]
        self.header_function(leaf, params, kinds, rets, body.instrs + [Instr("RET", loc=self.loc)])
        if called.shape == builtins.WRAPPER:
            outer = [self.reg("rd" if p.is_wide else "r") for p in params]
            result = [self.reg("rd" if r.is_wide else "r")] if r is not None else []
            self.header_function(typed, outer, kinds, result, [Instr("CALL", (), tuple(result), (Sym(leaf),) + tuple(outer),
                                                              loc=self.loc), Instr("RET", loc=self.loc)])
        args = tuple(v.base if isinstance(v, Mem) else v for v in vals)
        self.emit("CALL", (), tuple(rets), (Sym(typed),) + args)
        return r if r is not None else Imm(0)

    def header_function(self, name: str, params: list, kinds: list, rets: list, instrs: list) -> None:
        """The device function `name` of a header, once per module."""
        functions = self.module.functions
        if name in functions:
            return
        fn = Function(name, "device", params=[Param(p, f"arg{k}", 8 if p.is_wide else 4, kind)
                                              for k, (p, kind) in enumerate(zip(params, kinds))],
                      blocks=[Block(".L_entry", instrs)], rets=rets, inline="never", loc=self.loc)
        functions[name] = fn

    def builtin_arguments(self, row, e: A.Call) -> list:
        """The arguments to evaluate: isnan & co. test a float that was widened to their
        double parameter as the float itself (the answer is the same; nvcc's code does)."""
        if row.shape == "constant":     # __builtin_nanf("") reads no argument
            return []
        if row.shape in ("is_nan", "compare_magnitude", "sign_bit"):
            return [_unwidened(a) for a in e.args]
        return e.args

    def builtin_make_vector(self, row, e: A.Call, dst: Mem, vals: list) -> None:
        """make_int2(x, y) & co.: each argument (converted to its member's type by sema)
        stored to its member of the struct at `dst`."""
        fields = T.unqual(e.ty).info.fields.values()
        for (fty, off), value in zip(fields, vals):
            self.store(Mem(dst.base, dst.offset + off), value, fty, "STL" if _in_frame(dst) else "STG")

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

    def builtin_fused(self, row, e: A.Call, r, vals: list) -> None:
        self.emit("DFMA" if T.unqual(e.ty) == T.DOUBLE else "FFMA", row.mods, (r,), tuple(vals))

    def builtin_math(self, row, e: A.Call, r, vals: list) -> None:
        wide = ("F64",) if T.unqual(e.ty) == T.DOUBLE else ()
        self.emit(row.op, tuple(m for m in row.mods if m != "F64") + wide, (r,), tuple(vals))

    def builtin_absolute(self, row, e: A.Call, r, vals: list) -> None:
        t = T.unqual(e.ty)
        if T.is_float(t):
            self.emit("MUFU", ("FABS",) + (("F64",) if t == T.DOUBLE else ()), (r,), tuple(vals))
        else:
            self.emit(row.op, ("S64",) if t.size == 8 else ("S32",), (r,), tuple(vals))

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

    def builtin_match(self, row, e: A.Call, r, vals: list) -> None:
        """__match_any_sync(mask, value), __match_all_sync(mask, value, &pred)."""
        mask, value = vals[:2]
        wide = is_wide(e.decl.params[1].ty) if e.decl.params else is_wide(e.args[1].ty)
        self.emit("MATCH", row.mods + (("64",) if wide else ()), (r,), (value, mask))
        if len(vals) == 3:   # *pred: whether all of mask hold the same value
            same, flag = self.pred(), self.reg(T.INT)
            self.emit("ISETP", ("NE", "U32"), (same,), (r, Imm(0)))
            self.emit("SEL", (), (flag,), (Imm(1), Imm(0), same))
            self.store(Mem(self.as_reg(vals[2], 64)), flag, T.INT)

    def builtin_legacy_shuffle(self, row, e: A.Call, r, vals: list) -> None:
        var, lane, width = vals
        self.emit("SHFL", row.mods + (("64",) if is_wide(e.ty) else ()), (r,), (var, lane, width, Imm(FULL_MASK)))

    def builtin_legacy_vote(self, row, e: A.Call, r, vals: list) -> None:
        self.emit("VOTE", row.mods, (r,), (vals[0], Imm(FULL_MASK)))

    def builtin_read_only(self, row, e: A.Call, r, vals: list) -> None:
        """__ldg(p): *p through the read-only data cache (LDG.width.CONSTANT: the width
        first, as every load has it)."""
        t = T.unqual(e.ty)
        self.emit("LDG", (mem_width(t), "CONSTANT"), (r,), (Mem(self.as_reg(vals[0], 64)),))

    def read_only_struct(self, e: A.Call, dst: Mem) -> None:
        """__ldg(p) of a vector type: each piece of *p through the read-only data cache,
        stored to the struct at `dst`."""
        pointer = self.as_reg(self.rvalue(e.args[0]), 64)
        for off, width in copy_pieces(T.unqual(e.ty)):
            r = self.reg(piece_register(width))
            self.emit("LDG", (width, "CONSTANT"), (r,), (Mem(pointer, off),))
            self.emit("STL" if _in_frame(dst) else "STG", width_mods(width), (), (Mem(dst.base, dst.offset + off), r))

    def builtin_funnel_shift(self, row, e: A.Call, r, vals: list) -> None:
        lo, hi, shift = vals
        self.emit(row.op, row.mods, (r,), (lo, shift, hi))

    # nvcc's fast intrinsics, instruction for instruction as ptxas builds them for sm_90
    # (tests/data/groundtruth/mufu_sm90.sass): MUFU.*.APPROX is the GPU's approximation,
    # flushing subnormals, so each is wrapped in the guard that keeps them in range.
    def _guard_subnormal(self, x, *scaled):
        """p = |x| >= 2^-126; @!p x (and each of `scaled`) *= 2^24.  Returns p."""
        magnitude, p = self.reg(T.FLOAT), self.pred()
        self.emit("MUFU", ("FABS",), (magnitude,), (x,))
        self.emit("FSETP", ("GE",), (p,), (magnitude, Imm(SMALLEST_NORMAL)))
        for v in (x,) + scaled:
            self.emit("FMUL", (), (v,), (v, Imm(2.0 ** 24)), guard=p, neg=True)
        return p

    def _fast_exp2(self, r, t) -> None:
        """r = 2^t: p = t >= -126; @!p t *= 0.5; EX2; @!p r *= r (a subnormal result)."""
        p = self.pred()
        self.emit("FSETP", ("GE",), (p,), (t, Imm(-126.0)))
        self.emit("FMUL", (), (t,), (t, Imm(0.5)), guard=p, neg=True)
        self.emit("MUFU", ("EX2", "APPROX"), (r,), (t,))
        self.emit("FMUL", (), (r,), (r, r), guard=p, neg=True)

    def _fast_log2(self, x):
        """log2 x in a new register: the subnormal guard, LG2, @!p minus 24."""
        x2, log2 = self.reg(T.FLOAT), self.reg(T.FLOAT)
        self.emit("MOV", (), (x2,), (x,))
        p = self._guard_subnormal(x2)
        self.emit("MUFU", ("LG2", "APPROX"), (log2,), (x2,))
        self.emit("FADD", (), (log2,), (log2, Imm(-24.0)), guard=p, neg=True)
        return log2

    def _fast_divide(self, r, x, y) -> None:
        """r = x / y as __fdividef: the subnormal guard on y (scaling x too), RCP, FMUL."""
        x2, y2, reciprocal = self.reg(T.FLOAT), self.reg(T.FLOAT), self.reg(T.FLOAT)
        self.emit("MOV", (), (x2,), (x,))
        self.emit("MOV", (), (y2,), (y,))
        self._guard_subnormal(y2, x2)
        self.emit("MUFU", ("RCP", "APPROX"), (reciprocal,), (y2,))
        self.emit("FMUL", (), (r,), (reciprocal, x2))

    def _turns(self, x):
        t = self.reg(T.FLOAT)
        self.emit("FMUL", ("RZ",), (t,), (x, Imm(TURNS_PER_RADIAN)))
        return t

    def builtin_fast_turns(self, row, e: A.Call, r, vals: list) -> None:
        self.emit("MUFU", row.mods + ("APPROX",), (r,), (self._turns(vals[0]),))

    def builtin_scaled_exp(self, row, e: A.Call, r, vals: list) -> None:
        scaled = self.reg(T.FLOAT)
        self.emit("FMUL", (), (scaled,), (vals[0], Imm(row.operand)))
        self._fast_exp2(r, scaled)

    def builtin_scaled_log(self, row, e: A.Call, r, vals: list) -> None:
        log2 = self._fast_log2(vals[0])
        if row.operand is None:
            self.emit("MOV", (), (r,), (log2,))
        else:
            self.emit("FMUL", (), (r,), (log2, Imm(row.operand)))

    def builtin_fast_power(self, row, e: A.Call, r, vals: list) -> None:
        x, y = vals
        product = self.reg(T.FLOAT)
        self.emit("FMUL", (), (product,), (self._fast_log2(x), y))
        self._fast_exp2(r, product)

    def builtin_fast_divide(self, row, e: A.Call, r, vals: list) -> None:
        self._fast_divide(r, *vals)

    def builtin_fast_rsqrt(self, row, e: A.Call, r, vals: list) -> None:
        x2 = self.reg(T.FLOAT)
        self.emit("MOV", (), (x2,), (vals[0],))
        p = self._guard_subnormal(x2)
        self.emit("MUFU", ("RSQ", "APPROX"), (r,), (x2,))
        self.emit("FMUL", (), (r,), (r, Imm(4096.0)), guard=p, neg=True)

    def builtin_fast_tangent(self, row, e: A.Call, r, vals: list) -> None:
        t = self._turns(vals[0])
        sine, cosine = self.reg(T.FLOAT), self.reg(T.FLOAT)
        self.emit("MUFU", ("COS", "APPROX"), (cosine,), (t,))
        self.emit("MUFU", ("SIN", "APPROX"), (sine,), (t,))
        self._fast_divide(r, sine, cosine)

    def builtin_sincos(self, row, e: A.Call, r, vals: list) -> None:
        x, sine_at, cosine_at = vals
        t = self._turns(x)
        sine, cosine = self.reg(T.FLOAT), self.reg(T.FLOAT)
        self.emit("MUFU", ("SIN", "APPROX"), (sine,), (t,))
        self.emit("MUFU", ("COS", "APPROX"), (cosine,), (t,))
        self.store(Mem(self.as_reg(sine_at, 64)), sine, T.FLOAT)
        self.store(Mem(self.as_reg(cosine_at, 64)), cosine, T.FLOAT)

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

    def builtin_byte_perm(self, row, e: A.Call, r, vals: list) -> None:
        x, y, selector = vals
        self.emit(row.op, row.mods, (r,), (x, selector, y))

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


def _unwidened(e: A.Expr) -> A.Expr:
    """e without an implicit float -> double conversion."""
    if isinstance(e, A.Cast) and e.implicit and T.unqual(e.operand.ty) == T.FLOAT and T.unqual(e.ty) == T.DOUBLE:
        return e.operand
    return e


def _is_double_argument(e: A.Call) -> bool:
    return T.unqual(_unwidened(e.args[0]).ty) == T.DOUBLE


def _names_function(e: A.Expr) -> bool:
    """A function's name as an argument (pthread_create's start routine): a call of a
    missing function never runs, so the pointer minicuda lacks is never needed."""
    while isinstance(e, A.Cast) and e.implicit:
        e = e.operand
    return isinstance(e, A.Name) and (isinstance(e.decl, A.FunctionDef) or hasattr(e.decl, "functions"))


def _in_frame(mem: Mem) -> bool:
    return isinstance(mem.base, Sym) and mem.base.name == "frame"

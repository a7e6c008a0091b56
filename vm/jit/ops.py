"""The JIT's lowering of every pure bytecode instruction to textual LLVM IR over lanes.

`emit_pure(e, ins, srcs)` emits, through the Emitter `e`, the computation of one pure
instruction (everything `minicuda.semantics.evaluate` covers) on lane vectors and
returns the SSA name of the result: `<W x i1>`, `<W x i32>` or `<W x i64>` as
`semantics.result_width(ins)` says, holding exactly the bits `evaluate` gives for
every input.  Sources arrive as lane vectors of raw bit patterns, as wide as
`semantics.source_widths(ins)` says.  Each family of pure ops that the ISA table
names (`isa.OpInfo.eval`) has one lowering here, in LOWERINGS, as it has one
evaluator in `semantics.EVALUATORS`.

The IR is defined for every input: divisors, shift amounts and float-to-int
conversions are guarded by selects, so no lane ever carries poison or undefined
behaviour.  No fast-math flag is used anywhere: LLVM keeps IEEE results (it does not
contract fmul + fadd without flags).  Nothing here opens a basic block: the lines go
into the caller's current block.

MUFU's transcendental functions call glibc's libm double functions lane by lane,
under private names (`@minicuda.libm.sin`, ...) so that LLVM does not recognise them
as library calls and rewrite them (it turns pow(2, x) into exp2(x), constant-folds
sin, ...).  `libm_symbols()` gives the address each name must be bound to
(`llvm.add_symbol`): the very functions semantics.py calls through ctypes.
"""
from __future__ import annotations

import ctypes
import math
import struct
from typing import Callable

import numpy as np

from minicuda import semantics as S
from minicuda.ir import Instr
from minicuda.isa import OPS
from minicuda.vm.jit.emit import Emitter

LIBM_PREFIX = "minicuda.libm."
BACKEND_LIBM = ("fma", "fmaf", "floor", "floorf", "ceil", "ceilf", "trunc", "truncf", "roundeven", "roundevenf")
_FT = {32: "float", 64: "double"}
_FSFX = {32: "f32", 64: "f64"}
_NAN = {32: 0x7FFFFFFF, 64: 0x7FFFFFFFFFFFFFFF}
_ICMP = {"EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge"}
_FCMP = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}

Lowering = Callable[[Emitter, list[str]], str]


# ---- the public interface ---------------------------------------------------------------
def supported(ins: Instr) -> bool:
    """True when emit_pure lowers `ins` (every instruction semantics.evaluate accepts)."""
    try:
        _plan(ins)
    except NotImplementedError:
        return False
    return True


def emit_pure(e: Emitter, ins: Instr, srcs: list[str]) -> str:
    """Emit `ins` over the lane vectors `srcs`; return the result's SSA name."""
    lower = _plan(ins)
    if len(srcs) != len(ins.srcs):
        raise NotImplementedError(f"{ins.opcode}: {len(srcs)} source values for {len(ins.srcs)} operands")
    return lower(e, list(srcs))


def libm_symbols() -> dict[str, int]:
    """Every libm function the lowering calls, by the name it is declared under
    (LIBM_PREFIX + the C name), with its address: bind each with
    llvmlite.binding.add_symbol before finalizing.  Also, under their own names, the
    libm functions LLVM itself calls where the target CPU lacks an instruction for
    an intrinsic (llvm.fma without FMA; floor, ceil, trunc, roundeven without
    SSE4.1): all exact, so any correct libm gives the same bits."""
    out = {}
    for name in sorted({name for name, _ in S.MUFU_LIBM.values()} | {"fmod"}):
        out[LIBM_PREFIX + name] = ctypes.cast(S.libm_function(name), ctypes.c_void_p).value
    for name in sorted(S.MUFU_LIBM_F32.values()):
        out[LIBM_PREFIX + name] = ctypes.cast(S.libm_float_function(name), ctypes.c_void_p).value
    for name in BACKEND_LIBM:
        out[name] = ctypes.cast(getattr(S.LIBM, name), ctypes.c_void_p).value
    return out


# ---- decoding: what to emit, decided before anything is emitted -----------------------------
def _plan(ins: Instr) -> Lowering:
    try:
        return _decode(ins)
    except S.UnsupportedOp as exc:
        raise NotImplementedError(str(exc)) from None


def _decode(ins: Instr) -> Lowering:
    lower = LOWERINGS[S.family(ins)]
    n_src = OPS[ins.op].n_src
    if n_src >= 0 and len(ins.srcs) != n_src:
        raise NotImplementedError(f"{ins.opcode} has {len(ins.srcs)} operands, expected {n_src}")
    if S.FTZ in ins.mods:
        return _flushing(ins, lower(ins))
    return lower(ins)


def _flushing(ins: Instr, lowering: Lowering) -> Lowering:
    """semantics.evaluate's FTZ: the f32 sources flushed before, the f32 result after."""
    if ins.op not in S.FTZ_OPS:
        raise NotImplementedError(f"{ins.opcode}: FTZ is a modifier of {', '.join(S.FTZ_OPS)} only")
    flush_sources, flush_result = S.ftz_sides(ins)

    def flushed(e, s):
        s = [_flush_bits(e, x) if f else x for x, f in zip(s, flush_sources)]
        r = lowering(e, s)
        if ins.op == "FMUL" and flush_result:   # (FFMA flushes its rounded result: semantics.py)
            r = _zero_if_tiny_before_rounding(e, ins.op, s, r)
        return _flush_bits(e, r) if flush_result else r
    return flushed


def _zero_if_tiny_before_rounding(e: Emitter, op: str, s: list[str], r: str) -> str:
    """semantics._tiny_before_rounding: where FMUL's or FFMA's exact result is nonzero and
    below 2^-126 in size, a zero of its sign instead of r."""
    vd, v1, vi = _vf(e, 64), _vi(e, 1), _vi(e, 32)
    x = [e.op(f"fpext {_vf(e, 32)} {_as_float(e, v, 32)} to {vd}", "f") for v in s]
    total = e.op(f"fmul {vd} {x[0]}, {x[1]}", "f")
    err = "zeroinitializer"
    if op == "FFMA":   # two-sum, as semantics._two_sum
        product = total
        total = e.op(f"fadd {vd} {product}, {x[2]}", "f")
        bb = e.op(f"fsub {vd} {total}, {product}", "f")
        left = e.op(f"fsub {vd} {product}, {e.op(f'fsub {vd} {total}, {bb}', 'f')}", "f")
        err = e.op(f"fadd {vd} {left}, {e.op(f'fsub {vd} {x[2]}, {bb}', 'f')}", "f")
    size = _unary_intrinsic(e, "fabs", vd, "f64", total)
    smallest = _fsplat(64, S.SMALLEST_NORMAL32)
    below = e.op(f"fcmp olt {vd} {size}, {smallest}")
    at = e.op(f"fcmp oeq {vd} {size}, {smallest}")
    err_negative = e.op(f"fcmp olt {vd} {err}, zeroinitializer")
    err_positive = e.op(f"fcmp ogt {vd} {err}, zeroinitializer")
    total_positive = e.op(f"fcmp ogt {vd} {total}, zeroinitializer")
    inward = e.op(f"select {v1} {total_positive}, {v1} {err_negative}, {v1} {err_positive}")
    inward = e.op(f"and {v1} {at}, {inward}")
    nonzero = e.op(f"fcmp one {vd} {total}, zeroinitializer")   # ordered: NaN is not tiny
    tiny = e.op(f"and {v1} {nonzero}, {e.op(f'or {v1} {below}, {inward}')}")
    bits = e.op(f"bitcast {vd} {total} to {_vi(e, 64)}")
    sign = e.op(f"trunc {_vi(e, 64)} {e.op(f'lshr {_vi(e, 64)} {bits}, {e.splat(64, 32)}')} to {vi}")
    zero = e.op(f"and {vi} {sign}, {e.splat(32, 0x80000000)}")
    return e.op(f"select {v1} {tiny}, {vi} {zero}, {vi} {r}")


def _flush_bits(e: Emitter, x: str) -> str:
    """semantics.flush_bits: f32 lanes whose exponent field is 0 keep only their sign."""
    vi = _vi(e, 32)
    exponent = e.op(f"and {vi} {x}, {e.splat(32, 0x7F800000)}")
    subnormal = e.op(f"icmp eq {vi} {exponent}, zeroinitializer")
    sign = e.op(f"and {vi} {x}, {e.splat(32, 0x80000000)}")
    return e.op(f"select {_vi(e, 1)} {subnormal}, {vi} {sign}, {vi} {x}")


# ---- moves and predicates ------------------------------------------------------------------
def _decode_mov(ins: Instr) -> Lowering:
    return lambda e, s: s[0]


def _decode_sel(ins: Instr) -> Lowering:
    w = S.dst_width(ins)
    return lambda e, s: e.op(f"select {_vi(e, 1)} {s[2]}, {_vi(e, w)} {s[0]}, {_vi(e, w)} {s[1]}")


def _decode_p2r(ins: Instr) -> Lowering:
    w = S.dst_width(ins)
    if w == 1:
        raise NotImplementedError("P2R into a predicate")
    return lambda e, s: e.op(f"zext {_vi(e, 1)} {s[0]} to {_vi(e, w)}")


def _decode_isetp(ins: Instr) -> Lowering:
    cmp = S.modifier(ins, S.COMPARISONS)
    bits, signed = S.int_type(ins)
    pred = _ICMP[cmp] if cmp in ("EQ", "NE") else ("s" if signed else "u") + _ICMP[cmp]
    return lambda e, s: e.op(f"icmp {pred} {_vi(e, bits)} {s[0]}, {s[1]}")


def _decode_fsetp(ins: Instr) -> Lowering:
    cmp = S.modifier(ins, S.COMPARISONS)
    w = S.float_width(ins)

    def fsetp(e, s):
        a, b = _as_float(e, s[0], w), _as_float(e, s[1], w)
        return e.op(f"fcmp {_FCMP[cmp]} {_vf(e, w)} {a}, {b}")
    return fsetp


def _decode_plop(ins: Instr) -> Lowering:
    kind = S.modifier(ins, ("AND", "OR", "XOR")).lower()
    return lambda e, s: e.op(f"{kind} {_vi(e, 1)} {s[0]}, {s[1]}")


def _decode_pnot(ins: Instr) -> Lowering:
    return lambda e, s: e.op(f"xor {_vi(e, 1)} {s[0]}, {e.splat(1, 1)}")


# ---- small IR helpers ----------------------------------------------------------------------
def _vi(e: Emitter, bits: int) -> str:
    return e.vt(bits)


def _vf(e: Emitter, w: int) -> str:
    return e.vt(w, _FT[w])


def _fconst(value: float) -> str:
    """An LLVM float/double literal (hex of the double; exact in float where used)."""
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def _fsplat(w: int, value: float) -> str:
    return f"splat ({_FT[w]} {_fconst(value)})"


def _intrinsic(e: Emitter, name: str, ret: str, args: list[tuple[str, str]]) -> str:
    e.declare(name, f"declare {ret} @{name}({', '.join(t for t, _ in args)})")
    return e.op(f"call {ret} @{name}({', '.join(f'{t} {v}' for t, v in args)})")


def _unary_intrinsic(e: Emitter, base: str, ty: str, elem: str, x: str) -> str:
    return _intrinsic(e, f"llvm.{base}.v{e.W}{elem}", ty, [(ty, x)])


def _as_float(e: Emitter, x: str, w: int) -> str:
    return e.op(f"bitcast {_vi(e, w)} {x} to {_vf(e, w)}", "f")


def _float_bits(e: Emitter, v: str, w: int) -> str:
    """A float result as bits, NaN made canonical (semantics._bits)."""
    nan = e.op(f"fcmp uno {_vf(e, w)} {v}, {v}", "isnan")
    bits = e.op(f"bitcast {_vf(e, w)} {v} to {_vi(e, w)}")
    return e.op(f"select {_vi(e, 1)} {nan}, {_vi(e, w)} {e.splat(w, _NAN[w])}, {_vi(e, w)} {bits}")


def _ext(e: Emitter, x: str, src_bits: int, dst_bits: int, signed: bool) -> str:
    if dst_bits == src_bits:
        return x
    return e.op(f"{'sext' if signed else 'zext'} {_vi(e, src_bits)} {x} to {_vi(e, dst_bits)}")


def _trunc(e: Emitter, x: str, src_bits: int, dst_bits: int) -> str:
    if dst_bits == src_bits:
        return x
    return e.op(f"trunc {_vi(e, src_bits)} {x} to {_vi(e, dst_bits)}")


# ---- integers -------------------------------------------------------------------------------
def _decode_int(ins: Instr) -> Lowering:
    op = ins.op
    bits, signed = S.int_type(ins)
    simple = {"IADD": "add", "ISUB": "sub", "IMUL": "mul"}
    if op in simple:
        return lambda e, s: e.op(f"{simple[op]} {_vi(e, bits)} {s[0]}, {s[1]}")
    if S.is_wide_multiply(ins):
        def imad_wide(e, s):
            a, b = (_ext(e, x, 32, 64, signed) for x in s[:2])
            return e.op(f"add {_vi(e, 64)} {e.op(f'mul {_vi(e, 64)} {a}, {b}')}, {s[2]}")
        return imad_wide
    if op == "IMAD":
        def imad(e, s):
            p = e.op(f"mul {_vi(e, bits)} {s[0]}, {s[1]}")
            return e.op(f"add {_vi(e, bits)} {p}, {s[2]}")
        return imad
    if op == "INEG":
        return lambda e, s: e.op(f"sub {_vi(e, bits)} zeroinitializer, {s[0]}")
    if op == "NOT":
        return lambda e, s: e.op(f"xor {_vi(e, bits)} {s[0]}, {e.splat(bits, -1)}")
    if op == "LOP":
        kind = S.modifier(ins, ("AND", "OR", "XOR")).lower()
        return lambda e, s: e.op(f"{kind} {_vi(e, bits)} {s[0]}, {s[1]}")
    if op == "IMNMX":
        which = S.modifier(ins, ("MIN", "MAX")).lower()
        name = ("s" if signed else "u") + which
        return lambda e, s: _intrinsic(e, f"llvm.{name}.v{e.W}i{bits}", _vi(e, bits),
                                       [(_vi(e, bits), s[0]), (_vi(e, bits), s[1])])
    if op == "IABS":
        if not signed:
            return lambda e, s: s[0]
        return lambda e, s: _intrinsic(e, f"llvm.abs.v{e.W}i{bits}", _vi(e, bits),
                                       [(_vi(e, bits), s[0]), ("i1", "false")])   # abs(MIN) = MIN
    if op in ("SHL", "SHR"):
        return lambda e, s: _shift(e, op, s[0], s[1], bits, signed)
    if op in ("IDIV", "IREM"):
        fast32 = S.FAST32 in ins.mods
        return lambda e, s: _divide(e, op, s[0], s[1], bits, signed, fast32)
    if op == "IMULHI":
        def mulhi(e, s):
            wide = 2 * bits
            a, b = (_ext(e, x, bits, wide, signed) for x in s[:2])
            p = e.op(f"mul {_vi(e, wide)} {a}, {b}")
            hi = e.op(f"lshr {_vi(e, wide)} {p}, {e.splat(wide, bits)}")
            return _trunc(e, hi, wide, bits)
        return mulhi
    if op == "PRMT":
        return _prmt
    if op == "SHF":
        if bits != 32:
            raise NotImplementedError("SHF funnels two 32-bit registers")
        wrap, left = S.modifier(ins, ("W", "C")) == "W", S.modifier(ins, ("L", "R")) == "L"
        return lambda e, s: _shf(e, s, wrap, left)
    if op == "POPC":
        return lambda e, s: _trunc(e, _unary_intrinsic(e, "ctpop", _vi(e, bits), f"i{bits}", s[0]), bits, 32)
    if op == "BREV":
        return lambda e, s: _unary_intrinsic(e, "bitreverse", _vi(e, bits), f"i{bits}", s[0])
    if op == "FLO":
        shift_amount = "SH" in ins.mods
        return lambda e, s: _flo(e, s[0], bits, signed, shift_amount)
    raise NotImplementedError(ins.opcode)   # pragma: no cover


def _prmt(e: Emitter, s: list[str]) -> str:
    """PRMT d, a, selector, b: byte n of d is byte (selector >> 4n) & 7 of b:a."""
    a, selector, b = s
    both = e.op(f"or {_vi(e, 64)} {_ext(e, a, 32, 64, False)}, "
                f"{e.op(f'shl {_vi(e, 64)} {_ext(e, b, 32, 64, False)}, {e.splat(64, 32)}')}")
    out = e.splat(32, 0)
    for n in range(4):
        index = e.op(f"and {_vi(e, 32)} {e.op(f'lshr {_vi(e, 32)} {selector}, {e.splat(32, 4 * n)}')}, "
                     f"{e.splat(32, 7)}")
        bit = e.op(f"shl {_vi(e, 64)} {_ext(e, index, 32, 64, False)}, {e.splat(64, 3)}")
        byte = e.op(f"and {_vi(e, 32)} {_trunc(e, e.op(f'lshr {_vi(e, 64)} {both}, {bit}'), 64, 32)}, "
                    f"{e.splat(32, 0xFF)}")
        out = e.op(f"or {_vi(e, 32)} {out}, {e.op(f'shl {_vi(e, 32)} {byte}, {e.splat(32, 8 * n)}')}")
    return out


def _shf(e: Emitter, s: list[str], wrap: bool, left: bool) -> str:
    """SHF d, lo, amount, hi: hi:lo shifted by the amount (mod 32, or at most 32) in 64
    bits; the high word of a left shift, the low word of a right one."""
    lo, amount, hi = s
    t32, t64 = _vi(e, 32), _vi(e, 64)
    if wrap:
        n = e.op(f"and {t32} {amount}, {e.splat(32, 31)}")
    else:
        n = _intrinsic(e, f"llvm.umin.v{e.W}i32", t32, [(t32, amount), (t32, e.splat(32, 32))])
    both = e.op(f"or {t64} {_ext(e, lo, 32, 64, False)}, "
                f"{e.op(f'shl {t64} {_ext(e, hi, 32, 64, False)}, {e.splat(64, 32)}')}")
    n64 = _ext(e, n, 32, 64, False)
    if left:
        moved = e.op(f"lshr {t64} {e.op(f'shl {t64} {both}, {n64}')}, {e.splat(64, 32)}")
    else:
        moved = e.op(f"lshr {t64} {both}, {n64}")
    return _trunc(e, moved, 64, 32)


def _shift(e: Emitter, op: str, a: str, amount: str, bits: int, signed: bool) -> str:
    """The amount is an unsigned 32-bit value; >= bits gives 0 (SHR.S*: the sign fill)."""
    t = _vi(e, bits)
    amount = _ext(e, amount, 32, bits, False)
    clamped = _intrinsic(e, f"llvm.umin.v{e.W}i{bits}", t, [(t, amount), (t, e.splat(bits, bits - 1))])
    if op == "SHR" and signed:
        return e.op(f"ashr {t} {a}, {clamped}")
    moved = e.op(f"{'shl' if op == 'SHL' else 'lshr'} {t} {a}, {clamped}")
    big = e.op(f"icmp ugt {t} {amount}, {e.splat(bits, bits - 1)}")
    return e.op(f"select {_vi(e, 1)} {big}, {t} zeroinitializer, {t} {moved}")


def _divide(e: Emitter, op: str, a: str, b: str, bits: int, signed: bool, fast32: bool = False) -> str:
    """Truncating division; x / 0 and x % 0 as semantics.division_by_zero gives them,
    MIN / -1 = MIN, MIN % -1 = 0.  The divisor is replaced by 1 where it is 0 (or -1
    under MIN): MIN / 1 is the wrapped quotient and MIN % 1 the remainder.  32-bit
    lanes divide in f64: for |a|, |b| < 2^32 trunc(fl(a / b)) == trunc(a / b) (the
    rounding error, below 2^-53 (a/b + 1), never reaches the next integer, at least
    1/|b| away), and a vector double division is far faster than 32 scalar integer
    divisions."""
    t = _vi(e, bits)
    zero = e.op(f"icmp eq {t} {b}, zeroinitializer")
    bad = zero
    if signed:
        is_min = e.op(f"icmp eq {t} {a}, {e.splat(bits, 1 << (bits - 1))}")
        minus_one = e.op(f"icmp eq {t} {b}, {e.splat(bits, -1)}")
        overflow = e.op(f"and {_vi(e, 1)} {is_min}, {minus_one}")
        bad = e.op(f"or {_vi(e, 1)} {zero}, {overflow}")
    safe_b = e.op(f"select {_vi(e, 1)} {bad}, {t} {e.splat(bits, 1)}, {t} {b}")
    by_zero = e.splat(bits, -1)
    if fast32 and bits == 64:
        high = e.op(f"lshr {t} {e.op(f'or {t} {a}, {b}')}, {e.splat(64, 32)}")
        narrow = e.op(f"icmp eq {t} {high}, zeroinitializer")
        by_zero = e.op(f"select {_vi(e, 1)} {narrow}, {t} {e.splat(64, 0xFFFFFFFF)}, {t} {by_zero}")
    if bits == 32:
        cvt = "sitofp" if signed else "uitofp"
        da = e.op(f"{cvt} {t} {a} to {_vf(e, 64)}")
        db = e.op(f"{cvt} {t} {safe_b} to {_vf(e, 64)}")
        dq = e.op(f"fdiv {_vf(e, 64)} {da}, {db}")
        # |quotient| <= 2^31 - 1 (signed; MIN / -1 excluded above) or <= 2^32 - 1 (unsigned)
        q = e.op(f"{'fptosi' if signed else 'fptoui'} {_vf(e, 64)} {dq} to {t}")
        if op == "IDIV":
            return e.op(f"select {_vi(e, 1)} {zero}, {t} {by_zero}, {t} {q}")
        qb = e.op(f"mul {t} {q}, {safe_b}")
        r = e.op(f"sub {t} {a}, {qb}")
        return e.op(f"select {_vi(e, 1)} {zero}, {t} {by_zero}, {t} {r}")
    if op == "IDIV":
        q = e.op(f"{'sdiv' if signed else 'udiv'} {t} {a}, {safe_b}")
        return e.op(f"select {_vi(e, 1)} {zero}, {t} {by_zero}, {t} {q}")
    r = e.op(f"{'srem' if signed else 'urem'} {t} {a}, {safe_b}")
    return e.op(f"select {_vi(e, 1)} {zero}, {t} {by_zero}, {t} {r}")


def _flo(e: Emitter, x: str, bits: int, signed: bool, shift_amount: bool) -> str:
    """PTX bfind: position of the top 1 (.S*: the top bit differing from the sign),
    0xFFFFFFFF for none; .SH: bits - 1 - position (the leading zero count)."""
    t = _vi(e, bits)
    if signed:   # x ^ (x >> (bits-1)): ~x for negative x
        sign = e.op(f"ashr {t} {x}, {e.splat(bits, bits - 1)}")
        x = e.op(f"xor {t} {x}, {sign}")
    clz = _trunc(e, _intrinsic(e, f"llvm.ctlz.v{e.W}i{bits}", t, [(t, x), ("i1", "false")]), bits, 32)
    t32 = _vi(e, 32)
    if shift_amount:   # clz == bits exactly when x == 0: none
        none = e.op(f"icmp eq {t32} {clz}, {e.splat(32, bits)}")
        return e.op(f"select {_vi(e, 1)} {none}, {t32} {e.splat(32, -1)}, {t32} {clz}")
    return e.op(f"sub {t32} {e.splat(32, bits - 1)}, {clz}")   # bits-1-bits = 0xFFFFFFFF for none


# ---- floats ----------------------------------------------------------------------------------
def _decode_float(ins: Instr) -> Lowering:
    w = S.float_width(ins)
    base = ins.op[1:]
    if base == "NEG":
        return lambda e, s: e.op(f"xor {_vi(e, w)} {s[0]}, {e.splat(w, 1 << (w - 1))}")
    arith = {"ADD": "fadd", "SUB": "fsub", "MUL": "fmul", "DIV": "fdiv"}
    if base == "MUL" and "RZ" in ins.mods and w == 32:
        return lambda e, s: _multiply_toward_zero(e, s[0], s[1])
    if base in arith:
        def binary(e, s):
            a, b = _as_float(e, s[0], w), _as_float(e, s[1], w)
            return _float_bits(e, e.op(f"{arith[base]} {_vf(e, w)} {a}, {b}", "f"), w)
        return binary
    if base == "FMA":
        def fma(e, s):
            a, b, c = (_as_float(e, x, w) for x in s[:3])
            vf = _vf(e, w)
            if "NEGP" in ins.mods:     # exact negations before the one rounding (semantics._fma_signs)
                a = e.op(f"fneg {vf} {a}", "f")
            if "NEGC" in ins.mods:
                c = e.op(f"fneg {vf} {c}", "f")
            r = _intrinsic(e, f"llvm.fma.v{e.W}{_FSFX[w]}", vf, [(vf, a), (vf, b), (vf, c)])
            return _float_bits(e, r, w)
        return fma
    if base == "MNMX":
        which = S.modifier(ins, ("MIN", "MAX"))
        return lambda e, s: _min_max(e, which, s[0], s[1], w)
    raise NotImplementedError(ins.opcode)   # pragma: no cover


def _min_max(e: Emitter, which: str, a_bits: str, b_bits: str, w: int) -> str:
    """C fmin/fmax (a NaN operand is ignored; both NaN: canonical NaN); of two zeros
    MIN gives -0 if either is -0 (a | b), MAX +0 if either is +0 (a & b)."""
    vf, vi, v1 = _vf(e, w), _vi(e, w), _vi(e, 1)
    a, b = _as_float(e, a_bits, w), _as_float(e, b_bits, w)
    better = e.op(f"fcmp {'olt' if which == 'MIN' else 'ogt'} {vf} {a}, {b}")
    b_nan = e.op(f"fcmp uno {vf} {b}, {b}")
    pick_a = e.op(f"or {v1} {better}, {b_nan}")
    value = _float_bits(e, e.op(f"select {v1} {pick_a}, {vf} {a}, {vf} {b}", "f"), w)
    a_zero = e.op(f"fcmp oeq {vf} {a}, zeroinitializer")
    b_zero = e.op(f"fcmp oeq {vf} {b}, zeroinitializer")
    zeros = e.op(f"and {v1} {a_zero}, {b_zero}")
    signed_zero = e.op(f"{'or' if which == 'MIN' else 'and'} {vi} {a_bits}, {b_bits}")
    return e.op(f"select {v1} {zeros}, {vi} {signed_zero}, {vi} {value}")


# ---- conversions -----------------------------------------------------------------------------
def _decode_conversion(ins: Instr) -> Lowering:
    dst, src = S.conversion_types(ins)
    src_reg, dst_reg = S.type_width(src), S.type_width(dst)
    if ins.op == "I2I":
        sb, ss = S.INT_TYPES[src]
        db, ds = S.INT_TYPES[dst]

        def i2i(e, s):
            v = _trunc(e, s[0], src_reg, sb)                 # the source type's value, in sb bits
            if db <= sb:
                v = _trunc(e, v, sb, db)                     # truncated to the destination type
            else:
                v = _ext(e, v, sb, db, ss)                   # extended as the source type says
            return _ext(e, v, db, dst_reg, ds)               # held in a register: extended
        return i2i
    if ins.op == "I2F":
        sb, ss = S.INT_TYPES[src]
        w = S.FLOAT_TYPES[dst]

        def i2f(e, s):   # correctly rounded; an integer is never NaN
            v = _trunc(e, s[0], src_reg, sb)
            f = e.op(f"{'sitofp' if ss else 'uitofp'} {_vi(e, sb)} {v} to {_vf(e, w)}", "f")
            return e.op(f"bitcast {_vf(e, w)} {f} to {_vi(e, w)}")
        return i2f
    if ins.op == "F2I":
        db, ds = S.INT_TYPES[dst]
        w = S.FLOAT_TYPES[src]
        rounding = S.f2i_rounding(ins)
        return lambda e, s: _f2i(e, s[0], w, db, ds, dst_reg, rounding)
    # F2F
    wd, ws = S.FLOAT_TYPES[dst], S.FLOAT_TYPES[src]
    if wd == ws:
        return lambda e, s: s[0]                             # the bits, NaN payload and all

    def f2f(e, s):
        f = _as_float(e, s[0], ws)
        r = e.op(f"{'fpext' if wd > ws else 'fptrunc'} {_vf(e, ws)} {f} to {_vf(e, wd)}", "f")
        return _float_bits(e, r, wd)
    return f2f


def _float_at_least(value: int, w: int) -> float:
    """The smallest float of width w >= the integer value (exactly)."""
    ft = np.float32 if w == 32 else np.float64
    f = ft(float(value))
    if int(f) < value:
        f = np.nextafter(f, ft(np.inf))
    return float(f)


def _float_at_most(value: int, w: int) -> float:
    ft = np.float32 if w == 32 else np.float64
    f = ft(float(value))
    if int(f) > value:
        f = np.nextafter(f, ft(-np.inf))
    return float(f)


_F2I_ROUNDING = {"RN": "roundeven", "RU": "ceil", "RD": "floor"}   # RZ: the conversion itself


def _f2i(e: Emitter, x: str, w: int, bits: int, signed: bool, reg: int, rounding: str = "RZ") -> str:
    """Toward zero, saturating to the type's range, NaN -> 0 or a 64-bit signed type's minimum (llvm.fpto[su]i.sat says
    the same, but x86 scalarizes it).  With lo <= 0 < hi integers, trunc(v) >= hi iff
    v >= hi iff v >= the smallest float >= hi; v <= lo gives lo (for lo < 0 iff
    trunc(v) <= lo; for lo = 0 the lanes in (0, 1) convert to 0 anyway).  The lanes
    left over truncate into the type, so their plain conversion is defined."""
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    vf, v1, t = _vf(e, w), _vi(e, 1), _vi(e, bits)
    f = _as_float(e, x, w)
    if rounding in _F2I_ROUNDING:   # rounded to an integer first: then the same as toward zero
        f = _unary_intrinsic(e, _F2I_ROUNDING[rounding], vf, _FSFX[w], f)
    over = e.op(f"fcmp oge {vf} {f}, {_fsplat(w, _float_at_least(hi, w))}")
    under = e.op(f"fcmp ole {vf} {f}, {_fsplat(w, _float_at_most(lo, w))}")
    nan = e.op(f"fcmp uno {vf} {f}, {f}")
    out = e.op(f"or {v1} {over}, {under}")
    out = e.op(f"or {v1} {out}, {nan}")
    inside = e.op(f"select {v1} {out}, {vf} zeroinitializer, {vf} {f}", "f")
    v = e.op(f"{'fptosi' if signed else 'fptoui'} {vf} {inside} to {t}")
    v = e.op(f"select {v1} {over}, {t} {e.splat(bits, hi)}, {t} {v}")
    v = e.op(f"select {v1} {under}, {t} {e.splat(bits, lo)}, {t} {v}")   # NaN: 0 from the conversion
    if signed and bits == 64:   # but a 64-bit signed integer's minimum, as the GPU gives
        v = e.op(f"select {v1} {nan}, {t} {e.splat(bits, lo)}, {t} {v}")
    return _ext(e, v, bits, reg, signed)


# ---- MUFU --------------------------------------------------------------------------------------
def _decode_mufu(ins: Instr) -> Lowering:
    w = S.float_width(ins)
    fn = S.modifier(ins, tuple(S.MUFU_UNARY) + tuple(S.MUFU_BINARY) + ("FABS",))
    if fn == "FABS":
        if not ins.srcs:
            raise NotImplementedError("MUFU.FABS without an operand")
        return lambda e, s: e.op(f"and {_vi(e, w)} {s[0]}, {e.splat(w, ~(1 << (w - 1)))}")
    if "APPROX" in ins.mods:
        if fn not in S.MUFU_APPROX or w != 32 or len(ins.srcs) != 1:
            raise NotImplementedError(f"{ins.opcode}: APPROX is the f32 {', '.join(S.MUFU_APPROX)} of one operand")
        return lambda e, s: _mufu_approx(e, fn, s[0])
    arity = 2 if fn in S.MUFU_BINARY else 1
    if len(ins.srcs) != arity:
        raise NotImplementedError(f"MUFU.{fn} takes {arity} operands")
    if w == 32 and fn in S.MUFU_LIBM_F32:
        return lambda e, s: _libm_float_lanes(e, S.MUFU_LIBM_F32[fn], s)
    if fn in S.MUFU_LIBM:
        name, constants = S.MUFU_LIBM[fn]
        return lambda e, s: _libm_lanes(e, name, constants, s, w)
    # The exact functions.  semantics computes f32 lanes in f64 and rounds to f32; for
    # these that is the same as computing in f32: floor, ceil, trunc, rint, round,
    # copysign and fmod are exact, and a single IEEE op (sqrt, division) rounded in
    # f64 then to f32 is correctly rounded (53 >= 2 * 24 + 2: double rounding is
    # innocuous).  RSQ is two ops, so it stays in f64.
    return lambda e, s: _mufu_exact(e, fn, s, w)


def _mufu_exact(e: Emitter, fn: str, s: list[str], w: int) -> str:
    vf, sfx = _vf(e, w), _FSFX[w]
    x = _as_float(e, s[0], w)

    def unary(base, v, width=w):
        return _unary_intrinsic(e, base, _vf(e, width), _FSFX[width], v)

    if fn == "SQRT":
        r = unary("sqrt", x)
    elif fn == "RCP":
        r = e.op(f"fdiv {vf} {_fsplat(w, 1.0)}, {x}", "f")
    elif fn == "RSQ":
        xd = x if w == 64 else e.op(f"fpext {vf} {x} to {_vf(e, 64)}", "f")
        rd = e.op(f"fdiv {_vf(e, 64)} {_fsplat(64, 1.0)}, {unary('sqrt', xd, 64)}", "f")
        r = rd if w == 64 else e.op(f"fptrunc {_vf(e, 64)} {rd} to {vf}", "f")
    elif fn in ("FLOOR", "CEIL", "TRUNC", "RINT"):
        r = unary({"FLOOR": "floor", "CEIL": "ceil", "TRUNC": "trunc", "RINT": "roundeven"}[fn], x)
    elif fn == "ROUND":   # semantics' algorithm, exact at every step: copysign(floor|x| + (frac >= 0.5), x)
        ax = unary("fabs", x)
        fl = unary("floor", ax)
        frac = e.op(f"fsub {vf} {ax}, {fl}", "f")
        up = e.op(f"fcmp oge {vf} {frac}, {_fsplat(w, 0.5)}")
        one = e.op(f"select {_vi(e, 1)} {up}, {vf} {_fsplat(w, 1.0)}, {vf} zeroinitializer", "f")
        mag = e.op(f"fadd {vf} {fl}, {one}", "f")
        r = _intrinsic(e, f"llvm.copysign.v{e.W}{sfx}", vf, [(vf, mag), (vf, x)])
    elif fn == "COPYSIGN":
        y = _as_float(e, s[1], w)
        r = _intrinsic(e, f"llvm.copysign.v{e.W}{sfx}", vf, [(vf, x), (vf, y)])
    elif fn == "FMOD":   # exact: fmod of the f64 values is the f32 fmod
        return _libm_lanes(e, "fmod", (), s, w)
    else:   # pragma: no cover (a new exact function in semantics: lower it here)
        raise NotImplementedError(f"MUFU.{fn}")
    return _float_bits(e, r, w)


def _libm_lanes(e: Emitter, name: str, constants: tuple, s: list[str], w: int) -> str:
    """Lane by lane: widen to f64, call libm's double `name`, round back, canonical NaN."""
    vd = _vf(e, 64)
    args = []
    for x in s:
        f = _as_float(e, x, w)
        args.append(f if w == 64 else e.op(f"fpext {_vf(e, w)} {f} to {vd}", "f"))
    acc = _libm_double_lanes(e, name, constants, args)
    r = acc if w == 64 else e.op(f"fptrunc {vd} {acc} to {_vf(e, w)}", "f")
    return _float_bits(e, r, w)


def _libm_float_lanes(e: Emitter, name: str, s: list[str]) -> str:
    """libm's float `name` (erfcf, ...) of f32 lanes, lane by lane, canonical NaN."""
    vf = _vf(e, 32)
    sym = LIBM_PREFIX + name
    e.declare(sym, f"declare float @{sym}({', '.join(['float'] * len(s))}) "
                   "nounwind willreturn memory(errnomem: write)")
    args = [_as_float(e, x, 32) for x in s]
    acc = "poison"
    for lane in range(e.W):
        xs = [e.op(f"extractelement {vf} {a}, i32 {lane}", "x") for a in args]
        y = e.op(f"call float @{sym}({', '.join(f'float {v}' for v in xs)})", "y")
        acc = e.op(f"insertelement {vf} {acc}, float {y}, i32 {lane}", "r")
    return _float_bits(e, acc, 32)


def _libm_double_lanes(e: Emitter, name: str, constants: tuple, args: list[str]) -> str:
    """libm's double `name` of f64 lane vectors, lane by lane: an f64 lane vector."""
    vd = _vf(e, 64)
    sym = LIBM_PREFIX + name
    n_args = len(constants) + len(args)
    e.declare(sym, f"declare double @{sym}({', '.join(['double'] * n_args)}) "
                   "nounwind willreturn memory(errnomem: write)")   # errno only, like LLVM's libm
    fixed = [f"double {_fconst(c)}" for c in constants]
    acc = "poison"
    for lane in range(e.W):
        xs = [e.op(f"extractelement {vd} {a}, i32 {lane}", "x") for a in args]
        y = e.op(f"call double @{sym}({', '.join(fixed + [f'double {v}' for v in xs])})", "y")
        acc = e.op(f"insertelement {vd} {acc}, double {y}, i32 {lane}", "r")
    return acc


def _flush_subnormal(e: Emitter, x: str, w: int) -> str:
    """semantics.flush_subnormal: a subnormal lane becomes a zero of its sign."""
    vf = _vf(e, w)
    magnitude = _unary_intrinsic(e, "fabs", vf, _FSFX[w], x)
    small = e.op(f"fcmp olt {vf} {magnitude}, {_fsplat(w, S.SMALLEST_NORMAL32)}")
    zero = _intrinsic(e, f"llvm.copysign.v{e.W}{_FSFX[w]}", vf, [(vf, "zeroinitializer"), (vf, x)])
    return e.op(f"select {_vi(e, 1)} {small}, {vf} {zero}, {vf} {x}", "f")


def _mufu_approx(e: Emitter, fn: str, bits: str) -> str:
    """semantics._mufu_approx, step for step in f64 (every step but the last rounding exact)."""
    vd = _vf(e, 64)
    x = e.op(f"fpext {_vf(e, 32)} {_flush_subnormal(e, _as_float(e, bits, 32), 32)} to {vd}", "f")
    if fn in ("SIN", "COS"):
        scale = float(2 ** S.SIN_TURN_BITS)
        cut = _unary_intrinsic(e, "trunc", vd, "f64", e.op(f"fmul {vd} {x}, {_fsplat(64, scale)}", "f"))
        cut = e.op(f"fdiv {vd} {cut}, {_fsplat(64, scale)}", "f")
        fraction = e.op(f"fsub {vd} {cut}, {_unary_intrinsic(e, 'roundeven', vd, 'f64', cut)}", "f")
        whole = e.op(f"fcmp oeq {vd} {fraction}, zeroinitializer")
        zero = _intrinsic(e, f"llvm.copysign.v{e.W}f64", vd, [(vd, "zeroinitializer"), (vd, x)])
        fraction = e.op(f"select {_vi(e, 1)} {whole}, {vd} {zero}, {vd} {fraction}", "f")
        angle = e.op(f"fmul {vd} {fraction}, {_fsplat(64, 2 * math.pi)}", "f")
        y = _libm_double_lanes(e, S.MUFU_LIBM[fn][0], (), [angle])
        # semantics: the exact zeros, the sign of -x (SIN) or of -(x * fraction) (COS)
        size = _unary_intrinsic(e, "fabs", vd, "f64", fraction)
        on_zero = e.op(f"fcmp oeq {vd} {size}, {_fsplat(64, 0.5 if fn == 'SIN' else 0.25)}")
        signed = x if fn == "SIN" else e.op(f"fmul {vd} {x}, {fraction}", "f")
        zero = _intrinsic(e, f"llvm.copysign.v{e.W}f64", vd, [(vd, "zeroinitializer"), (vd, e.op(f"fneg {vd} {signed}", "f"))])
        y = e.op(f"select {_vi(e, 1)} {on_zero}, {vd} {zero}, {vd} {y}", "f")
    elif fn in ("EX2", "LG2"):
        y = _libm_double_lanes(e, S.MUFU_LIBM[fn][0], (), [x])
    elif fn == "RCP":
        y = e.op(f"fdiv {vd} {_fsplat(64, 1.0)}, {x}", "f")
    else:   # RSQ
        y = e.op(f"fdiv {vd} {_fsplat(64, 1.0)}, {_unary_intrinsic(e, 'sqrt', vd, 'f64', x)}", "f")
    r = _flush_subnormal(e, e.op(f"fptrunc {vd} {y} to {_vf(e, 32)}", "f"), 32)
    return _float_bits(e, r, 32)


def _multiply_toward_zero(e: Emitter, a_bits: str, b_bits: str) -> str:
    """semantics._multiply_toward_zero: the exact f64 product, rounded to nearest f32,
    one float back toward zero (bits - 1) where that grew its magnitude."""
    vd, vf, vi = _vf(e, 64), _vf(e, 32), _vi(e, 32)
    a, b = (e.op(f"fpext {vf} {_as_float(e, v, 32)} to {vd}", "f") for v in (a_bits, b_bits))
    exact = e.op(f"fmul {vd} {a}, {b}", "f")
    nearest = e.op(f"fptrunc {vd} {exact} to {vf}", "f")
    exact_size = _unary_intrinsic(e, "fabs", vd, "f64", exact)
    nearest_size = _unary_intrinsic(e, "fabs", vd, "f64", e.op(f"fpext {vf} {nearest} to {vd}", "f"))
    finite = e.op(f"fcmp one {vd} {exact_size}, {_fsplat(64, math.inf)}")
    larger = e.op(f"fcmp ogt {vd} {nearest_size}, {exact_size}")
    grew = e.op(f"and {_vi(e, 1)} {finite}, {larger}")
    bits = e.op(f"bitcast {vf} {nearest} to {vi}")
    back = e.op(f"sub {vi} {bits}, {e.splat(32, 1)}")
    stepped = e.op(f"select {_vi(e, 1)} {grew}, {vi} {back}, {vi} {bits}")
    return _float_bits(e, _as_float(e, stepped, 32), 32)


# each family of pure ops (isa.OpInfo.eval) -> its lowering: the instruction -> a Lowering
LOWERINGS = {"mov": _decode_mov, "sel": _decode_sel, "p2r": _decode_p2r, "int": _decode_int, "float": _decode_float,
             "mufu": _decode_mufu, "isetp": _decode_isetp, "fsetp": _decode_fsetp, "plop": _decode_plop,
             "pnot": _decode_pnot, "convert": _decode_conversion}

"""semantics.evaluate against scalar Python references (ctypes for C integer types,
struct and Fractions for IEEE floats), lane-vectorised: every test runs a few
lanes at once and checks each against the reference."""
from __future__ import annotations

import ctypes
import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from minicuda.ir import Imm, parse_instr
from minicuda.semantics import (UnsupportedOp, evaluate, is_pure, operand_value, result_width,
                                source_widths)

CTYPE = {"S8": ctypes.c_int8, "U8": ctypes.c_uint8, "S16": ctypes.c_int16, "U16": ctypes.c_uint16,
         "S32": ctypes.c_int32, "U32": ctypes.c_uint32, "S64": ctypes.c_int64, "U64": ctypes.c_uint64}
BITS = {"S32": 32, "U32": 32, "S64": 64, "U64": 64}
REG = {32: "%r", 64: "%rd"}
MAX_F32 = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]


def run(text: str, *columns) -> list:
    """Evaluate one instruction over lanes; columns hold Python ints (bit patterns or
    signed values), floats or bools, one column per source operand."""
    ins = parse_instr(text, 1)
    widths = source_widths(ins)
    srcs = [np.array([operand_value(v, w) for v in col]) for col, w in zip(columns, widths)]
    out = evaluate(ins, srcs)
    return [v.item() for v in out]


def lanes(element, n_operands: int):
    return st.lists(st.tuples(*[element] * n_operands), min_size=1, max_size=6).map(lambda rows: list(zip(*rows)))


def ints(bits: int):
    edges = [0, 1, 2, -1, -2, (1 << (bits - 1)) - 1, -(1 << (bits - 1)), 1 << (bits - 1), bits, bits - 1]
    return st.one_of(st.sampled_from(edges), st.integers(-(1 << (bits - 1)), (1 << bits) - 1))


def c_value(t: str, v: int) -> int:
    return CTYPE[t](v).value


def bits_of(t: str, v: int) -> int:
    return v & ((1 << BITS[t]) - 1)


# ---- integer references -------------------------------------------------------------------
def trunc_div(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b)
    q = -q if (a < 0) != (b < 0) else q
    return q, a - q * b


def ref_int(op: str, t: str, *xs: int) -> int:
    bits = BITS[t]
    v = [c_value(t, x) for x in xs]       # the operands as C sees them
    if op == "IDIV":
        return -1 if v[1] == 0 else trunc_div(v[0], v[1])[0]
    if op == "IREM":   # x % 0: all ones, as the GPU gives it (GPU.md), no longer x
        return -1 if v[1] == 0 else trunc_div(v[0], v[1])[1]
    if op in ("SHL", "SHR"):
        amount = xs[1] & 0xFFFFFFFF
        if op == "SHL":
            return 0 if amount >= bits else v[0] << amount
        return v[0] >> min(amount, bits - 1) if amount < bits or t[0] == "S" else 0
    table = {
        "IADD": lambda: v[0] + v[1], "ISUB": lambda: v[0] - v[1], "IMUL": lambda: v[0] * v[1],
        "IMAD": lambda: v[0] * v[1] + v[2], "INEG": lambda: -v[0], "NOT": lambda: ~v[0],
        "IABS": lambda: abs(v[0]) if t[0] == "S" else v[0], "IMULHI": lambda: (v[0] * v[1]) >> bits,
        "LOP.AND": lambda: v[0] & v[1], "LOP.OR": lambda: v[0] | v[1], "LOP.XOR": lambda: v[0] ^ v[1],
        "IMNMX.MIN": lambda: min(v[0], v[1]), "IMNMX.MAX": lambda: max(v[0], v[1]),
    }
    return table[op]()


INT_OPS = {"IADD": 2, "ISUB": 2, "IMUL": 2, "IMAD": 3, "IDIV": 2, "IREM": 2, "INEG": 1, "IABS": 1,
           "NOT": 1, "IMULHI": 2, "LOP.AND": 2, "LOP.OR": 2, "LOP.XOR": 2, "IMNMX.MIN": 2, "IMNMX.MAX": 2,
           "SHL": 2, "SHR": 2}


@pytest.mark.parametrize("t", ["S32", "U32", "S64", "U64"])
@pytest.mark.parametrize("op", sorted(INT_OPS))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_integer_op_matches_c(op, t, data):
    n = INT_OPS[op]
    bits = BITS[t]
    cols = data.draw(lanes(ints(bits), n))
    if op in ("SHL", "SHR"):
        cols[1] = data.draw(st.lists(st.one_of(st.integers(0, bits + 2), st.integers(0, (1 << 32) - 1)),
                                     min_size=len(cols[0]), max_size=len(cols[0])))
    r = REG[bits]
    srcs = [f"{r}{i + 1}" for i in range(n)]
    if op in ("SHL", "SHR"):
        srcs[1] = "%r9"                                  # the amount is a 32-bit operand
    got = run(f"{op}.{t} {r}0, {', '.join(srcs)}", *cols)
    for lane, value in enumerate(got):
        assert value == bits_of(t, ref_int(op, t, *(c[lane] for c in cols))), (op, t, [c[lane] for c in cols])


@pytest.mark.parametrize("t", ["S32", "U32", "S64", "U64"])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_bit_counting_ops(t, data):
    bits = BITS[t]
    (col,) = data.draw(lanes(ints(bits), 1))
    r = REG[bits]
    popc = run(f"POPC.{t} %r0, {r}1", col)
    brev = run(f"BREV.{t} {r}0, {r}1", col)
    flo = run(f"FLO.{t} %r0, {r}1", col)
    shift = run(f"FLO.{t}.SH %r0, {r}1", col)
    for lane, x in enumerate(col):
        u = bits_of(t, x)
        assert popc[lane] == bin(u).count("1")
        assert brev[lane] == int(format(u, f"0{bits}b")[::-1], 2)
        searched = (~u & ((1 << bits) - 1)) if t[0] == "S" and u >> (bits - 1) else u
        position = searched.bit_length() - 1
        assert flo[lane] == (position if position >= 0 else 0xFFFFFFFF)
        assert shift[lane] == (bits - 1 - position if position >= 0 else 0xFFFFFFFF)


@pytest.mark.parametrize("t", ["S32", "U32", "S64", "U64"])
@pytest.mark.parametrize("cmp", ["EQ", "NE", "LT", "LE", "GT", "GE"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_isetp(cmp, t, data):
    bits = BITS[t]
    cols = data.draw(lanes(ints(bits), 2))
    r = REG[bits]
    got = run(f"ISETP.{cmp}.{t} %p0, {r}1, {r}2", *cols)
    py = {"EQ": "__eq__", "NE": "__ne__", "LT": "__lt__", "LE": "__le__", "GT": "__gt__", "GE": "__ge__"}[cmp]
    for lane, value in enumerate(got):
        a, b = c_value(t, cols[0][lane]), c_value(t, cols[1][lane])
        assert value == getattr(a, py)(b)


def test_integer_edge_cases():
    assert run("IDIV %r0, %r1, %r2", [-(1 << 31)], [-1]) == [1 << 31]          # INT_MIN / -1 wraps
    assert run("IREM %r0, %r1, %r2", [-(1 << 31)], [-1]) == [0]
    assert run("IDIV.U64 %rd0, %rd1, %rd2", [5], [0]) == [(1 << 64) - 1]       # x / 0 = all ones
    assert run("IREM.S64 %rd0, %rd1, %rd2", [-5], [0]) == [(1 << 64) - 1]      # x % 0 = all ones (the GPU's)
    # nvcc -O3's 64-bit division: its 32-bit path runs when both operands fit, giving 0xffffffff
    assert run("IDIV.S64.FAST32 %rd0, %rd1, %rd2", [7, -7, 0], [0, 0, 0]) == [0xFFFFFFFF, (1 << 64) - 1, 0xFFFFFFFF]
    assert run("IREM.U64.FAST32 %rd0, %rd1, %rd2", [7, (1 << 64) - 1], [0, 0]) == [0xFFFFFFFF, (1 << 64) - 1]
    assert run("IDIV.S64.FAST32 %rd0, %rd1, %rd2", [-(1 << 63)], [-1]) == [1 << 63]
    assert run("SHR.S32 %r0, %r1, %r2", [-8, 8], [32, 32]) == [0xFFFFFFFF, 0]   # sign fill
    assert run("SHL.U32 %r0, %r1, %r2", [1], [32]) == [0]
    assert run("IABS %r0, %r1", [-(1 << 31)]) == [1 << 31]
    assert run("IADD %rd0, %rd1, %rd2", [1 << 32], [1]) == [(1 << 32) + 1]     # %rd: 64-bit without .64


def test_imad_wide_widens_its_factors():
    """IMAD.WIDE d, a, b, c: a and b 32-bit, widened before the multiply; c and d 64-bit."""
    assert run("IMAD.WIDE.U32 %rd0, %r1, %r2, %rd3", [0xFFFFFFFF], [4], [1 << 40]) == [(1 << 40) + 4 * 0xFFFFFFFF]
    assert run("IMAD.WIDE.S32 %rd0, %r1, %r2, %rd3", [-1], [4], [0x1000]) == [0x1000 - 4]
    assert run("IMAD.WIDE.S32 %rd0, %r1, %r2, %rd3", [-(1 << 31)], [-1], [0]) == [1 << 31]   # no 32-bit wrap


def test_prmt_is_byte_perm():
    """PRMT d, a, selector, b: CUDA's __byte_perm(a, b, selector), the values of its manual."""
    a, b = 0x33221100, 0x77665544
    prmt = lambda selector: run("PRMT %r0, %r1, %r2, %r3", [a], [selector], [b])[0]
    assert prmt(0x3210) == a and prmt(0x7654) == b            # identity, then b alone
    assert prmt(0x0123) == 0x00112233                         # a's bytes reversed
    assert prmt(0x5140) == 0x55114400                         # interleaved
    assert prmt(0xCCCC) == 0x44444444 and prmt(0x8888) == 0   # a nibble's top bit is ignored
    assert prmt(0x76543210 | 0x12340000) == a                 # only the low 4 nibbles select
    with pytest.raises(UnsupportedOp):
        run("PRMT.U64 %rd0, %rd1, %rd2, %rd3", [a], [0x3210], [b])


# ---- floats --------------------------------------------------------------------------------
def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def as_f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def as_f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def same_f32(got_bits: int, expected: float) -> bool:
    if math.isnan(expected):
        return got_bits == 0x7FFFFFFF                                           # canonical NaN
    return got_bits == f32_bits(expected)


def same_f64(got_bits: int, expected: float) -> bool:
    if math.isnan(expected):
        return got_bits == 0x7FFFFFFFFFFFFFFF
    return got_bits == f64_bits(expected)


def nearest_f32(exact: Fraction) -> float:
    """exact rounded to f32, to nearest even (a reference free of double rounding)."""
    with np.errstate(over="ignore"):
        guess = np.float32(float(exact)) if abs(exact) < 2 ** 129 else np.float32(np.inf)
    if np.isinf(guess):
        top = Fraction(2) ** 128 - Fraction(2) ** 103             # halfway to 2^128
        if abs(exact) < top:
            return math.copysign(MAX_F32, exact)
        return math.copysign(math.inf, exact)
    with np.errstate(over="ignore"):   # the neighbours of MAX_F32 include infinity
        cands = [guess, np.nextafter(guess, np.float32(-np.inf)), np.nextafter(guess, np.float32(np.inf))]
    cands = [c for c in cands if np.isfinite(c)]
    key = lambda c: (abs(Fraction(float(c)) - exact), f32_bits(float(c)) & 1)
    best = float(min(cands, key=key))
    if best == 0:
        return math.copysign(0.0, exact) if exact != 0 else 0.0
    return best


f32s = st.one_of(st.floats(width=32), st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, MAX_F32,
                                                       1.401298464324817e-45, 1.0, -1.0]))
f64s = st.one_of(st.floats(), st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, 1e308, 5e-324]))

F32_BINARY = {"FADD": np.add, "FSUB": np.subtract, "FMUL": np.multiply, "FDIV": np.divide}


@pytest.mark.parametrize("op", sorted(F32_BINARY))
@settings(max_examples=150, deadline=None)
@given(cols=lanes(f32s, 2))
def test_f32_arithmetic_matches_numpy(op, cols):
    got = run(f"{op} %r0, %r1, %r2", *cols)
    with np.errstate(all="ignore"):
        for lane, bits in enumerate(got):
            expected = F32_BINARY[op](np.float32(cols[0][lane]), np.float32(cols[1][lane]))
            assert same_f32(bits, float(expected)), (op, cols[0][lane], cols[1][lane])


@pytest.mark.parametrize("op", ["DADD", "DSUB", "DMUL", "DDIV"])
@settings(max_examples=100, deadline=None)
@given(cols=lanes(f64s, 2))
def test_f64_arithmetic_matches_numpy(op, cols):
    got = run(f"{op} %rd0, %rd1, %rd2", *cols)
    fn = F32_BINARY["F" + op[1:]]
    with np.errstate(all="ignore"):
        for lane, bits in enumerate(got):
            assert same_f64(bits, float(fn(np.float64(cols[0][lane]), np.float64(cols[1][lane]))))


@settings(max_examples=300, deadline=None)
@given(cols=lanes(st.floats(width=32, allow_nan=False, allow_infinity=False), 3))
def test_ffma_rounds_once(cols):
    got = run("FFMA %r0, %r1, %r2, %r3", *cols)
    for lane, bits in enumerate(got):
        a, b, c = (col[lane] for col in cols)
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:
            continue   # the sign of an exact zero is checked in test_fma_zero_signs
        assert bits == f32_bits(nearest_f32(exact)), (a, b, c)


def test_ffma_is_fused():
    # (1 + 2^-12)^2 - (1 + 2^-11): the 2^-24 term survives only when fused
    a = 1 + 2 ** -12
    assert as_f32(run("FFMA %r0, %r1, %r2, %r3", [a], [a], [-(1 + 2 ** -11)])[0]) == 2 ** -24


def test_fma_negations_are_exact_before_the_one_rounding():
    # c - a*b and a*b - c as fma-contract writes them (SASS's FFMA d, -a, b, c / a, b, -c)
    a, c = 1 + 2 ** -12, 1 + 2 ** -11
    assert as_f32(run("FFMA.NEGP %r0, %r1, %r2, %r3", [a], [a], [c])[0]) == -2 ** -24
    assert as_f32(run("FFMA.NEGC %r0, %r1, %r2, %r3", [a], [a], [c])[0]) == 2 ** -24
    assert as_f32(run("FFMA.NEGP.NEGC %r0, %r1, %r2, %r3", [a], [a], [-c])[0]) == -2 ** -24
    assert as_f64(run("DFMA.NEGP %rd0, %rd1, %rd2, %rd3", [1 + 2 ** -30], [1 + 2 ** -30],
                      [1 + 2 ** -29])[0]) == -2 ** -60
    zero = run("FFMA.NEGP %r0, %r1, %r2, %r3", [1.0], [1.0], [1.0])[0]
    assert zero == 0                                              # an exact zero is +0, as c - a*b


@settings(max_examples=300, deadline=None)
@given(cols=lanes(st.floats(allow_nan=False, allow_infinity=False), 3))
def test_dfma_rounds_once(cols):
    got = run("DFMA %rd0, %rd1, %rd2, %rd3", *cols)
    for lane, bits in enumerate(got):
        a, b, c = (col[lane] for col in cols)
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:
            continue
        try:
            expected = float(exact)
        except OverflowError:                            # rounds past the largest double
            expected = math.inf if exact > 0 else -math.inf
        assert bits == f64_bits(expected), (a, b, c)


def test_fma_special_values():
    inf, nan = math.inf, math.nan
    got = run("DFMA %rd0, %rd1, %rd2, %rd3", [1e300, inf, 0.0, 2.0], [1e300, 0.0, 1.0, 3.0], [-inf, 1.0, nan, inf])
    assert [as_f64(b) for b in got[:1]] == [-inf]            # the exact product is finite
    assert got[1] == got[2] == 0x7FFFFFFFFFFFFFFF and as_f64(got[3]) == inf


@pytest.mark.parametrize("op,width", [("FFMA %r0, %r1, %r2, %r3", 32), ("DFMA %rd0, %rd1, %rd2, %rd3", 64)])
def test_fma_zero_signs(op, width):
    got = run(op, [-0.0, 0.0, 1.0, -0.0], [1.0, 1.0, -1.0, 1.0], [-0.0, -0.0, 1.0, 0.0])
    sign = 1 << (width - 1)
    assert [bool(b & sign) for b in got] == [True, False, False, False]


def test_float_min_max_and_negation():
    nan = math.nan
    mins = run("FMNMX.MIN %r0, %r1, %r2", [nan, 1.0, 0.0, -0.0, nan], [2.0, nan, -0.0, 0.0, nan])
    assert [as_f32(b) for b in mins[:2]] == [2.0, 1.0] and mins[2] == mins[3] == 0x80000000
    assert mins[4] == 0x7FFFFFFF
    maxs = run("DMNMX.MAX %rd0, %rd1, %rd2", [0.0, -0.0, -3.0], [-0.0, 0.0, nan])
    assert maxs == [0, 0, f64_bits(-3.0)]
    assert run("FNEG %r0, %r1", [0.0, 1.5]) == [0x80000000, f32_bits(-1.5)]
    assert run("DNEG %rd0, %rd1", [-0.0]) == [0]


@pytest.mark.parametrize("cmp", ["EQ", "NE", "LT", "LE", "GT", "GE"])
@settings(max_examples=60, deadline=None)
@given(cols=lanes(f32s, 2))
def test_fsetp_is_c_comparison(cmp, cols):
    got = run(f"FSETP.{cmp} %p0, %r1, %r2", *cols)
    py = {"EQ": "__eq__", "NE": "__ne__", "LT": "__lt__", "LE": "__le__", "GT": "__gt__", "GE": "__ge__"}[cmp]
    for lane, value in enumerate(got):
        assert value == getattr(float(cols[0][lane]), py)(float(cols[1][lane]))


def test_comparisons_with_nan():
    nan = math.nan
    for cmp in ("EQ", "LT", "LE", "GT", "GE"):
        assert run(f"FSETP.{cmp} %p0, %r1, %r2", [nan, 1.0, nan], [1.0, nan, nan]) == [False] * 3
        assert run(f"DSETP.{cmp} %p0, %rd1, %rd2", [nan], [nan]) == [False]
    assert run("FSETP.NE %p0, %r1, %r2", [nan, 1.0, nan], [1.0, nan, nan]) == [True] * 3
    assert run("DSETP.NE %p0, %rd1, %rd2", [nan, 0.0], [nan, -0.0]) == [True, False]


# ---- MUFU ----------------------------------------------------------------------------------
MUFU_REF = {"SQRT": math.sqrt, "EXP": math.exp, "EX2": lambda x: 2.0 ** x, "LOG": math.log, "LG2": math.log2,
            "LOG10": math.log10, "SIN": math.sin, "COS": math.cos, "TAN": math.tan, "ATAN": math.atan,
            "SINH": math.sinh, "COSH": math.cosh, "TANH": math.tanh, "FLOOR": math.floor, "CEIL": math.ceil,
            "TRUNC": math.trunc, "FABS": abs, "RCP": lambda x: 1.0 / x,
            "ROUND": lambda x: math.copysign(math.floor(abs(x) + 0.5), x)}


@pytest.mark.parametrize("fn", sorted(MUFU_REF))
@settings(max_examples=40, deadline=None)
@given(cols=lanes(st.floats(0.015625, 80.0, width=32), 1))
def test_mufu_f32_is_f64_math_rounded(fn, cols):
    got = run(f"MUFU.{fn} %r0, %r1", *cols)
    for lane, bits in enumerate(got):
        assert bits == f32_bits(float(np.float32(MUFU_REF[fn](cols[0][lane])))), (fn, cols[0][lane])


def test_mufu_special_cases():
    nan, inf = math.nan, math.inf
    assert [as_f32(b) for b in run("MUFU.POW %r0, %r1, %r2", [nan, 1.0, 2.0], [0.0, nan, 10.0])] == [1.0, 1.0, 1024.0]
    assert [as_f32(b) for b in run("MUFU.ROUND %r0, %r1", [2.5, -2.5, 0.49999997, -0.5])] == [3.0, -3.0, 0.0, -1.0]
    assert as_f64(run("MUFU.FMOD.F64 %rd0, %rd1, %rd2", [-7.5], [2.0])[0]) == -1.5
    assert as_f32(run("MUFU.ATAN2 %r0, %r1, %r2", [1.0], [0.0])[0]) == np.float32(math.pi / 2)
    assert run("MUFU.SQRT %r0, %r1", [-1.0]) == [0x7FFFFFFF]
    assert as_f32(run("MUFU.RSQ %r0, %r1", [0.0])[0]) == inf
    assert run("MUFU.FABS %r0, %r1", [-0.0]) == [0]
    with pytest.raises(UnsupportedOp):
        run("MUFU.BOGUS %r0, %r1", [1.0])


# ---- conversions ---------------------------------------------------------------------------
INT_TYPE_NAMES = ["S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64"]


def reg_of(t: str) -> str:
    return "%rd" if t in ("S64", "U64", "F64") else "%r"


def register_bits(t: str, value: int) -> int:
    """How a value of C type t sits in its register: extended to 32 or 64 bits."""
    width = 64 if t in ("S64", "U64") else 32
    return CTYPE[t](value).value & ((1 << width) - 1)


@pytest.mark.parametrize("dst", INT_TYPE_NAMES)
@pytest.mark.parametrize("src", INT_TYPE_NAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_i2i_all_pairs(dst, src, data):
    (col,) = data.draw(lanes(ints(64), 1))
    src_regs = [register_bits(src, v) for v in col]                 # canonical register contents
    got = run(f"I2I.{dst}.{src} {reg_of(dst)}0, {reg_of(src)}1", src_regs)
    for lane, bits in enumerate(got):
        assert bits == register_bits(dst, CTYPE[src](col[lane]).value), (dst, src, col[lane])


@pytest.mark.parametrize("dst", ["F32", "F64"])
@pytest.mark.parametrize("src", INT_TYPE_NAMES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_i2f_rounds_to_nearest(dst, src, data):
    (col,) = data.draw(lanes(ints(64), 1))
    got = run(f"I2F.{dst}.{src} {reg_of(dst)}0, {reg_of(src)}1", [register_bits(src, v) for v in col])
    for lane, bits in enumerate(got):
        value = CTYPE[src](col[lane]).value
        if dst == "F32":
            assert bits == f32_bits(nearest_f32(Fraction(value))), (src, value)
        else:
            assert bits == f64_bits(float(value))


def ref_f2i(x: float, t: str) -> int:
    bits = {"S8": 8, "U8": 8, "S16": 16, "U16": 16, "S32": 32, "U32": 32, "S64": 64, "U64": 64}[t]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t[0] == "S" else (0, (1 << bits) - 1)
    if math.isnan(x):   # an H100 gives 0, but a 64-bit signed integer's minimum
        return lo if t == "S64" else 0
    if math.isinf(x):
        return hi if x > 0 else lo
    return min(max(math.trunc(x), lo), hi)


@pytest.mark.parametrize("src", ["F32", "F64"])
@pytest.mark.parametrize("dst", INT_TYPE_NAMES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_f2i_truncates_and_saturates(dst, src, data):
    (col,) = data.draw(lanes(f32s if src == "F32" else f64s, 1))
    got = run(f"F2I.{dst}.{src} {reg_of(dst)}0, {reg_of(src)}1", col)
    for lane, bits in enumerate(got):
        x = float(np.float32(col[lane])) if src == "F32" else col[lane]
        assert bits == register_bits(dst, ref_f2i(x, dst)), (dst, src, x)


def test_conversion_edge_cases():
    nan, inf = math.nan, math.inf
    assert run("F2I.S32.F32 %r0, %r1", [nan, inf, -inf, 3e9, -3e9, -0.99]) == \
        [0, 0x7FFFFFFF, 0x80000000, 0x7FFFFFFF, 0x80000000, 0]
    assert run("F2I.U32.F32 %r0, %r1", [-1.0, -0.5, 4.5e9, 4294967040.0]) == [0, 0, 0xFFFFFFFF, 4294967040]
    assert run("F2I.U64.F64 %rd0, %rd1", [1.8446744073709552e19, -1e300, 9.3e18]) == \
        [(1 << 64) - 1, 0, 9300000000000000000]
    assert run("F2I.S64.F64 %rd0, %rd1", [-9.223372036854775808e18, 1e19]) == [1 << 63, (1 << 63) - 1]
    assert run("F2I.S8.F32 %r0, %r1", [300.0, -300.0]) == [127, 0xFFFFFF80]
    assert run("I2F.F32.U32 %r0, %r1", [-1]) == [f32_bits(4294967296.0)]        # negative bits, unsigned
    assert run("I2F.F32.S32 %r0, %r1", [-1]) == [f32_bits(-1.0)]
    assert run("I2I.U32.S8 %r0, %r1", [-1]) == [0xFFFFFFFF]                     # sign-extend, then unsigned
    assert run("I2I.U8.S32 %r0, %r1", [-1]) == [0xFF]
    assert run("I2I.S64.U32 %rd0, %r1", [-1]) == [0xFFFFFFFF]


@settings(max_examples=200, deadline=None)
@given(cols=lanes(f64s, 1))
def test_f2f_rounds_to_nearest(cols):
    narrowed = run("F2F.F32.F64 %r0, %rd1", *cols)
    for lane, bits in enumerate(narrowed):
        x = cols[0][lane]
        expected = x if math.isnan(x) or math.isinf(x) or x == 0 else (
            nearest_f32(Fraction(x)) if abs(x) < 2 ** 130 else math.copysign(math.inf, x))
        assert same_f32(bits, expected), x
    widened = run("F2F.F64.F32 %rd0, %r1", [float(np.float32(x)) for x in cols[0] if abs(x) < 1e38])
    assert all(same_f64(b, float(np.float32(x))) for b, x in zip(widened, [x for x in cols[0] if abs(x) < 1e38]))


# ---- moves, predicates, immediates, purity --------------------------------------------------
def test_moves_and_predicates():
    assert run("SEL %r0, %r1, %r2, %p0", [1, 1], [2, 2], [True, False]) == [1, 2]
    assert run("SEL %rd0, %rd1, %rd2, %p0", [-1], [2], [True]) == [(1 << 64) - 1]
    assert run("P2R %r0, %p0", [True, False]) == [1, 0]
    assert run("MOV %rd0, %rd1", [1 << 40]) == [1 << 40]
    assert run("MOV %p0, %p1", [True]) == [True]
    assert run("PLOP.AND %p0, %p1, %p2", [True, True], [True, False]) == [True, False]
    assert run("PLOP.OR %p0, %p1, %p2", [False, False], [True, False]) == [True, False]
    assert run("PLOP.XOR %p0, %p1, %p2", [True, True], [True, False]) == [False, True]
    assert run("PNOT %p0, %p1", [True, False]) == [False, True]


def test_operand_value_and_widths():
    assert operand_value(Imm(-1), 32) == np.uint32(0xFFFFFFFF)
    assert operand_value(Imm(-1), 64) == np.uint64((1 << 64) - 1)
    assert operand_value(Imm(1.5), 32) == np.uint32(f32_bits(1.5))
    assert operand_value(Imm(1.5), 64) == np.uint64(f64_bits(1.5))
    assert operand_value(Imm(0.1), 32) == np.uint32(f32_bits(0.1))              # rounded to f32
    assert operand_value(Imm(1), 1) == np.bool_(True)
    assert list(operand_value(Imm(3), 32, lanes=4)) == [3] * 4
    ins = parse_instr("SHL.U64 %rd0, %rd1, 3", 1)
    assert source_widths(ins) == [64, 32] and result_width(ins) == 64
    assert source_widths(parse_instr("F2I.S32.F64 %r0, %rd1", 1)) == [64]
    assert result_width(parse_instr("ISETP.LT %p0, %r1, %r2", 1)) == 1


def test_purity():
    pure = ["IADD %r0, %r1, %r2", "MOV %rd0, $table", "S2R %r0, SR_TID.X", "FSETP.LT %p0, %r1, %r2",
            "I2F.F32.S32 %r0, %r1", "MUFU.SIN %r0, %r1"]
    impure = ["LDG %r0, [%rd1]", "STG [%rd1], %r0", "S2R %r0, SR_CLOCKLO", "SHFL.DOWN %r0, %r1, 1, 32, -1",
              "BRA .L1", "ATOM.ADD %r0, [%rd1], %r2", "VOTE.ANY %r0, %r1, -1", "BAR.SYNC 0", "NOP"]
    assert all(is_pure(parse_instr(t, 1)) for t in pure)
    assert not any(is_pure(parse_instr(t, 1)) for t in impure)
    with pytest.raises(UnsupportedOp):
        evaluate(parse_instr("S2R %r0, SR_TID.X", 1), [np.uint32(0)])


def test_no_numpy_warnings():
    with np.errstate(all="raise"):
        run("FDIV %r0, %r1, %r2", [1.0, 0.0], [0.0, 0.0])
        run("IMUL %r0, %r1, %r2", [1 << 31], [4])
        run("F2I.S32.F32 %r0, %r1", [math.nan])
        run("IDIV %r0, %r1, %r2", [1], [0])

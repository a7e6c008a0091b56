"""What every pure opcode computes: the one definition the VM, the JIT's tests and
constant folding share.  It is over 800 lines because every family of the ISA table has
its evaluator here, one place for the bytecode's arithmetic.  The ISA table (minicuda/isa.py) gives each pure opcode a
family (`OpInfo.eval`); EVALUATORS maps the family to its evaluator here.

`evaluate(ins, srcs)` computes a pure instruction for a vector of lanes.  Each
source is a numpy array (or scalar) holding raw bit patterns: np.uint32 for a
32-bit value, np.uint64 for a 64-bit one, np.bool_ for a predicate.  Floats are
IEEE patterns, reinterpreted with .view(np.float32 / np.float64).  The result has
the same representation.  `source_widths(ins)` says which width each source is
read at (1 = predicate), so a caller turns an immediate into an array with
`operand_value(imm, width)`:

- an int immediate is its two's complement pattern, wrapped to the width;
- a float immediate is stored in the IEEE format of the operand's width: f32 bits
  for a 32-bit operand (every F* op, MUFU, F2F/F2I from F32), f64 bits for a
  64-bit one (D* ops, MUFU.F64, ...).  So write float constants as floats (`1.0`):
  an int immediate in a float op is a bit pattern (`1` is the smallest subnormal).

Choices the IR docstring leaves open, fixed here:

- Integer type: `.S32 .U32 .S64 .U64` (`.64` = `.S64`); with none, S32, except that
  an instruction with a virtual 64-bit register operand (`%rdN`) is 64-bit.
  Shift amounts are read as unsigned 32-bit; POPC and FLO give a 32-bit count.
  INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (wraparound); IABS.U* is the identity.
- Division by zero gives what the GPU gives (SASS does not trap; measured on an
  H100): x / 0 and x % 0 are all ones.  `.FAST32` on a 64-bit IDIV/IREM is nvcc
  -O3's code, which divides in 32 bits when both operands' upper halves are zero:
  there x / 0 and x % 0 are 0x00000000FFFFFFFF (docs/semantics.md).  Host code
  never gets here with a zero divisor: the VM raises SIGFPE first.
- FLO is PTX `bfind`: the bit position of the most significant 1 (.S*: of the most
  significant bit that differs from the sign), 0xFFFFFFFF when there is none;
  `.SH` gives the left shift amount instead (width - 1 - position).
- MOV, SEL and P2R have the width of their destination (`%rd` or a `.64`
  modifier: 64; a predicate: 1; otherwise 32); MOV between predicates is allowed.
- Float results that are NaN are canonical: 0x7FFFFFFF (f32), 0x7FFFFFFFFFFFFFFF
  (f64), so results do not depend on the host CPU.  FNEG, DNEG and MUFU.FABS only
  touch the sign bit.  FMNMX of +0 and -0: MIN gives -0, MAX gives +0.
- FFMA and DFMA round once (a true fused multiply-add); .NEGP negates the product,
  .NEGC the addend (SASS's FFMA d, -a, b, -c), exactly, before that one rounding.  MUFU on f32 computes in
  f64 and rounds to f32; its transcendental functions are the C library's (libm)
  double functions (sinf, expf, ...: correctly rounded), except the f32 forms in
  MUFU_LIBM_F32 (ERFC LGAMMA TGAMMA EXP10 ASINH ACOSH ATANH LOGB NEXTAFTER
  REMAINDER), which are libm's float functions (erfcf, ...).
  MUFU.<fn>.APPROX (SIN COS EX2 LG2 RCP RSQ, f32) is the GPU's own approximation that
  nvcc's fast intrinsics run, modelled on an H100's results (_mufu_approx below;
  docs/semantics.md gives how often it is the GPU's bit for bit); the intrinsics keep
  nvcc's instructions around it (__sinf is FMUL.RZ by 1/(2 pi), then MUFU.SIN), so the
  rounding of those steps is the GPU's.  FMUL.RZ rounds toward zero.  MUFU.ROUND rounds half away from
  zero (C `round`), MUFU.ATAN2 d, y, x and MUFU.POW d, x, y take C's argument order.
- Conversions: types S8 U8 S16 U16 live in 32-bit registers, sign- or zero-extended;
  a source is read from its low bits, a result is truncated then extended.  F2I
  rounds toward zero (.RN .RU .RD: to nearest even, up, down), then saturates to the
  destination type's range, NaN -> 0 (a 64-bit signed integer's: its minimum, as the GPU gives).
- SHF.L/.R.W/.C d, lo, amount, hi is the funnel shift of hi:lo (CUDA's __funnelshift_*).
- S2R is pure (reading a thread's own ids) but its value comes from the VM, not
  from here; SR_CLOCK* and SR_GLOBALTIMER* are not pure.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
from fractions import Fraction

import numpy as np

from minicuda.diagnostics import InternalError
from minicuda.ir import Imm, Instr, Label, Mem, Reg, Special, Str
from minicuda.isa import OPS


class UnsupportedOp(InternalError):
    """evaluate() has no meaning for this instruction (impure, or unknown modifiers)."""

    def __init__(self, ins: Instr, why: str):
        super().__init__("semantics", f"cannot evaluate {ins.opcode}: {why}")


_UINT = {32: np.uint32, 64: np.uint64}
FAST32 = "FAST32"   # the modifier of nvcc -O3's 64-bit division (a 32-bit path when both operands fit)
WIDE = "WIDE"       # IMAD.WIDE: a 32-bit multiply-add into 64 bits (is_wide_multiply)
_SINT = {32: np.int32, 64: np.int64}
_FLOAT = {32: np.float32, 64: np.float64}
_CANONICAL_NAN = {32: np.uint32(0x7FFFFFFF), 64: np.uint64(0x7FFFFFFFFFFFFFFF)}
_SIGN_BIT = {32: np.uint32(1 << 31), 64: np.uint64(1 << 63)}

INT_TYPES = {"S8": (8, True), "U8": (8, False), "S16": (16, True), "U16": (16, False),
             "S32": (32, True), "U32": (32, False), "S64": (64, True), "U64": (64, False)}
FLOAT_TYPES = {"F32": 32, "F64": 64}
COMPARISONS = ("EQ", "NE", "LT", "LE", "GT", "GE")
_STATEFUL_SPECIALS = ("SR_CLOCK", "SR_GLOBALTIMER")


# ---- what an instruction reads and writes ---------------------------------------------------
def is_pure(ins: Instr) -> bool:
    """No memory, no side effect, a value that depends only on the sources (S2R:
    on the thread's fixed ids): such an instruction may be removed, merged or moved."""
    inf = OPS.get(ins.op)
    if inf is None or inf.kind not in ("alu", "cmp", "conv") or inf.side_effects:
        return False
    for s in ins.srcs:   # (a loop: this runs for every instruction of every cleanup pass)
        if isinstance(s, (Mem, Str, Label)):
            return False
    if ins.op == "S2R":
        return not any(isinstance(s, Special) and s.name.startswith(_STATEFUL_SPECIALS) for s in ins.srcs)
    return True


def _reg_width(reg: Reg) -> int | None:
    if reg.is_pred:
        return 1
    if reg.is_virtual:
        return 64 if reg.is_wide else 32
    return None   # RZ, or a physical register whose width the op must say


def dst_width(ins: Instr) -> int:
    """Width of MOV / SEL / P2R: their destination's."""
    if "64" in ins.mods:
        return 64
    return (_reg_width(ins.dsts[0]) if ins.dsts else None) or 32


def int_type(ins: Instr) -> tuple[int, bool]:
    """(bits, signed) of an integer op or ISETP."""
    for m in ins.mods:
        if m in ("S32", "U32", "S64", "U64"):
            return INT_TYPES[m]
    if "64" in ins.mods:
        return 64, True
    regs = [r for r in ins.dsts + ins.srcs if isinstance(r, Reg)]
    return (64 if any(r.is_virtual and r.is_wide for r in regs) else 32), True


def float_width(ins: Instr) -> int:
    if ins.op.startswith("D") or "F64" in ins.mods:
        return 64
    return 32


def conversion_types(ins: Instr) -> tuple[str, str]:
    """(destination type, source type) of I2F F2I F2F I2I."""
    types = [m for m in ins.mods if m in INT_TYPES or m in FLOAT_TYPES]
    defaults = {"I2F": ("F32", "S32"), "F2I": ("S32", "F32")}
    if len(types) == 2:
        dst, src = types
    elif len(types) == 1 and ins.op in defaults:
        given_is_dst = (types[0] in FLOAT_TYPES) == (ins.op == "I2F")   # I2F.F64, F2I.U32
        dst, src = (types[0], defaults[ins.op][1]) if given_is_dst else (defaults[ins.op][0], types[0])
    elif not types and ins.op in defaults:
        dst, src = defaults[ins.op]
    else:
        raise UnsupportedOp(ins, "needs destination and source types")
    want = {"I2F": (FLOAT_TYPES, INT_TYPES), "F2I": (INT_TYPES, FLOAT_TYPES),
            "F2F": (FLOAT_TYPES, FLOAT_TYPES), "I2I": (INT_TYPES, INT_TYPES)}[ins.op]
    if dst not in want[0] or src not in want[1]:
        raise UnsupportedOp(ins, f"bad types {dst}.{src}")
    return dst, src


def type_width(t: str) -> int:
    """Register width holding a value of type t."""
    return 64 if t in ("S64", "U64", "F64") else 32


def family(ins: Instr) -> str:
    """The pure-op family its row names (isa.OpInfo.eval): the key of EVALUATORS."""
    row = OPS.get(ins.op)
    if row is None or not row.eval:
        raise UnsupportedOp(ins, "not a pure value op" if ins.op != "S2R" else "S2R is the VM's")
    return row.eval


def source_widths(ins: Instr) -> list[int]:
    """Width each source operand is read at: 1 (predicate), 32 or 64."""
    group, n = family(ins), len(ins.srcs)
    if group in ("mov", "sel", "p2r"):
        return {"mov": [dst_width(ins)], "sel": [dst_width(ins)] * 2 + [1], "p2r": [1]}[group]
    if group in ("plop", "pnot"):
        return [1] * n
    if group == "convert":
        return [type_width(conversion_types(ins)[1])]
    if group in ("float", "mufu", "fsetp"):
        return [float_width(ins)] * n
    bits = int_type(ins)[0]   # int, isetp
    if is_wide_multiply(ins):
        return [32, 32, 64]
    return [bits, 32] if ins.op in ("SHL", "SHR") else [bits] * n


def is_wide_multiply(ins: Instr) -> bool:
    """IMAD.WIDE.U32 / IMAD.WIDE.S32 d, a, b, c: d (64 bits) = a * b + c, a and b 32-bit
    values widened (zero- or sign-extended) to 64 bits first: SASS's address formation
    (`&p[i]` is IMAD.WIDE d, i, sizeof *p, p)."""
    return ins.op == "IMAD" and WIDE in ins.mods


def result_width(ins: Instr) -> int:
    group = family(ins)
    if OPS[ins.op].kind == "cmp":
        return 1
    if group in ("mov", "sel", "p2r"):
        return dst_width(ins)
    if group == "convert":
        return type_width(conversion_types(ins)[0])
    if ins.op in ("POPC", "FLO"):
        return 32
    if is_wide_multiply(ins):
        return 64
    return source_widths(ins)[0]


def operand_value(imm: Imm | int | float, width: int, lanes: int | None = None) -> np.ndarray:
    """An immediate as the bit pattern an operand of `width` bits holds (see above)."""
    v = imm.value if isinstance(imm, Imm) else imm
    with np.errstate(all="ignore"):
        if width == 1:
            out = np.bool_(bool(v))
        elif isinstance(v, float):
            out = _FLOAT[width](v).view(_UINT[width])
        else:
            out = _UINT[width](int(v) & ((1 << width) - 1))
    return np.full(lanes, out) if lanes is not None else np.asarray(out)


# ---- flush to zero (nvcc -ftz=true) ----------------------------------------------------------
# The f32 instructions that take the FTZ modifier: each f32 operand that is subnormal is
# read as a zero of its sign, and a subnormal f32 result is written as a zero of its sign.
# FMUL decides before rounding, as an H100 does (tests/data/groundtruth/cuda/out/
# features.txt: 0x3f7fffff * 0x00800000 is 0, not the 0x00800000 it rounds to): an exact
# result smaller than 2^-126 is a zero of its sign; the others, FFMA among them, flush a
# rounded result whose exponent field is 0 (cuda_features/damped_springs under
# -use_fast_math prints the H100's values only so).  F2F flushes its f32 side (the result of F2F.F32.F64; nvcc
# flushes the source of a widening conversion with an FMUL.FTZ by 1 instead), F2I its
# source (__float2int_ru of a subnormal is 0).  Flushing is on the bits, so NaN payloads
# and every normal value pass unchanged.
FTZ = "FTZ"
FTZ_OPS = ("FADD", "FSUB", "FMUL", "FFMA", "FDIV", "FNEG", "FMNMX", "MUFU", "FSETP", "F2F", "F2I")
_F32_EXPONENT, _F32_SIGN = np.uint32(0x7F800000), np.uint32(0x80000000)


def takes_ftz(op: str, mods) -> bool:
    """An instruction that -ftz=true marks FTZ: an f32 one of FTZ_OPS (F2F between f32 and f64)."""
    if op not in FTZ_OPS or FTZ in mods:
        return False
    if op == "F2F":
        return mods[:2] == ("F32", "F64")
    if op == "F2I":
        return "F32" in mods
    return "F64" not in mods


def with_ftz(op: str, mods: tuple) -> tuple:
    """mods with FTZ where nvcc prints it: after FSETP's comparison, at MUFU's end, else first."""
    if op == "FSETP":
        return mods[:1] + (FTZ,) + mods[1:]
    return mods + (FTZ,) if op == "MUFU" else (FTZ,) + mods


def ftz_sides(ins: Instr) -> tuple[list[bool], bool]:
    """Which sources, and whether the result, an FTZ instruction flushes (f32 values)."""
    if ins.op in ("F2F", "F2I"):
        dst, src = conversion_types(ins)
        return [src == "F32"] * len(ins.srcs), dst == "F32"
    f32 = float_width(ins) == 32
    return [f32] * len(ins.srcs), f32 and ins.op != "FSETP"


def flush_bits(x: np.ndarray) -> np.ndarray:
    """f32 bits with a subnormal made a zero of its sign."""
    x = x.astype(np.uint32, copy=False)
    return np.where((x & _F32_EXPONENT) == 0, x & _F32_SIGN, x)


# ---- evaluation ------------------------------------------------------------------------
def evaluate(ins: Instr, srcs: list) -> np.ndarray:
    """The value a pure instruction writes, lane by lane (raw bits, see the docstring)."""
    impl = EVALUATORS[family(ins)]
    if len(srcs) != len(ins.srcs):
        raise UnsupportedOp(ins, f"{len(srcs)} source values for {len(ins.srcs)} operands")
    values = [np.asarray(s) for s in srcs]
    if FTZ not in ins.mods:
        with np.errstate(all="ignore"):
            return np.asarray(impl(ins, values))
    if ins.op not in FTZ_OPS:
        raise UnsupportedOp(ins, f"FTZ is a modifier of {', '.join(FTZ_OPS)} only")
    flush_sources, flush_result = ftz_sides(ins)
    values = [flush_bits(v) if f else v for v, f in zip(values, flush_sources)]
    with np.errstate(all="ignore"):
        result = np.asarray(impl(ins, values))
        if ins.op == "FMUL" and flush_result:
            result = np.where(_tiny_before_rounding(ins.op, values), _exact_sign(ins.op, values), result)
    return flush_bits(result) if flush_result else result


def _exact_terms(op: str, values: list) -> tuple:
    """FMUL's exact product (f64, err 0) or FFMA's exact a*b + c as s + err (f64 two-sum)."""
    x = [_floats(v, 32).astype(np.float64) for v in values]
    product = x[0] * x[1]                                # exact: 24 + 24 bits
    if op == "FMUL":
        return product, np.zeros_like(product)
    return _two_sum(product, x[2])


def _tiny_before_rounding(op: str, values: list) -> np.ndarray:
    """The exact result is nonzero and smaller than 2^-126 (s rounds the exact s + err to
    nearest, so it is tiny iff |s| < 2^-126, or |s| = 2^-126 and err points inward)."""
    s, err = _exact_terms(op, values)
    size = np.abs(s)
    inward = (size == SMALLEST_NORMAL32) & (err != 0) & ((err < 0) == (s > 0))
    return (s != 0) & np.isfinite(s) & ((size < SMALLEST_NORMAL32) | inward)


def _exact_sign(op: str, values: list) -> np.ndarray:
    s, _ = _exact_terms(op, values)
    return np.where(np.signbit(s), _F32_SIGN, np.uint32(0))


def modifier(ins: Instr, choices) -> str:
    for m in ins.mods:
        if m in choices:
            return m
    raise UnsupportedOp(ins, f"needs one of {', '.join(choices)}")


def _as_width(x: np.ndarray, width: int) -> np.ndarray:
    return x.astype(np.bool_ if width == 1 else _UINT[width], copy=False)


# moves ------------------------------------------------------------------------------------
def _mov(ins, s):
    return _as_width(s[0], dst_width(ins))


def _sel(ins, s):
    w = dst_width(ins)
    return np.where(s[2].astype(bool), _as_width(s[0], w), _as_width(s[1], w))


def _p2r(ins, s):
    return s[0].astype(bool).astype(_UINT[dst_width(ins)])


# integers ---------------------------------------------------------------------------------
def _int_op(ins, s):
    bits, signed = int_type(ins)
    u = _UINT[bits]
    x = [v.astype(u, copy=False) for v in s]
    if ins.op in ("SHL", "SHR"):
        return _shift(ins.op, x[0], s[1].astype(np.uint64, copy=False), bits, signed)
    if ins.op in ("IDIV", "IREM"):
        return _divide(ins.op, x[0], x[1], bits, signed, FAST32 in ins.mods)
    if ins.op == "IMULHI":
        return _mulhi(x[0], x[1], bits, signed)
    if is_wide_multiply(ins):
        a, b = (_widen(v, signed) for v in x[:2])
        return a * b + s[2].astype(np.uint64, copy=False)
    if ins.op == "SHF":
        if bits != 32:
            raise UnsupportedOp(ins, "SHF funnels two 32-bit registers")
        return _shf(ins, x[0], s[1].astype(np.uint32, copy=False), x[2])
    if ins.op == "PRMT":
        if bits != 32:
            raise UnsupportedOp(ins, "PRMT permutes the bytes of 32-bit registers")
        return _prmt(x[0], x[1], x[2])
    sv = [v.view(_SINT[bits]) for v in x] if signed else x   # for ordering
    if ins.op == "IMNMX":
        pick_a = (sv[0] < sv[1]) if modifier(ins, ("MIN", "MAX")) == "MIN" else (sv[0] > sv[1])
        return np.where(pick_a, x[0], x[1])
    if ins.op == "IABS":
        return np.where(sv[0] < 0, u(0) - x[0], x[0]) if signed else x[0]
    if ins.op == "LOP":
        fn = {"AND": np.bitwise_and, "OR": np.bitwise_or, "XOR": np.bitwise_xor}[modifier(ins, ("AND", "OR", "XOR"))]
        return fn(x[0], x[1])
    if ins.op in ("POPC", "FLO", "BREV"):
        return {"POPC": _popc, "FLO": _flo, "BREV": _brev}[ins.op](ins, x[0], bits, signed)
    simple = {"IADD": lambda: x[0] + x[1], "ISUB": lambda: x[0] - x[1], "IMUL": lambda: x[0] * x[1],
              "IMAD": lambda: x[0] * x[1] + x[2], "INEG": lambda: u(0) - x[0], "NOT": lambda: ~x[0]}
    return simple[ins.op]()


def _widen(x32: np.ndarray, signed: bool) -> np.ndarray:
    """A 32-bit value's bits as 64 bits, sign- or zero-extended."""
    return x32.view(np.int32).astype(np.int64).view(np.uint64) if signed else x32.astype(np.uint64)


def _shift(op, a, amount, bits, signed):
    u = _UINT[bits]
    clamped = np.minimum(amount, np.uint64(bits - 1)).astype(u)
    if op == "SHR" and signed:
        return (a.view(_SINT[bits]) >> clamped.view(_SINT[bits])).view(u)
    moved = (a << clamped) if op == "SHL" else (a >> clamped)
    return np.where(amount >= np.uint64(bits), u(0), moved)


def _divide(op, a, b, bits, signed, fast32=False):
    u = _UINT[bits]
    zero = b == u(0)
    safe_b = np.where(zero, u(1), b)
    if not signed:
        q, r = a // safe_b, a % safe_b
    else:
        neg_a, neg_b = a.view(_SINT[bits]) < 0, safe_b.view(_SINT[bits]) < 0
        abs_a, abs_b = np.where(neg_a, u(0) - a, a), np.where(neg_b, u(0) - safe_b, safe_b)
        q, r = abs_a // abs_b, abs_a % abs_b
        q = np.where(neg_a != neg_b, u(0) - q, q)
        r = np.where(neg_a, u(0) - r, r)
    return np.where(zero, division_by_zero(a, b, bits, fast32), q if op == "IDIV" else r)


def division_by_zero(a, b, bits: int, fast32: bool = False):
    """What the GPU's x / 0 and x % 0 give: all ones; under .FAST32 (64-bit, nvcc -O3)
    0xFFFFFFFF when both operands' upper halves are zero (its 32-bit path ran)."""
    u = _UINT[bits]
    ones = u((1 << bits) - 1)
    if bits != 64 or not fast32:
        return ones
    narrow = ((a | b) >> u(32)) == u(0)
    return np.where(narrow, u(0xFFFFFFFF), ones)


def _mulhi(a, b, bits, signed):
    if bits == 32:
        if signed:
            wide = a.view(np.int32).astype(np.int64) * b.view(np.int32).astype(np.int64)
            return (wide >> np.int64(32)).astype(np.uint32)
        return ((a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(32)).astype(np.uint32)
    m32, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    a_lo, a_hi, b_lo, b_hi = a & m32, a >> s32, b & m32, b >> s32
    lh, hl = a_lo * b_hi, a_hi * b_lo
    mid = ((a_lo * b_lo) >> s32) + (lh & m32) + (hl & m32)
    hi = a_hi * b_hi + (lh >> s32) + (hl >> s32) + (mid >> s32)
    if signed:   # (a - 2^64 [a<0]) * (b - 2^64 [b<0]): subtract the cross terms
        hi = hi - np.where(a.view(np.int64) < 0, b, np.uint64(0)) - np.where(b.view(np.int64) < 0, a, np.uint64(0))
    return hi


def _prmt(a, selector, b):
    """Byte n of the result is byte (selector >> 4n) & 7 of the eight bytes b:a (a's
    bytes are 0..3, b's 4..7): the default mode of SASS PRMT, CUDA's __byte_perm."""
    both = a.astype(np.uint64) | (b.astype(np.uint64) << np.uint64(32))
    out = np.zeros_like(a)
    for n in range(4):
        index = ((selector >> np.uint32(4 * n)) & np.uint32(7)).astype(np.uint64)
        byte = ((both >> (index * np.uint64(8))) & np.uint64(0xFF)).astype(np.uint32)
        out = out | (byte << np.uint32(8 * n))
    return out


def _shf(ins, lo, amount, hi):
    """SHF.L/.R d, lo, amount, hi: the 64-bit hi:lo shifted left (the high word kept:
    __funnelshift_l) or right (the low word: __funnelshift_r) by the amount, taken
    modulo 32 under .W (wrap) or clamped to 32 under .C."""
    n = (amount & np.uint32(31)) if modifier(ins, ("W", "C")) == "W" else np.minimum(amount, np.uint32(32))
    both = lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))
    n = n.astype(np.uint64)
    if modifier(ins, ("L", "R")) == "L":
        return ((both << n) >> np.uint64(32)).astype(np.uint32)
    return ((both >> n) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _bit(x, i, bits):
    return (x >> _UINT[bits](i)) & _UINT[bits](1)


def _popc(ins, x, bits, signed):
    return sum(_bit(x, i, bits).astype(np.uint32) for i in range(bits))


def _flo(ins, x, bits, signed):
    if signed:
        x = np.where(x.view(_SINT[bits]) < 0, ~x, x)
    none = np.uint32(0xFFFFFFFF)
    pos = np.full(x.shape, none)
    for i in range(bits):
        pos = np.where(_bit(x, i, bits) != 0, np.uint32(i), pos)
    if "SH" in ins.mods:
        return np.where(pos == none, none, np.uint32(bits - 1) - pos)
    return pos


def _brev(ins, x, bits, signed):
    out = np.zeros_like(x)
    for i in range(bits):
        out = out | (_bit(x, i, bits) << _UINT[bits](bits - 1 - i))
    return out


# floating point ---------------------------------------------------------------------------
def _floats(x: np.ndarray, width: int) -> np.ndarray:
    return x.astype(_UINT[width], copy=False).view(_FLOAT[width])


def _bits(value: np.ndarray, width: int) -> np.ndarray:
    """A float result as bits, NaN made canonical."""
    value = np.asarray(value, dtype=_FLOAT[width])
    return np.where(np.isnan(value), _CANONICAL_NAN[width], value.view(_UINT[width]))


def _float_op(ins, s):
    w = float_width(ins)
    base = ins.op[1:]                                   # FADD / DADD -> ADD
    if base == "NEG":
        return s[0].astype(_UINT[w], copy=False) ^ _SIGN_BIT[w]
    x = [_floats(v, w) for v in s]
    if base == "FMA":
        x = _fma_signs(ins, x)
        return _bits(_fma32(*x) if w == 32 else _fma64(*x), w)
    if base == "MNMX":
        return _min_max(modifier(ins, ("MIN", "MAX")), x[0], x[1], w)
    if base == "MUL" and "RZ" in ins.mods and w == 32:
        return _bits(_multiply_toward_zero(x[0], x[1]), w)
    fn = {"ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "DIV": np.divide}[base]
    return _bits(fn(x[0], x[1]), w)


def _multiply_toward_zero(a, b):
    """FMUL.RZ: the f32 product rounded toward zero.  The f64 product of two floats
    is exact; where rounding it to nearest grew its magnitude, step one float back
    toward zero (an overflow to infinity becomes the largest float)."""
    exact = a.astype(np.float64) * b.astype(np.float64)
    nearest = exact.astype(np.float32)
    grew = np.isfinite(exact) & (np.abs(nearest.astype(np.float64)) > np.abs(exact))
    return np.where(grew, np.nextafter(nearest, np.float32(0)), nearest)


def _min_max(which, a, b, w):
    # fmin/fmax spelled out: numpy's own ufuncs treat a signalling NaN differently
    # inside and outside their SIMD blocks, so a lane's result would depend on its index
    pick = np.minimum(a, b) if which == "MIN" else np.maximum(a, b)
    value = np.where(np.isnan(a), b, np.where(np.isnan(b), a, pick))
    ab, bb = a.view(_UINT[w]), b.view(_UINT[w])
    zeros = (a == 0) & (b == 0)                         # -0 < +0 for the choice
    signed_zero = (ab | bb) if which == "MIN" else (ab & bb)
    return np.where(zeros, signed_zero, _bits(value, w))


def _round_to_odd(s, err):
    """s = RN(x + y) with err = x + y - s exactly: the same sum rounded to odd."""
    even = (s.view(np.uint64) & np.uint64(1)) == 0
    bump = np.isfinite(s) & (err != 0) & even
    return np.where(bump, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fma_signs(ins, x: list) -> list:
    """FFMA/DFMA's operands with .NEGP (negate the product) and .NEGC (the addend) applied:
    SASS's FFMA d, -a, b, -c, which fma-contract makes of c - a*b and a*b - c."""
    if "NEGP" in ins.mods:
        x[0] = -x[0]
    if "NEGC" in ins.mods:
        x[2] = -x[2]
    return x


def _fma32(a, b, c):
    """f32 a*b + c rounded once: the product is exact in f64, the sum is rounded to
    odd there (53 >= 2*24 + 2 bits), so the final rounding to f32 is correct."""
    p = a.astype(np.float64) * b.astype(np.float64)
    s, err = _two_sum(p, c.astype(np.float64))
    return np.where(np.isfinite(s), _round_to_odd(s, err), p + c.astype(np.float64)).astype(np.float32)


def _split(x):
    t = x * 134217729.0                                 # 2^27 + 1 (Veltkamp)
    hi = t - (t - x)
    return hi, x - hi


def _fma64(a, b, c):
    """f64 a*b + c rounded once (Boldo and Melquiond's emulation with rounding to
    odd); lanes near overflow or underflow are computed exactly with Fractions."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    a, b, c = (np.array(v, dtype=np.float64).reshape(-1) for v in np.broadcast_arrays(a, b, c))
    in_range = [(np.abs(v) <= 2.0 ** 480) & (np.abs(v) >= 2.0 ** -480) for v in (a, b)]
    safe = in_range[0] & in_range[1] & (np.abs(c) <= 2.0 ** 1000)
    a1, b1, c1 = np.where(safe, a, 1.0), np.where(safe, b, 1.0), np.where(safe, c, 0.0)
    (ah, al), (bh, bl) = _split(a1), _split(b1)
    uh = a1 * b1
    ul = ((ah * bh - uh) + ah * bl + al * bh) + al * bl     # uh + ul = a * b exactly
    th, tl = _two_sum(c1, uh)
    out = th + _round_to_odd(*_two_sum(tl, ul))
    finite_ab = np.isfinite(a) & np.isfinite(b)
    out = np.where(finite_ab & np.isfinite(c), out, np.where(finite_ab, c, a * b + c))
    for i in np.nonzero(finite_ab & np.isfinite(c) & ~safe)[0]:
        out[i] = _fma_exact(float(a[i]), float(b[i]), float(c[i]))
    return out.reshape(shape)


def _fma_exact(a: float, b: float, c: float) -> float:
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:   # +0, unless a negative zero product meets -0
        negative = (a == 0 or b == 0) and c == 0 and np.signbit(a) != np.signbit(b) and np.signbit(c)
        return -0.0 if negative else 0.0
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


# MUFU -------------------------------------------------------------------------------------
# The transcendental functions are the C library's double functions (glibc libm), called
# lane by lane through ctypes, never numpy's own SIMD versions: their last bit may differ
# with the CPU, and the JIT (vm/jit/ops.py) calls these same libm functions.  The exact
# functions (sqrt, 1/x, 1/sqrt, floor, ..., fmod, copysign) stay numpy: correctly rounded.
LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
LIBM_ARITY = {"sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "sinh": 1, "cosh": 1,
              "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1, "exp": 1, "exp2": 1, "expm1": 1,
              "log": 1, "log2": 1, "log10": 1, "log1p": 1, "cbrt": 1, "pow": 2, "atan2": 2, "hypot": 2,
              "fmod": 2, "erf": 1, "erfc": 1, "lgamma": 1, "tgamma": 1, "exp10": 1, "logb": 1,
              "nextafter": 2, "remainder": 2}
# MUFU function -> (libm function, constant leading arguments)
MUFU_LIBM = {
    "EXP": ("exp", ()), "EX2": ("exp2", ()), "EXP10": ("exp10", ()), "EXPM1": ("expm1", ()),
    "LOG": ("log", ()), "LG2": ("log2", ()), "LOG10": ("log10", ()), "LOG1P": ("log1p", ()),
    "SIN": ("sin", ()), "COS": ("cos", ()), "TAN": ("tan", ()), "ASIN": ("asin", ()), "ACOS": ("acos", ()),
    "ATAN": ("atan", ()), "SINH": ("sinh", ()), "COSH": ("cosh", ()), "TANH": ("tanh", ()),
    "ASINH": ("asinh", ()), "ACOSH": ("acosh", ()), "ATANH": ("atanh", ()), "CBRT": ("cbrt", ()),
    "POW": ("pow", ()), "ATAN2": ("atan2", ()), "HYPOT": ("hypot", ()), "ERF": ("erf", ()),
    "ERFC": ("erfc", ()), "LGAMMA": ("lgamma", ()), "TGAMMA": ("tgamma", ()), "LOGB": ("logb", ()),
    "NEXTAFTER": ("nextafter", ()), "REMAINDER": ("remainder", ()),
}
# The functions whose f32 form is libm's float function (erfcf, ...), not the double one
# rounded: glibc's own float results, bit for bit, as a host program gets them.  For
# NEXTAFTER the f32 step is the f32 function's by definition; REMAINDER and LOGB are exact
# either way.
MUFU_LIBM_F32 = {"EXP10": "exp10f", "ERFC": "erfcf", "LGAMMA": "lgammaf", "TGAMMA": "tgammaf",
                 "ASINH": "asinhf", "ACOSH": "acoshf", "ATANH": "atanhf", "LOGB": "logbf",
                 "NEXTAFTER": "nextafterf", "REMAINDER": "remainderf"}


def libm_function(name: str):
    """libm's `double name(double[, double])` as a ctypes function."""
    fn = getattr(LIBM, name)
    fn.restype = ctypes.c_double
    fn.argtypes = [ctypes.c_double] * LIBM_ARITY[name]
    return fn


def libm_float_function(name: str):
    """libm's `float name(float[, float])` (name ends in f) as a ctypes function."""
    fn = getattr(LIBM, name)
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float] * LIBM_ARITY[name[:-1]]
    return fn


def _libm_f32(fn: str, args: list) -> np.ndarray:
    """MUFU_LIBM_F32[fn] of f32 arrays, lane by lane: an f32 array."""
    call = libm_float_function(MUFU_LIBM_F32[fn])
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=np.float32) for a in args))
    columns = [a.ravel().tolist() for a in arrays]
    out = np.array([call(*xs) for xs in zip(*columns)], dtype=np.float32)
    return out.reshape(arrays[0].shape)


def _libm_call(name: str, constants: tuple = ()):
    fn = libm_function(name)

    def apply(*args):
        arrays = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in args))
        columns = [a.ravel().tolist() for a in arrays]
        out = np.array([fn(*constants, *xs) for xs in zip(*columns)], dtype=np.float64)
        return out.reshape(arrays[0].shape)
    return apply


def _round_half_away(x):
    r = np.floor(np.abs(x))
    r = r + ((np.abs(x) - r) >= 0.5)
    return np.copysign(r, x)


_MUFU_EXACT_UNARY = {
    "SQRT": np.sqrt, "RSQ": lambda x: 1.0 / np.sqrt(x), "RCP": lambda x: 1.0 / x,
    "FLOOR": np.floor, "CEIL": np.ceil, "ROUND": _round_half_away, "TRUNC": np.trunc, "RINT": np.rint,
}
_MUFU_EXACT_BINARY = {"FMOD": np.fmod, "COPYSIGN": np.copysign}
MUFU_UNARY = {**_MUFU_EXACT_UNARY,
              **{fn: _libm_call(name, k) for fn, (name, k) in MUFU_LIBM.items() if LIBM_ARITY[name] - len(k) == 1}}
MUFU_BINARY = {**_MUFU_EXACT_BINARY,
               **{fn: _libm_call(name, k) for fn, (name, k) in MUFU_LIBM.items() if LIBM_ARITY[name] - len(k) == 2}}


# The GPU's own approximations, MUFU.<fn>.APPROX (f32 only): what nvcc's fast intrinsics
# (__sinf, __expf, rsqrtf, ...) run.  A model fitted to an H100's results
# (tests/data/groundtruth/): the input is flushed to zero if subnormal, SIN and COS take
# their operand in turns (revolutions), cut to SIN_TURN_BITS fraction bits (a smaller
# nonzero turn gives sin 0), and the result is the correctly rounded value of that, a
# subnormal result flushed to zero.  The GPU's interpolator differs in the last bits on
# part of the inputs (docs/semantics.md gives the measured rates and bounds).
MUFU_APPROX = ("SIN", "COS", "EX2", "LG2", "RCP", "RSQ")
SIN_TURN_BITS = 25
SMALLEST_NORMAL32 = 2.0 ** -126


def flush_subnormal(x: np.ndarray) -> np.ndarray:
    """x with each subnormal replaced by a zero of its sign (the dtype kept)."""
    return np.where(np.abs(x) < SMALLEST_NORMAL32, np.copysign(x.dtype.type(0), x), x)


def turn_fraction(t: np.ndarray) -> np.ndarray:
    """The part of t (f64 turns) that MUFU.SIN / COS reads: cut toward zero to
    SIN_TURN_BITS fraction bits, whole turns dropped (in [-1/2, 1/2]), a zero signed
    like t.  Every step is exact in f64."""
    scale = float(2 ** SIN_TURN_BITS)
    cut = np.trunc(t * scale) / scale
    fraction = cut - np.rint(cut)
    return np.where(fraction == 0, np.copysign(0.0, t), fraction)


def _mufu_approx(fn: str, bits: np.ndarray) -> np.ndarray:
    x = flush_subnormal(_floats(bits, 32)).astype(np.float64)
    if fn in ("SIN", "COS"):
        fraction = turn_fraction(x)
        exact = MUFU_UNARY[fn](fraction * (2 * math.pi))
        # the zeros of sin (half turns) and cos (quarter turns) are exact, signed as measured
        zero = np.abs(fraction) == (0.5 if fn == "SIN" else 0.25)
        exact = np.where(zero, np.copysign(0.0, -(x if fn == "SIN" else x * fraction)), exact)
    elif fn in ("EX2", "LG2"):
        exact = MUFU_UNARY[fn](x)
    else:
        exact = _MUFU_EXACT_UNARY[fn](x)
    return _bits(flush_subnormal(np.asarray(exact).astype(np.float32)), 32)


def _mufu(ins, s):
    w = float_width(ins)
    fn = modifier(ins, tuple(MUFU_UNARY) + tuple(MUFU_BINARY) + ("FABS",))
    if "APPROX" in ins.mods:
        if fn not in MUFU_APPROX or w != 32 or len(s) != 1:
            raise UnsupportedOp(ins, f"APPROX is the f32 {', '.join(MUFU_APPROX)} of one operand")
        return _mufu_approx(fn, s[0])
    if fn == "FABS":
        return s[0].astype(_UINT[w], copy=False) & ~_SIGN_BIT[w]
    table = MUFU_BINARY if fn in MUFU_BINARY else MUFU_UNARY
    if len(s) != (2 if table is MUFU_BINARY else 1):
        raise UnsupportedOp(ins, f"{fn} takes {2 if table is MUFU_BINARY else 1} operands")
    if w == 32 and fn in MUFU_LIBM_F32:
        return _bits(_libm_f32(fn, [_floats(v, w) for v in s]), w)
    args = [_floats(v, w).astype(np.float64) for v in s]
    return _bits(np.asarray(table[fn](*args)).astype(_FLOAT[w]), w)


# comparisons and predicates -------------------------------------------------------------
_COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
            "GT": np.greater, "GE": np.greater_equal}


def _setp(ins, s):
    cmp = _COMPARE[modifier(ins, COMPARISONS)]
    if ins.op == "ISETP":
        bits, signed = int_type(ins)
        a, b = (v.astype(_UINT[bits], copy=False) for v in s)
        return cmp(a.view(_SINT[bits]), b.view(_SINT[bits])) if signed else cmp(a, b)
    w = float_width(ins)
    return cmp(_floats(s[0], w), _floats(s[1], w))   # NaN: NE true, the rest false


def _plop(ins, s):
    fn = {"AND": np.logical_and, "OR": np.logical_or, "XOR": np.logical_xor}[modifier(ins, ("AND", "OR", "XOR"))]
    return fn(s[0].astype(bool), s[1].astype(bool))


def _pnot(ins, s):
    return ~s[0].astype(bool)


# conversions ------------------------------------------------------------------------------
def _read_int(x: np.ndarray, t: str) -> np.ndarray:
    """The value of integer type t held in x's low bits: int64 if signed, else uint64."""
    bits, signed = INT_TYPES[t]
    v = x.astype(np.uint64, copy=False) & np.uint64((1 << bits) - 1)
    if not signed:
        return v
    sign = np.uint64(1 << (bits - 1))
    return ((v ^ sign) - sign).view(np.int64)


def _write_int(v: np.ndarray, t: str) -> np.ndarray:
    """An integer (int64 or uint64) as a register of type t: truncated to t, extended."""
    extended = _read_int(v.view(np.uint64) if v.dtype == np.int64 else v, t)
    return extended.view(np.uint64).astype(_UINT[type_width(t)])


# F2I's rounding modifiers (none: toward zero): __float2int_rn / _rz / _ru / _rd
F2I_ROUNDING = {"RN": np.rint, "RZ": np.trunc, "RU": np.ceil, "RD": np.floor}


def f2i_rounding(ins: Instr) -> str:
    """The rounding modifier of an F2I: RZ (C's conversion) unless it names another."""
    return next((m for m in ins.mods if m in F2I_ROUNDING), "RZ")


def _f2i(value: np.ndarray, t: str, rounding: str = "RZ") -> np.ndarray:
    bits, signed = INT_TYPES[t]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    x = F2I_ROUNDING[rounding](value.astype(np.float64))
    over, under, nan = x >= float(hi), x <= float(lo), np.isnan(x)
    inside = np.where(over | under | nan, 0.0, x)
    as_int = inside.astype(np.int64).view(np.uint64) if signed or bits < 64 else inside.astype(np.uint64)
    result = np.where(over, np.uint64(hi & ((1 << 64) - 1)), np.where(under, np.uint64(lo & ((1 << 64) - 1)), as_int))
    nan_value = np.uint64(lo & ((1 << 64) - 1)) if signed and bits == 64 else np.uint64(0)   # as an H100 gives
    return _write_int(np.where(nan, nan_value, result), t)


def _convert(ins, s):
    dst, src = conversion_types(ins)
    x = s[0]
    if ins.op == "I2I":
        return _write_int(_read_int(x, src), dst)
    if ins.op == "I2F":
        return _bits(_read_int(x, src).astype(_FLOAT[FLOAT_TYPES[dst]]), FLOAT_TYPES[dst])
    value = _floats(x, FLOAT_TYPES[src])
    if ins.op == "F2I":
        return _f2i(value, dst, f2i_rounding(ins))
    if dst == src:
        return x.astype(_UINT[FLOAT_TYPES[dst]], copy=False)
    return _bits(value.astype(_FLOAT[FLOAT_TYPES[dst]]), FLOAT_TYPES[dst])


# each family of pure ops (isa.OpInfo.eval) -> its evaluator
EVALUATORS = {"mov": _mov, "sel": _sel, "p2r": _p2r, "int": _int_op, "float": _float_op, "mufu": _mufu,
              "isetp": _setp, "fsetp": _setp, "plop": _plop, "pnot": _pnot, "convert": _convert}

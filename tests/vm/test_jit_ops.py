"""vm/jit/ops.py against minicuda.semantics, bit for bit.

Every instruction shape semantics.evaluate accepts (each op with each type and mode
modifier) is lowered by emit_pure into a small LLVM function that loads its sources
as lane vectors, computes and stores the result; the function is compiled with
llvmlite (O3, host CPU, as the JIT does) and run on edge cases and random bit
patterns, for warps (W = 32) and host code (W = 1)."""
from __future__ import annotations

import ctypes
import itertools
import math
import re
import struct

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import llvmlite.binding as llvm

from minicuda import semantics as S
from minicuda.ir import parse_instr
from minicuda.isa import OPS
from minicuda.vm.jit.emit import Emitter
from minicuda.vm.jit.ops import LIBM_PREFIX, emit_pure, libm_symbols, supported

M32, M64 = (1 << 32) - 1, (1 << 64) - 1
INT_TYPES = ["S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64"]
REG = {1: "%p", 32: "%r", 64: "%rd"}


# ---- the instruction shapes -------------------------------------------------------------------
def _shapes() -> list[str]:
    out = ["MOV %r0, %r1", "MOV %rd0, %rd1", "MOV %p0, %p1", "MOV.64 R0, R2", "MOV R0, R1",
           "SEL %r0, %r1, %r2, %p0", "SEL %rd0, %rd1, %rd2, %p0", "SEL %p0, %p1, %p2, %p3",
           "SEL.64 R0, R2, R4, P0", "FSEL %r0, %r1, %r2, %p0", "P2R %r0, %p0", "P2R %rd0, %p0", "P2R.64 R0, P0"]
    int_ops = {"IADD": 2, "ISUB": 2, "IMUL": 2, "IMAD": 3, "IDIV": 2, "IREM": 2, "INEG": 1, "IABS": 1,
               "IMNMX.MIN": 2, "IMNMX.MAX": 2, "LOP.AND": 2, "LOP.OR": 2, "LOP.XOR": 2, "NOT": 1,
               "SHL": 2, "SHR": 2, "POPC": 1, "FLO": 1, "FLO.SH": 1, "BREV": 1, "IMULHI": 2}
    for t in ("S32", "U32", "S64", "U64"):
        bits = int(t[1:])
        for op, n in int_ops.items():
            d = "%r0" if op.startswith(("POPC", "FLO")) else f"{REG[bits]}0"
            srcs = [f"{REG[bits]}{i + 1}" for i in range(n)]
            if op in ("SHL", "SHR"):
                srcs[1] = "%r9"
            out.append(f"{op}.{t} {d}, {', '.join(srcs)}")
    # type from the default, from .64 and from a %rd register
    out += ["IADD %r0, %r1, %r2", "IDIV %r0, %r1, %r2", "SHR %r0, %r1, %r2", "FLO %r0, %r1",
            "IDIV.64 R0, R2, R4", "SHR.64 R0, R2, R4", "IMULHI %rd0, %rd1, %rd2", "IREM %rd0, %rd1, %rd2",
            "ISETP.LT %p0, %rd1, %rd2", "PRMT %r0, %r1, %r2, %r3", "PRMT.U32 R0, R1, R2, R3",
            "IMAD.WIDE.U32 %rd0, %r1, %r2, %rd3", "IMAD.WIDE.S32 %rd0, %r1, %r2, %rd3", "IMAD.WIDE.U32 R0, R2, R3, R4"]
    out += [f"SHF.{side}.{mode}.U32 %r0, %r1, %r2, %r3" for side in "LR" for mode in "WC"]
    out += [f"F2I.{t}.{f}.{r} {reg}0, {src}1" for t, reg in (("S32", "%r"), ("U32", "%r"), ("S64", "%rd"), ("U64", "%rd"))
            for f, src in (("F32", "%r"), ("F64", "%rd")) for r in ("RN", "RZ", "RU", "RD")]
    for p in ("F", "D"):
        r = "%r" if p == "F" else "%rd"
        for op, n in {"ADD": 2, "SUB": 2, "MUL": 2, "FMA": 3, "DIV": 2, "NEG": 1,
                      "MNMX.MIN": 2, "MNMX.MAX": 2}.items():
            out.append(f"{p}{op} {r}0, {', '.join(f'{r}{i + 1}' for i in range(n))}")
    out += ["FADD.F64 %rd0, %rd1, %rd2", "FMNMX.MAX.F64 %rd0, %rd1, %rd2", "FNEG.F64 %rd0, %rd1"]
    # -ftz=true: subnormal f32 operands and results flushed (FMUL, FFMA: before rounding)
    out += ["FADD.FTZ %r0, %r1, %r2", "FSUB.FTZ %r0, %r1, %r2", "FMUL.FTZ %r0, %r1, %r2",
            "FFMA.FTZ %r0, %r1, %r2, %r3", "FDIV.FTZ %r0, %r1, %r2", "FNEG.FTZ %r0, %r1",
            "FMNMX.FTZ.MIN %r0, %r1, %r2", "FSETP.LT.FTZ %p0, %r1, %r2", "MUFU.SQRT.FTZ %r0, %r1",
            "MUFU.FABS.FTZ %r0, %r1", "MUFU.EX2.APPROX.FTZ %r0, %r1", "FMUL.FTZ.RZ %r0, %r1, %r2",
            "F2F.FTZ.F32.F64 %r0, %rd1", "F2I.FTZ.U32.F32.RU %r0, %r1"]
    out += ["FFMA.NEGP %r0, %r1, %r2, %r3", "FFMA.NEGC %r0, %r1, %r2, %r3", "DFMA.NEGP %rd0, %rd1, %rd2, %rd3",
            "DFMA.NEGP.NEGC %rd0, %rd1, %rd2, %rd3", "FADD.RN %r0, %r1, %r2", "DMUL.RN %rd0, %rd1, %rd2"]
    for cmp in S.COMPARISONS:
        for t in ("S32", "U32", "S64", "U64"):
            r = REG[int(t[1:])]
            out.append(f"ISETP.{cmp}.{t} %p0, {r}1, {r}2")
        out += [f"ISETP.{cmp} %p0, %r1, %r2", f"FSETP.{cmp} %p0, %r1, %r2", f"DSETP.{cmp} %p0, %rd1, %rd2",
                f"FSETP.{cmp}.F64 %p0, %rd1, %rd2"]
    out += ["PLOP.AND %p0, %p1, %p2", "PLOP.OR %p0, %p1, %p2", "PLOP.XOR %p0, %p1, %p2", "PNOT %p0, %p1"]

    def reg(t):
        return "%rd" if t in ("S64", "U64", "F64") else "%r"
    for f in ("F32", "F64"):
        for t in INT_TYPES:
            out.append(f"I2F.{f}.{t} {reg(f)}0, {reg(t)}1")
            out.append(f"F2I.{t}.{f} {reg(t)}0, {reg(f)}1")
        for g in ("F32", "F64"):
            out.append(f"F2F.{f}.{g} {reg(f)}0, {reg(g)}1")
    for d, s in itertools.product(INT_TYPES, INT_TYPES):
        out.append(f"I2I.{d}.{s} {reg(d)}0, {reg(s)}1")
    out += ["I2F %r0, %r1", "I2F.F64 %rd0, %r1", "I2F.U32 %r0, %r1", "I2F.S64 %r0, %rd1",
            "F2I %r0, %r1", "F2I.U32 %r0, %r1", "F2I.F64 %r0, %rd1", "F2I.U64 %rd0, %r1"]
    for fn in list(S.MUFU_UNARY) + ["FABS"] + list(S.MUFU_BINARY):
        n = 2 if fn in S.MUFU_BINARY else 1
        out.append(f"MUFU.{fn} %r0, {', '.join(f'%r{i + 1}' for i in range(n))}")
        out.append(f"MUFU.{fn}.F64 %rd0, {', '.join(f'%rd{i + 1}' for i in range(n))}")
    return out


SHAPES = _shapes()


# ---- compiling ----------------------------------------------------------------------------------
llvm.initialize_native_target()
llvm.initialize_native_asmprinter()
for _name, _addr in libm_symbols().items():
    llvm.add_symbol(_name, _addr)

_DTYPE = {1: np.uint8, 32: np.uint32, 64: np.uint64}


def _function(name: str, ins, lanes: int, decls: dict[str, str]) -> str:
    """void name(ptr out, ptr in0, ptr in1, ptr in2, i64 n): n batches of `lanes` lanes."""
    e = Emitter(lanes)
    widths, rw = S.source_widths(ins), S.result_width(ins)
    e.label("entry")
    e.line("br label %loop")
    e.label("loop")
    e.line("%i = phi i64 [ 0, %entry ], [ %next, %loop ]")
    srcs = []
    for k, w in enumerate(widths):
        mem = 8 if w == 1 else w
        off = e.op(f"mul i64 %i, {lanes * mem // 8}")
        ptr = e.op(f"getelementptr i8, ptr %in{k}, i64 {off}")
        v = e.op(f"load <{lanes} x i{mem}>, ptr {ptr}, align 1")
        if w == 1:
            v = e.op(f"icmp ne <{lanes} x i8> {v}, zeroinitializer")
        srcs.append(v)
    r = emit_pure(e, ins, srcs)
    mem = 8 if rw == 1 else rw
    if rw == 1:
        r = e.op(f"zext <{lanes} x i1> {r} to <{lanes} x i8>")
    off = e.op(f"mul i64 %i, {lanes * mem // 8}")
    ptr = e.op(f"getelementptr i8, ptr %out, i64 {off}")
    e.line(f"store <{lanes} x i{mem}> {r}, ptr {ptr}, align 1")
    e.line("%next = add i64 %i, 1")
    e.line("%done = icmp eq i64 %next, %n")
    e.line("br i1 %done, label %exit, label %loop, !llvm.loop !0")   # not unrolled: compiles faster
    e.label("exit")
    e.line("ret void")
    for k, text in e.decls.items():
        assert decls.setdefault(k, text) == text, k
    body = "\n".join(e.lines)
    return f"define void @{name}(ptr %out, ptr %in0, ptr %in1, ptr %in2, i64 %n) {{\n{body}\n}}\n"


class Compiled:
    """Shapes for one lane count, in one module, compiled for a CPU (host: as the JIT)."""

    def __init__(self, lanes: int, cpu: str = "host", shapes: list[str] = SHAPES):
        self.lanes = lanes
        decls: dict[str, str] = {}
        fns = [_function(f"f{i}", parse_instr(text, 1), lanes, decls) for i, text in enumerate(shapes)]
        self.source = "\n".join(decls.values()) + "\n\n" + "\n".join(fns) + \
            '\n!0 = distinct !{!0, !1}\n!1 = !{!"llvm.loop.unroll.disable"}\n'
        mod = llvm.parse_assembly(self.source)
        mod.verify()
        name, features = (llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()) if cpu == "host" else (cpu, "")
        tm = llvm.Target.from_default_triple().create_target_machine(
            cpu=name, features=features, opt=3, reloc="default", codemodel="jitdefault")
        pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=3))
        pb.getModulePassManager().run(mod, pb)
        mod.verify()
        self.optimized = str(mod)
        self.ee = llvm.create_mcjit_compiler(mod, tm)
        self.ee.finalize_object()
        proto = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 4, ctypes.c_int64)
        self.fns = {text: proto(self.ee.get_function_address(f"f{i}")) for i, text in enumerate(shapes)}

    def run(self, text: str, columns: list[np.ndarray]) -> np.ndarray:
        ins = parse_instr(text, 1)
        widths, rw = S.source_widths(ins), S.result_width(ins)
        n = len(columns[0])
        batches = -(-n // self.lanes)
        padded = []
        for col, w in zip(columns, widths):
            a = np.zeros(batches * self.lanes, _DTYPE[w])
            a[:n] = col
            padded.append(a)
        out = np.zeros(batches * self.lanes, _DTYPE[rw])
        ptrs = [a.ctypes.data for a in padded] + [0] * (3 - len(padded))
        self.fns[text](out.ctypes.data, *ptrs, batches)
        return out[:n]


_COMPILED: dict[tuple, Compiled] = {}


def compiled(lanes: int, cpu: str = "host", shapes: tuple[str, ...] | None = None) -> Compiled:
    key = (lanes, cpu, shapes)
    if key not in _COMPILED:
        _COMPILED[key] = Compiled(lanes, cpu, list(shapes) if shapes else SHAPES)
    return _COMPILED[key]


# ---- inputs --------------------------------------------------------------------------------------
def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


_FLOATS = [1.0, 0.5, 1.5, 2.5, 3.0, 0.49999997, 0.50000006, 0.1, 2 / 3, math.pi, math.pi / 2, 1e-3, 0.7,
           2.0, 0.25, 10.0, 100.0, 1e6, 127.5, 127.99, 128.0, 128.5, 129.0, 255.5, 256.0, 32767.5, 32768.0,
           32768.9, 32769.0, 65535.9, 65536.0, 8388607.5, 8388608.0, 8388609.0, 16777216.0, 16777218.0,
           2147483520.0, 2.0 ** 31, 2147483904.0, 4294967040.0, 2.0 ** 32, 2.0 ** 63 - 2 ** 39, 2.0 ** 63,
           2.0 ** 63 + 2 ** 40, 2.0 ** 64 - 2 ** 40, 2.0 ** 64, 1e10, 3e38, 88.72, 89.0, 87.3, 104.0, 1e-38,
           0.99999994, 1.0000001, 1e-40]
F32_EDGES = sorted({f32(x) for v in _FLOATS for x in (v, -v)} | {
    0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FBFFFFF,
    0x7FFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF,
    0xFF7FFFFF})
I32_EDGES = sorted({x & M32 for x in [
    0, 1, 2, 3, 5, 7, 10, -1, -2, -3, -7, -10, -(1 << 31), (1 << 31) - 1, -(1 << 31) + 1, (1 << 31) - 2,
    0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, -0x80, -0x81, -0x8000, -0x8001, 31, 32, 33,
    63, 64, 65, 255, 256, 0x55555555, 0xAAAAAAAA, 1000000007, -1000000007, 46341, 0xDEADBEEF, 0x0F0F0F0F,
    0x40000000, 0xC0000000, 65536 * 3 + 7]})
_F64_SPECIAL = [
    0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000,
    0x7FF0000000000001, 0xFFF0000000000001, 0x7FF7FFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 1, (1 << 63) | 1,
    0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF]
_F64_VALUES = [1e300, 1e-300, 2.0 ** -149, 2.0 ** -150, 2.0 ** -150 * (1 + 2 ** -52), 1.5 * 2.0 ** -149,
               2.0 ** -126 * (1 - 2 ** -24), 2.0 ** 128 - 2.0 ** 103, 2.0 ** 128 - 2.0 ** 103 - 2.0 ** 75,
               2.0 ** 128, 1 + 2.0 ** -24, 1 + 2.0 ** -24 + 2.0 ** -52, 1 + 3 * 2.0 ** -24, 2.0 ** 63 - 1024,
               2.0 ** 64 - 2048, 1e19, 9.2e18, 9.3e18, 2.0 ** 53, 2.0 ** 53 + 2, 0.49999999999999994,
               4503599627370495.5, 1e-310, 709.78, 710.0, 745.2, 0.9999999999999999, 1e200]
F64_EDGES = sorted({f64(x) for v in _FLOATS + _F64_VALUES for x in (v, -v)} | set(_F64_SPECIAL))
I64_EDGES = sorted({x & M64 for x in [
    0, 1, 2, 3, 7, -1, -2, -7, -(1 << 63), (1 << 63) - 1, -(1 << 63) + 1, 1 << 32, (1 << 32) - 1, (1 << 32) + 1,
    -(1 << 32), 1 << 31, -(1 << 31), (1 << 31) - 1, -(1 << 31) - 1, 31, 32, 33, 63, 64, 65, 127, 128, 255,
    0xFF, 0x7FFF, 0x8000, 0xFFFF, -0x80, -0x8001, 1 << 53, (1 << 53) + 1, (1 << 63) - 1024, 0x5555555555555555,
    0xAAAAAAAAAAAAAAAA, 0xDEADBEEFCAFEBABE, 0xFFFFFFFF00000000, 10 ** 18 + 9, -(10 ** 18 + 9), 3037000499]}
    | {x if x < 1 << 31 else x | 0xFFFFFFFF00000000 for x in I32_EDGES})


def _random(width: int, rng: np.random.Generator, n: int) -> np.ndarray:
    """Random bit patterns, moderate floats (exponents near 1) and small ints."""
    if width == 1:
        return rng.integers(0, 2, n).astype(np.uint8)
    u, mant = (np.uint32, 23) if width == 32 else (np.uint64, 52)
    bias = 127 if width == 32 else 1023
    k = n // 3
    raw = rng.integers(0, 1 << width, k, dtype=np.uint64 if width == 64 else np.int64).astype(u)
    exps = rng.integers(bias - 40, bias + 40, k).astype(np.uint64)
    mants = rng.integers(0, 1 << mant, k, dtype=np.int64).astype(np.uint64)
    signs = rng.integers(0, 2, k).astype(np.uint64)
    moderate = ((signs << np.uint64(width - 1)) | (exps << np.uint64(mant)) | mants).astype(u)
    small = rng.integers(-300, 300, n - 2 * k).astype(np.int64).astype(u)
    return np.concatenate([raw, moderate, small])


def _edges(width: int) -> np.ndarray:
    if width == 1:
        return np.array([0, 1], np.uint8)
    if width == 32:
        return np.array(sorted(set(I32_EDGES) | set(F32_EDGES)), np.uint32)
    return np.array(sorted(set(I64_EDGES) | set(F64_EDGES)), np.uint64)


def _fma_cases(width: int, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """a * b + c with c close to -(a * b): cancellations, where rounding once matters."""
    ft, u = (np.float32, np.uint32) if width == 32 else (np.float64, np.uint64)
    a = (rng.uniform(1, 2, n) * 2.0 ** rng.integers(-20, 20, n)).astype(ft)
    b = (rng.uniform(-2, 2, n) * 2.0 ** rng.integers(-20, 20, n)).astype(ft)
    with np.errstate(all="ignore"):
        c = -(a * b)
        nudge = rng.integers(-2, 3, n)
        cb = (c.view(u).astype(np.int64) + nudge).astype(u)
    return [a.view(u), b.view(u), cb]


def vectors(text: str, seed: int = 1) -> list[np.ndarray]:
    """Input columns for one shape: all pairs of edge cases, random patterns, ..."""
    ins = parse_instr(text, 1)
    widths = S.source_widths(ins)
    rng = np.random.default_rng(seed)
    n = len(widths)
    if n == 1:
        cols = [np.concatenate([_edges(widths[0]), _random(widths[0], rng, 1500)])]
    elif n == 2:
        pairs = list(itertools.product(_edges(widths[0]), _edges(widths[1])))
        cols = [np.array([p[k] for p in pairs], _DTYPE[w]) for k, w in enumerate(widths)]
        cols = [np.concatenate([c, _random(w, rng, 3000)]) for c, w in zip(cols, widths)]
    else:
        m = 6000
        cols = []
        for w in widths:
            pool = np.concatenate([_edges(w), _random(w, rng, 1500)])
            cols.append(pool[rng.integers(0, len(pool), m)])
        cols = [np.concatenate([c, _random(w, rng, 1500)]) for c, w in zip(cols, widths)]
        if ins.op in ("FFMA", "DFMA"):   # (with .NEGP/.NEGC too)
            extra = _fma_cases(widths[0], rng, 3000)
            cols = [np.concatenate([c, x]) for c, x in zip(cols, extra)]
    return [c.astype(_DTYPE[w]) for c, w in zip(cols, widths)]


def check(text: str, columns: list[np.ndarray], lanes: int, cpu: str = "host", shapes=None) -> None:
    ins = parse_instr(text, 1)
    widths = S.source_widths(ins)
    ref_inputs = [c.astype(bool) if w == 1 else c for c, w in zip(columns, widths)]
    want = np.asarray(S.evaluate(ins, ref_inputs)).astype(np.uint64)
    want = np.broadcast_to(want, (len(columns[0]),))
    got = compiled(lanes, cpu, shapes).run(text, columns).astype(np.uint64)
    bad = np.nonzero(got != want)[0]
    if len(bad):
        rows = [f"  inputs {[hex(int(c[i])) for c in columns]}: jit {int(got[i]):#x}, semantics {int(want[i]):#x}"
                for i in bad[:8]]
        pytest.fail(f"{text} (W={lanes}, cpu {cpu}): {len(bad)} of {len(want)} lanes differ\n" + "\n".join(rows))


# ---- the tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", SHAPES)
def test_warp_lanes_match_semantics(text):
    check(text, vectors(text), 32)


@pytest.mark.parametrize("text", SHAPES)
def test_single_lane_matches_semantics(text):
    cols = vectors(text, seed=2)
    pick = np.random.default_rng(3).choice(len(cols[0]), size=min(400, len(cols[0])), replace=False)
    check(text, [c[pick] for c in cols], 1)


@pytest.mark.skipif(not llvm.get_default_triple().startswith("x86_64"), reason="x86-64 only")
@pytest.mark.parametrize("text", SHAPES)
def test_baseline_x86_64_matches_semantics(text):
    """Compiled for a plain x86-64 (SSE2, no FMA/SSE4.1/AVX): other lowerings of the
    same IR, and the libm fallbacks (fmaf, floorf, roundevenf, ...) from libm_symbols."""
    cols = vectors(text, seed=4)
    pick = np.random.default_rng(5).choice(len(cols[0]), size=min(1000, len(cols[0])), replace=False)
    check(text, [c[pick] for c in cols], 32, cpu="x86-64")


ODD_WIDTH_SHAPES = ("IDIV.S32 %r0, %r1, %r2", "IREM.U64 %rd0, %rd1, %rd2", "SHL.U64 %rd0, %rd1, %r9",
                    "FLO.SH.S64 %r0, %rd1", "FFMA %r0, %r1, %r2, %r3", "DMNMX.MIN %rd0, %rd1, %rd2",
                    "F2I.U16.F64 %r0, %rd1", "I2F.F32.U64 %r0, %rd1", "I2I.S8.U32 %r0, %r1", "MUFU.ATAN2 %r0, %r1, %r2",
                    "MUFU.ROUND.F64 %rd0, %rd1", "SEL %p0, %p1, %p2, %p3", "ISETP.GE.U32 %p0, %r1, %r2",
                    "FSETP.NE %p0, %r1, %r2", "P2R %rd0, %p0", "POPC.U64 %r0, %rd1")


@pytest.mark.parametrize("lanes", [5, 64])
def test_other_lane_counts(lanes):
    for text in ODD_WIDTH_SHAPES:
        check(text, vectors(text, seed=lanes), lanes, shapes=ODD_WIDTH_SHAPES)


def test_mufu_transcendentals_are_libm():
    """semantics' MUFU is the C library's double function, rounded to f32 for f32."""
    xs = [0.5, 1.7, -3.25, 100.0, 1e-5, 0.9]
    for fn, (name, constants) in S.MUFU_LIBM.items():
        c = S.libm_function(name)
        args = [xs, xs[::-1]][:S.LIBM_ARITY[name] - len(constants)]
        ins = parse_instr(f"MUFU.{fn}.F64 %rd0, {', '.join(f'%rd{i + 1}' for i in range(len(args)))}", 1)
        got = S.evaluate(ins, [np.array([f64(x) for x in a], np.uint64) for a in args])
        for lane in range(len(xs)):
            want = c(*constants, *(a[lane] for a in args))
            assert int(got[lane]) == (0x7FFFFFFFFFFFFFFF if math.isnan(want) else f64(want)), (fn, lane)


def test_mufu_f32_of_some_functions_is_libms_float_function():
    """erfcf, lgammaf, ...: glibc's float functions, not the double ones rounded (they differ)."""
    xs = [0.5, 1.7, -3.25, 10.0, 1e-5, 0.9, 2.5, -0.75]
    for fn, name in S.MUFU_LIBM_F32.items():
        c = S.libm_float_function(name)
        args = [xs, xs[::-1]][:S.LIBM_ARITY[name[:-1]]]
        ins = parse_instr(f"MUFU.{fn} %r0, {', '.join(f'%r{i + 1}' for i in range(len(args)))}", 1)
        got = S.evaluate(ins, [np.array([f32(x) for x in a], np.uint32) for a in args])
        for lane in range(len(xs)):
            want = c(*(a[lane] for a in args))
            assert int(got[lane]) == (0x7FFFFFFF if math.isnan(want) else f32(want)), (fn, lane)
    # nextafterf steps by a float's ulp (the double function rounded back would not move)
    ins = parse_instr("MUFU.NEXTAFTER %r0, %r1, %r2", 1)
    assert int(S.evaluate(ins, [np.array([f32(1.0)], np.uint32), np.array([f32(2.0)], np.uint32)])[0]) == f32(1.0) + 1


@pytest.mark.parametrize("text,w", [("FMNMX.MIN %r0, %r1, %r2", 32), ("FMNMX.MAX %r0, %r1, %r2", 32),
                                    ("DMNMX.MIN %rd0, %rd1, %rd2", 64), ("DMNMX.MAX %rd0, %rd1, %rd2", 64)])
def test_min_max_ignores_signaling_nan(text, w):
    snan, minus_two = (0x7F800001, f32(-2.0)) if w == 32 else (0x7FF0000000000001, f64(-2.0))
    a = np.array([snan, minus_two, snan], _DTYPE[w])
    b = np.array([minus_two, snan, snan], _DTYPE[w])
    got = compiled(32).run(text, [a, b])
    assert [int(x) for x in got] == [minus_two, minus_two, (1 << (w - 1)) - 1]
    # semantics agrees whatever the array's length (numpy's own fmin/fmax would not)
    for n in (3, 32):
        assert [int(x) for x in S.evaluate(parse_instr(text, 1), [np.resize(a, n), np.resize(b, n)])[:3]] == \
            [int(x) for x in got]


def test_every_pure_op_and_mufu_function_is_covered():
    ops = {parse_instr(t, 1).op for t in SHAPES}
    assert ops == {op for op, row in OPS.items() if row.eval}
    mufu = {parse_instr(t, 1).mods[0] for t in SHAPES if t.startswith("MUFU")}
    assert mufu == set(S.MUFU_UNARY) | set(S.MUFU_BINARY) | {"FABS"}
    assert all(supported(parse_instr(t, 1)) for t in SHAPES)


@pytest.mark.parametrize("text", [
    "S2R %r0, SR_TID.X", "LDG %r0, [%rd1]", "STG [%rd1], %r0", "BRA .L1", "MUFU.BOGUS %r0, %r1",
    "MUFU.SIN %r0, %r1, %r2", "MUFU.POW %r0, %r1", "P2R %p0, %p1", "I2F.F32.F32 %r0, %r1",
    "F2F.S32.F32 %r0, %r1", "I2I.S32 %r0, %r1", "IMNMX %r0, %r1, %r2", "LOP %r0, %r1, %r2",
    "ISETP %p0, %r1, %r2", "FMNMX %r0, %r1, %r2", "PLOP %p0, %p1, %p2", "SHFL.DOWN %r0, %r1, 1, 32, -1"])
def test_unsupported(text):
    ins = parse_instr(text, 1)
    assert not supported(ins)
    with pytest.raises(NotImplementedError):
        emit_pure(Emitter(32), ins, ["%a"] * len(ins.srcs))


def test_libm_calls_are_bound_and_nothing_else_is_external():
    c = compiled(32)
    symbols = libm_symbols()
    declared = set(re.findall(r"^declare [^@]*@([\w.$-]+)\(", c.optimized, re.M))
    external = {d for d in declared if not d.startswith("llvm.")}
    assert external and external <= set(symbols)
    assert all(d.startswith(LIBM_PREFIX) for d in external)
    floats = set(S.MUFU_LIBM_F32.values())
    for name, addr in symbols.items():
        if name.startswith(LIBM_PREFIX):
            c_name = name[len(LIBM_PREFIX):]
            libm = S.libm_float_function if c_name in floats else S.libm_function
            assert addr == ctypes.cast(libm(c_name), ctypes.c_void_p).value


def test_emitted_ir_has_no_fast_math_flags():
    e = Emitter(32)
    for text in SHAPES:
        ins = parse_instr(text, 1)
        emit_pure(e, ins, [f"%s{i}" for i in range(len(ins.srcs))])
    body = "\n".join(e.lines)
    assert not re.search(r"\b(fast|nnan|ninf|nsz|arcp|contract|afn|reassoc)\b", body)


# ---- properties over random bit patterns --------------------------------------------------------
PROPERTY_SHAPES = ["IDIV.S32 %r0, %r1, %r2", "IREM.U32 %r0, %r1, %r2", "IDIV.S64 %rd0, %rd1, %rd2",
                   "IMULHI.S64 %rd0, %rd1, %rd2", "IMULHI.U32 %r0, %r1, %r2", "SHR.S64 %rd0, %rd1, %r9",
                   "FLO.S32 %r0, %r1", "FFMA %r0, %r1, %r2, %r3", "DFMA %rd0, %rd1, %rd2, %rd3",
                   "FFMA.NEGP %r0, %r1, %r2, %r3", "FFMA.NEGC %r0, %r1, %r2, %r3",
                   "DFMA.NEGP.NEGC %rd0, %rd1, %rd2, %rd3",
                   "FMNMX.MIN %r0, %r1, %r2", "DMNMX.MAX %rd0, %rd1, %rd2", "FDIV %r0, %r1, %r2",
                   "F2I.S32.F32 %r0, %r1", "F2I.U64.F64 %rd0, %rd1", "F2I.S16.F64 %r0, %rd1",
                   "I2F.F32.U64 %r0, %rd1", "I2F.F32.S64 %r0, %rd1", "F2F.F32.F64 %r0, %rd1",
                   "MUFU.SIN %r0, %r1", "MUFU.POW %r0, %r1, %r2", "MUFU.RSQ %r0, %r1", "MUFU.ROUND %r0, %r1",
                   "MUFU.RCP.F64 %rd0, %rd1", "MUFU.SQRT %r0, %r1", "FSETP.NE %p0, %r1, %r2",
                   "ISETP.LT.U64 %p0, %rd1, %rd2", "I2I.S16.U64 %r0, %rd1",
                   "PRMT %r0, %r1, %r2, %r3", "SHF.L.W.U32 %r0, %r1, %r2, %r3", "SHF.R.C.U32 %r0, %r1, %r2, %r3",
                   "F2I.S32.F32.RN %r0, %r1", "F2I.U32.F32.RD %r0, %r1", "F2I.S64.F64.RU %rd0, %rd1"]


def _lane_values(width: int):
    edges = _edges(width).tolist()
    return st.one_of(st.sampled_from(edges), st.integers(0, (1 << width) - 1))


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_bit_patterns(data):
    text = data.draw(st.sampled_from(PROPERTY_SHAPES))
    widths = S.source_widths(parse_instr(text, 1))
    cols = [np.array(data.draw(st.lists(_lane_values(w), min_size=32, max_size=32)), _DTYPE[w])
            for w in widths]
    check(text, cols, 32)


def test_the_jit_flushes_the_same_edge_cases():
    """FFMA.FTZ and FMUL.FTZ where the exact result is just below 2^-126 (flushed though it
    rounds to 2^-126), NaN and infinity among them (tests/minicuda/test_flush_to_zero.py)."""
    shapes = ("FFMA.FTZ %r0, %r1, %r2, %r3", "FMUL.FTZ %r0, %r1, %r2")
    rows = [(0x80800000, 0x00800000, 0x00800000), (0x00800000, 0x00800000, 0x00800000),
            (0x3f7fffff, 0x00800000, 0x80000000), (0x00800000, 0xbf7fffff, 0x00000001),
            (0x3f800000, 0x80000001, 0x7fc00000), (0x7f800000, 0x00000001, 0xff800000)]
    columns = [np.array([r[k] for r in rows], np.uint32) for k in range(3)]
    check(shapes[0], columns, 32, shapes=shapes)
    check(shapes[1], columns[:2], 32, shapes=shapes)

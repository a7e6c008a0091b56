"""One function of bytecode as native code: LLVM IR text for llvmlite.

The code runs a warp exactly as the interpreter does (vm/interp.py is the
specification): lanes are LLVM vectors (`<32 x i32>`; host code is compiled with
one lane), an active mask is an integer of bits, and every instruction keeps the
interpreter's counters.  The scheduling model is compiled in:

- `stack`: the reconvergence stack lives in the block state.  A dispatch block pops
  entries that reached their rpc and jumps to the top entry's pc; straight-line
  code then runs with a fixed mask until a label, a branch or an exit.
- `its`: a scheduler block picks the path exactly as `Interpreter.step_its` does
  (round-robin over distinct pcs, or the seeded xorshift64* choice) and jumps to
  it; the path then runs straight on until an event (branch, exit, barrier, wait)
  or until it reaches the pc of another path, where the two merge, as they do in
  the interpreter.

Whatever native code does not do itself (calls, launches, the runtime, faults,
deadlock and budget reports, a store that spans allocations) it hands back: it
saves the warp's state with the pc of that instruction and returns BAIL; the
engine lets the interpreter run that one instruction on the same state and comes
back.  So a fault is reported by the interpreter, word for word.

Entry points: `run_function(ctx)` runs warp 0 of the state (a host function, or a
device function for its calling threads); a kernel also gets `run_blocks(ctx)`,
which starts blocks from the template and runs their warps round by round
between barriers, as `Interpreter.run_block` does.
"""
from __future__ import annotations

import re

import numpy as np

from minicuda import semantics
from minicuda.ir import Imm, Mem, Reg, Special, Sym
from minicuda.isa import HAND_OFF, OPS
from minicuda.vm.interp import DEADLOCK_STEPS, ITS_STALL_STEPS, Code
from minicuda.vm.jit import layout as L
from minicuda.vm.jit.emit import Emitter
from minicuda.vm.state import (BSET, CURRENT, DEPTH, MAXD, NBAR, RNG, SPIN, STALL, STATUS, WARP, WARPSYNC_BARRIER,
                               ID_NAMES, RUN, AT_BAR, DONE)

try:   # the pure-instruction lowering; without it those instructions go to the interpreter
    from minicuda.vm.jit import ops as _ops
except ImportError:   # pragma: no cover
    _ops = None

WIDTH_BYTES = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8}
INT64_MAX = (1 << 63) - 1
NATIVE_RUNTIME = {"rand", "memcpy", "memmove", "memset"}
ENDS_STRAIGHT_RUN = ("exit", "barrier", "bsync", "warpsync", "yield", "branch")   # lowerings: events
ATOMIC_RMW = {"ADD": "add", "SUB": "sub", "EXCH": "xchg", "AND": "and", "OR": "or", "XOR": "xor",
              "INC": "uinc_wrap", "DEC": "udec_wrap"}


class Unsupported(Exception):
    pass


class FunctionCodegen:
    """LLVM IR for one function (name `fname` in the module) under one scheduling model."""

    def __init__(self, code: Code, sched: str, lanes: int, symbols: list[str], kernel: bool, seeded: bool = False):
        self.code, self.sched, self.W = code, sched, lanes
        # a seeded ITS schedule may park a path at any pc, so every pc is an entry point
        self.seeded = seeded
        self.symbols = symbols            # the module's symbol table (index = position)
        self.kernel = kernel
        self.e = Emitter(lanes)
        self.nlabel = 0
        self.block_starts = set(code.label_pc.values())
        # one thread cannot diverge: its stack never deepens, so it never stalls
        self.track_stall = lanes > 1
        # a kernel's warp under the stack model also counts instructions without a change
        # to memory whatever its depth (a uniform spin); ITS's stall counter already does
        self.track_spin = kernel and sched == "stack"
        # one lane's registers are scalars: keep them in SSA values, not in memory
        self.ssa_regs = lanes == 1
        self.rows_used: set[int] = set()
        self.preds_used: set[int] = set()
        self.sites = 0                    # memory instructions: each has a cached allocation
        self.always_bail: set[int] = set()
        self.entries: list[int] = []
        self.helpers: dict[str, str] = {}   # module-level functions this code needs
        self.barriers = sorted({int(i.srcs[0].name[1:]) for i in code.instrs if i.op in ("BSSY", "BSYNC")}
                               | ({WARPSYNC_BARRIER} if any(i.op == "WARPSYNC" for i in code.instrs) else set()))

    # ---- small helpers ---------------------------------------------------------------------
    def lbl(self, hint: str) -> str:
        self.nlabel += 1
        return f"{hint}.{self.nlabel}"

    def op(self, text: str) -> str:
        return self.e.op(text)

    def line(self, text: str) -> None:
        self.e.line(text)

    def label(self, name: str) -> None:
        self.e.label(name)

    def br(self, target: str) -> None:
        self.line(f"br label %{target}")

    def cbr(self, cond: str, yes: str, no: str) -> None:
        self.line(f"br i1 {cond}, label %{yes}, label %{no}")

    def ctx_field(self, index: int, ty: str = "i64") -> str:
        p = self.op(f"getelementptr i64, ptr %ctx, i64 {index}")
        return self.op(f"load {ty}, ptr {p}")

    def gep(self, base: str, offset) -> str:
        return self.op(f"getelementptr i8, ptr {base}, i64 {offset}")

    def load_local(self, name: str, ty: str = "i64") -> str:
        return self.op(f"load {ty}, ptr %{name}.a")

    def store_local(self, name: str, value, ty: str = "i64") -> None:
        self.line(f"store {ty} {value}, ptr %{name}.a")

    def add_local(self, name: str, value) -> None:
        v = self.load_local(name)
        self.store_local(name, self.op(f"add i64 {v}, {value}"))

    @property
    def mt(self) -> str:
        return f"i{self.W}"

    def vmask(self, bits: str) -> str:
        """An i32 mask of lanes as <W x i1>."""
        if self.W == 32:
            return self.op(f"bitcast i32 {bits} to <32 x i1>")
        t = self.op(f"trunc i32 {bits} to i{self.W}")
        return self.op(f"bitcast i{self.W} {t} to <{self.W} x i1>")

    def bits(self, vec: str) -> str:
        """<W x i1> as an i32 mask."""
        if self.W == 32:
            return self.op(f"bitcast <32 x i1> {vec} to i32")
        t = self.op(f"bitcast <{self.W} x i1> {vec} to i{self.W}")
        return self.op(f"zext i{self.W} {t} to i32")

    def popc(self, bits: str) -> str:
        self.e.declare("ctpop32", "declare i32 @llvm.ctpop.i32(i32)")
        c = self.op(f"call i32 @llvm.ctpop.i32(i32 {bits})")
        return self.op(f"zext i32 {c} to i64")

    def splat_value(self, ty: str, scalar: str) -> str:
        v = self.op(f"insertelement <{self.W} x {ty}> poison, {ty} {scalar}, i64 0")
        return self.op(f"shufflevector <{self.W} x {ty}> {v}, <{self.W} x {ty}> poison, <{self.W} x i32> zeroinitializer")

    def lane_ids(self, ty: str = "i32") -> str:
        return "<" + ", ".join(f"{ty} {i}" for i in range(self.W)) + ">"

    # ---- lane flags as bits -----------------------------------------------------------------
    def load_flag_bits(self, which: int) -> str:
        p = self.gep("%flags", which * WARP)
        v = self.op(f"load <{self.W} x i8>, ptr {p}, align 1")
        m = self.op(f"icmp ne <{self.W} x i8> {v}, zeroinitializer")
        return self.bits(m)

    def store_flag_bits(self, which: int, bits: str) -> None:
        m = self.vmask(bits)
        v = self.op(f"zext <{self.W} x i1> {m} to <{self.W} x i8>")
        p = self.gep("%flags", which * WARP)
        self.line(f"store <{self.W} x i8> {v}, ptr {p}, align 1")

    def word_ptr(self, index: int) -> str:
        return self.gep("%words", index * 8)

    # ---- operands ------------------------------------------------------------------------------
    def reg_ptr(self, row: int) -> str:
        if self.ssa_regs:
            self.rows_used.add(row)
            return f"%row{row}.a"
        return self.gep("%regs", row * WARP * 4)

    def pred_ptr(self, row: int) -> str:
        if self.ssa_regs:
            self.preds_used.add(row)
            return f"%prow{row}.a"
        return self.gep("%preds", row * WARP)

    def load_rows(self) -> list[str]:
        """Host code keeps its registers in locals (SSA after SROA): read them in at entry."""
        W, out = self.W, []
        for row in sorted(self.rows_used):
            out += [f"  %row{row}.a = alloca <{W} x i32>",
                    f"  %row{row}.p = getelementptr i8, ptr %regs, i64 {row * WARP * 4}",
                    f"  %row{row}.i = load <{W} x i32>, ptr %row{row}.p, align 4",
                    f"  store <{W} x i32> %row{row}.i, ptr %row{row}.a"]
        for row in sorted(self.preds_used):
            out += [f"  %prow{row}.a = alloca <{W} x i8>",
                    f"  %prow{row}.p = getelementptr i8, ptr %preds, i64 {row * WARP}",
                    f"  %prow{row}.i = load <{W} x i8>, ptr %prow{row}.p, align 1",
                    f"  store <{W} x i8> %prow{row}.i, ptr %prow{row}.a"]
        return out

    def store_rows(self) -> None:
        """... and write them back wherever the code leaves."""
        W = self.W
        for row in sorted(self.rows_used):
            v = self.op(f"load <{W} x i32>, ptr %row{row}.a")
            self.line(f"store <{W} x i32> {v}, ptr %row{row}.p, align 4")
        for row in sorted(self.preds_used):
            v = self.op(f"load <{W} x i8>, ptr %prow{row}.a")
            self.line(f"store <{W} x i8> {v}, ptr %prow{row}.p, align 1")

    def read(self, o, width: int) -> str:
        W = self.W
        if isinstance(o, Reg):
            s = self.code.slot(o)
            if width == 1:
                if o.name == "PT":
                    return "splat (i1 true)"
                if s < 1000:
                    raise Unsupported(f"predicate read of {o}")
                p = self.pred_ptr(s - 1000)
                v = self.op(f"load <{W} x i8>, ptr {p}, align 1")
                return self.op(f"icmp ne <{W} x i8> {v}, zeroinitializer")
            if s == -1:
                return "zeroinitializer"
            if s >= 1000:
                raise Unsupported(f"predicate {o} read as a value")
            lo = self.op(f"load <{W} x i32>, ptr {self.reg_ptr(s)}, align 4")
            if width == 32:
                return lo
            hi = self.op(f"load <{W} x i32>, ptr {self.reg_ptr(s + 1)}, align 4")
            lo64 = self.op(f"zext <{W} x i32> {lo} to <{W} x i64>")
            hi64 = self.op(f"zext <{W} x i32> {hi} to <{W} x i64>")
            sh = self.op(f"shl <{W} x i64> {hi64}, splat (i64 32)")
            return self.op(f"or <{W} x i64> {sh}, {lo64}")
        if isinstance(o, Imm):
            bits = int(np.asarray(semantics.operand_value(o, width)).astype(np.uint64)) if width != 1 else \
                int(bool(semantics.operand_value(o, 1)))
            return self.e.splat(width, bits)
        if isinstance(o, Sym):
            if o.name == "frame":
                v = self.op(f"load <{W} x i64>, ptr %frame, align 8")
            else:
                idx = self.symbols.index(o.name)
                p = self.op(f"getelementptr i64, ptr %syms, i64 {idx}")
                scalar = self.op(f"load i64, ptr {p}")
                v = self.splat_value("i64", scalar)
            v = self.op(f"add <{W} x i64> {v}, {self.e.splat(64, o.offset)}") if o.offset else v
            return v if width == 64 else self.op(f"trunc <{W} x i64> {v} to <{W} x i32>")
        if isinstance(o, Special):
            return self.special(o.name)
        raise Unsupported(f"operand {o}")

    def special(self, name: str) -> str:
        W = self.W
        if name == "SR_LANEID":
            return self.lane_ids()
        if name == "SR_WARPSIZE":
            return "splat (i32 32)"
        base, _, axis = name.rpartition(".")
        if base not in ID_NAMES or axis not in "XYZ" or not axis:
            raise Unsupported(f"special register {name}")
        row = ID_NAMES.index(base) * 3 + "XYZ".index(axis)
        p = self.gep("%ids", row * WARP * 4)
        return self.op(f"load <{W} x i32>, ptr {p}, align 4")

    def write(self, r: Reg, value: str, on: str, width: int) -> None:
        W = self.W
        s = self.code.slot(r)
        if width == 1 or s >= 1000:
            if r.name == "PT":
                return
            if width != 1:
                value = self.op(f"icmp ne <{W} x i{width}> {value}, zeroinitializer")
            p = self.pred_ptr(s - 1000)
            old = self.op(f"load <{W} x i8>, ptr {p}, align 1")
            new = self.op(f"zext <{W} x i1> {value} to <{W} x i8>")
            v = self.op(f"select <{W} x i1> {on}, <{W} x i8> {new}, <{W} x i8> {old}")
            self.line(f"store <{W} x i8> {v}, ptr {p}, align 1")
            return
        if s == -1:
            return
        if width == 64:
            lo = self.op(f"trunc <{W} x i64> {value} to <{W} x i32>")
            sh = self.op(f"lshr <{W} x i64> {value}, splat (i64 32)")
            hi = self.op(f"trunc <{W} x i64> {sh} to <{W} x i32>")
            self.write_row(s, lo, on)
            self.write_row(s + 1, hi, on)
        else:
            self.write_row(s, value, on)

    def write_row(self, row: int, value: str, on: str) -> None:
        W = self.W
        p = self.reg_ptr(row)
        old = self.op(f"load <{W} x i32>, ptr {p}, align 4")
        v = self.op(f"select <{W} x i1> {on}, <{W} x i32> {value}, <{W} x i32> {old}")
        self.line(f"store <{W} x i32> {v}, ptr {p}, align 4")

    # ---- memory ------------------------------------------------------------------------------
    def address(self, m: Mem) -> str:
        base = self.read(m.base, 64)
        return self.op(f"add <{self.W} x i64> {base}, {self.e.splat(64, m.offset)}") if m.offset else base

    def host_pointers(self, addr: str, on_bits: str, size: int, bail: str) -> str:
        """Host pointers for the active lanes' addresses, all inside the allocation that
        the first active lane's address is in, in bounds and aligned; else bail."""
        W = self.W
        site = self.sites
        self.sites += 1
        if W == 1:   # one lane: a scalar check against the remembered allocation
            a0 = self.op(f"extractelement <1 x i64> {addr}, i32 0")
            p = self.op(f"call ptr @scalar_ptr(ptr %ctx, i64 {a0}, i64 {size}, i64 {site})")
            fine = self.lbl("inbounds")
            self.cbr(self.op(f"icmp eq ptr {p}, null"), bail, fine)
            self.label(fine)
            return self.op(f"insertelement <1 x ptr> poison, ptr {p}, i32 0")
        pair = self.op(f"call {{ <{W} x ptr>, i1 }} @lane_ptrs(ptr %ctx, <{W} x i64> {addr}, i32 {on_bits}, "
                       f"i64 {size}, i64 {site})")
        ok = self.op(f"extractvalue {{ <{W} x ptr>, i1 }} {pair}, 1")
        fine = self.lbl("inbounds")
        self.cbr(ok, fine, bail)
        self.label(fine)
        return self.op(f"extractvalue {{ <{W} x ptr>, i1 }} {pair}, 0")

    def gather(self, ptrs: str, on: str, bits: int) -> str:
        W = self.W
        name = f"llvm.masked.gather.v{W}i{bits}.v{W}p0"
        self.e.declare(name, f"declare <{W} x i{bits}> @{name}(<{W} x ptr>, i32, <{W} x i1>, <{W} x i{bits}>)")
        return self.op(f"call <{W} x i{bits}> @{name}(<{W} x ptr> {ptrs}, i32 1, <{W} x i1> {on}, "
                       f"<{W} x i{bits}> zeroinitializer)")

    def scatter(self, value: str, ptrs: str, on: str, bits: int) -> None:
        W = self.W
        name = f"llvm.masked.scatter.v{W}i{bits}.v{W}p0"
        self.e.declare(name, f"declare void @{name}(<{W} x i{bits}>, <{W} x ptr>, i32, <{W} x i1>)")
        self.line(f"call void @{name}(<{W} x i{bits}> {value}, <{W} x ptr> {ptrs}, i32 1, <{W} x i1> {on})")

    def emit_load(self, ins, on: str, on_bits: str, bail: str) -> None:
        W = self.W
        width = ins.mods[0] if ins.mods else "32"
        size = WIDTH_BYTES[width]
        addr = self.address(ins.srcs[0])
        go, done = self.lbl("load"), self.lbl("loaded")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        ptrs = self.host_pointers(addr, on_bits, size, bail)
        value = self.gather(ptrs, on, size * 8)
        if size < 4:   # a sub-word type lives extended in a 32-bit register
            ext = "sext" if width.startswith("S") else "zext"
            value = self.op(f"{ext} <{W} x i{size * 8}> {value} to <{W} x i32>")
        self.write(ins.dsts[0], value, on, 64 if size == 8 else 32)
        self.br(done)
        self.label(done)

    def emit_store(self, ins, on: str, on_bits: str, bail: str) -> str:
        """A store; returns an i1: did it change memory (progress, for deadlock detection)."""
        W = self.W
        width = ins.mods[0] if ins.mods else "32"
        size = WIDTH_BYTES[width]
        addr = self.address(ins.srcs[0])
        value = self.read(ins.srcs[1], 64 if width == "64" else 32)
        if size < 4:
            value = self.op(f"trunc <{W} x i32> {value} to <{W} x i{size * 8}>")
        go, done = self.lbl("store"), self.lbl("stored")
        entry = self.lbl("st")
        self.br(entry)
        self.label(entry)
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        ptrs = self.host_pointers(addr, on_bits, size, bail)
        changed = "false"
        if self.track_stall:   # progress, for deadlock detection: did the store change memory?
            old = self.gather(ptrs, on, size * 8)
            differ = self.op(f"icmp ne <{W} x i{size * 8}> {old}, {value}")
            differ = self.op(f"and <{W} x i1> {differ}, {on}")
            changed = self.op(f"icmp ne i32 {self.bits(differ)}, 0")
        self.scatter(value, ptrs, on, size * 8)
        last = self.current_label
        self.br(done)
        self.label(done)
        return self.op(f"phi i1 [ false, %{entry} ], [ {changed}, %{last} ]")

    @property
    def current_label(self) -> str:
        for text in reversed(self.e.lines):
            if text.endswith(":") and not text.startswith(" "):
                return text[:-1]
        raise AssertionError("no label")

    def emit_atomic(self, ins, on: str, on_bits: str, bail: str) -> str:
        """ATOM/ATOMS: each active thread in lane order, as one native atomic each."""
        W = self.W
        kind = ins.mods[0]
        tmod = ins.mods[1] if len(ins.mods) > 1 else "S32"
        bits = 64 if tmod in ("S64", "U64", "F64") else 32
        ty = f"i{bits}"
        addr = self.address(ins.srcs[0])
        vals = [self.read(s, bits) for s in ins.srcs[1:]]
        entry, go, done = self.lbl("at"), self.lbl("atom"), self.lbl("atomd")
        self.br(entry)
        self.label(entry)
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        ptrs = self.host_pointers(addr, on_bits, bits // 8, bail)
        if kind in ("MIN", "MAX"):
            rmw = ("" if tmod.startswith("S") else "u") + kind.lower()
        elif tmod in ("F32", "F64") and kind == "ADD":
            rmw = "fadd"
        else:
            rmw = "cas" if kind == "CAS" else ATOMIC_RMW[kind]
        name = self.atomic_helper(rmw, bits)
        v1 = vals[0] if vals else "zeroinitializer"
        v2 = vals[1] if len(vals) > 1 else "zeroinitializer"
        pair = self.op(f"call {{ <{W} x {ty}>, i1 }} @{name}(<{W} x ptr> {ptrs}, <{W} x {ty}> {v1}, "
                       f"<{W} x {ty}> {v2}, i32 {on_bits})")
        result = self.op(f"extractvalue {{ <{W} x {ty}>, i1 }} {pair}, 0")
        changed = self.op(f"extractvalue {{ <{W} x {ty}>, i1 }} {pair}, 1")
        self.write(ins.dsts[0], result, on, bits)
        last = self.current_label
        self.br(done)
        self.label(done)
        return self.op(f"phi i1 [ false, %{entry} ], [ {changed}, %{last} ]")

    def atomic_helper(self, rmw: str, bits: int) -> str:
        """`{<W x iN>, i1} @atom_<rmw>_<N>(ptrs, v, v2, on)`: each active lane in lane order,
        one native atomic each; the old values, and whether memory changed."""
        W, ty = self.W, f"i{bits}"
        name = f"atom_{rmw}_{bits}"
        if name in self.helpers:
            return name
        body = Emitter(W)
        saved, self.e = self.e, body
        self.label("lane")
        self.line("%i = phi i32 [ 0, %entry ], [ %i1, %next ]")
        self.line(f"%res = phi <{W} x {ty}> [ zeroinitializer, %entry ], [ %res1, %next ]")
        self.line("%chg = phi i1 [ false, %entry ], [ %chg1, %next ]")
        bit = self.op("shl i32 1, %i")
        active = self.op(f"icmp ne i32 {self.op(f'and i32 %on, {bit}')}, 0")
        self.cbr(active, "do", "skip")
        self.label("do")
        p = self.op(f"extractelement <{W} x ptr> %p, i32 %i")
        v = self.op(f"extractelement <{W} x {ty}> %va, i32 %i")
        if rmw == "cas":
            new = self.op(f"extractelement <{W} x {ty}> %vb, i32 %i")
            pair = self.op(f"cmpxchg ptr {p}, {ty} {v}, {ty} {new} seq_cst seq_cst")
            old = self.op(f"extractvalue {{ {ty}, i1 }} {pair}, 0")
            ok = self.op(f"extractvalue {{ {ty}, i1 }} {pair}, 1")
            ch = self.op(f"and i1 {ok}, {self.op(f'icmp ne {ty} {old}, {new}')}")
        elif rmw == "fadd":
            fty = "float" if bits == 32 else "double"
            fv = self.op(f"bitcast {ty} {v} to {fty}")
            oldf = self.op(f"atomicrmw fadd ptr {p}, {fty} {fv} seq_cst")
            old = self.op(f"bitcast {fty} {oldf} to {ty}")
            new = self.op(f"bitcast {fty} {self.op(f'fadd {fty} {oldf}, {fv}')} to {ty}")
            ch = self.op(f"icmp ne {ty} {old}, {new}")
        else:
            old = self.op(f"atomicrmw {rmw} ptr {p}, {ty} {v} seq_cst")
            new = self.atomic_new(rmw, old, v, ty)
            ch = self.op(f"icmp ne {ty} {old}, {new}")
        r2 = self.op(f"insertelement <{W} x {ty}> %res, {ty} {old}, i32 %i")
        c2 = self.op(f"or i1 %chg, {ch}")
        self.br("next")
        self.label("skip")
        self.br("next")
        self.label("next")
        self.line(f"%res1 = phi <{W} x {ty}> [ {r2}, %do ], [ %res, %skip ]")
        self.line(f"%chg1 = phi i1 [ {c2}, %do ], [ %chg, %skip ]")
        self.line("%i1 = add i32 %i, 1")
        self.cbr(self.op(f"icmp ult i32 %i1, {W}"), "lane", "out")
        self.label("out")
        pair = self.op(f"insertvalue {{ <{W} x {ty}>, i1 }} poison, <{W} x {ty}> %res1, 0")
        pair = self.op(f"insertvalue {{ <{W} x {ty}>, i1 }} {pair}, i1 %chg1, 1")
        self.line(f"ret {{ <{W} x {ty}>, i1 }} {pair}")
        self.e = saved
        saved.decls.update(body.decls)
        self.helpers[name] = (f"define internal {{ <{W} x {ty}>, i1 }} @{name}(<{W} x ptr> %p, <{W} x {ty}> %va, "
                              f"<{W} x {ty}> %vb, i32 %on) noinline {{\nentry:\n  br label %lane\n"
                              + "\n".join(body.lines) + "\n}\n")
        return name

    def atomic_new(self, rmw: str, old: str, v: str, ty: str) -> str:
        if rmw in ("add", "sub", "and", "or", "xor"):
            return self.op(f"{rmw} {ty} {old}, {v}")
        if rmw == "xchg":
            return v
        if rmw in ("min", "max", "umin", "umax"):
            name = f"llvm.{'s' if rmw in ('min', 'max') else ''}{rmw}.{ty}"
            self.e.declare(name, f"declare {ty} @{name}({ty}, {ty})")
            return self.op(f"call {ty} @{name}({ty} {old}, {ty} {v})")
        if rmw == "uinc_wrap":
            ge = self.op(f"icmp uge {ty} {old}, {v}")
            inc = self.op(f"add {ty} {old}, 1")
            return self.op(f"select i1 {ge}, {ty} 0, {ty} {inc}")
        if rmw == "udec_wrap":
            z = self.op(f"icmp eq {ty} {old}, 0")
            gt = self.op(f"icmp ugt {ty} {old}, {v}")
            c = self.op(f"or i1 {z}, {gt}")
            dec = self.op(f"sub {ty} {old}, 1")
            return self.op(f"select i1 {c}, {ty} {v}, {ty} {dec}")
        raise Unsupported(rmw)

    # ---- warp operations -------------------------------------------------------------------------
    def emit_vote(self, ins, on: str, on_bits: str) -> None:
        W = self.W
        if ins.op == "ACTIVEMASK":
            self.write(ins.dsts[0], self.splat_value("i32", on_bits), on, 32)
            return
        pred = self.read(ins.srcs[0], 32)
        pbits = self.bits(self.op(f"icmp ne <{W} x i32> {pred}, zeroinitializer"))
        maskv = self.read(ins.srcs[1], 32)
        self.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
        lane = self.op(f"call i32 @llvm.cttz.i32(i32 {on_bits}, i1 true)")
        lane = self.op(f"select i1 {self.op(f'icmp eq i32 {on_bits}, 0')}, i32 0, i32 {lane}")
        mbits = self.op(f"extractelement <{W} x i32> {maskv}, i32 {lane}")
        in_mask = self.op(f"and i32 {mbits}, {on_bits}")
        ballot = self.op(f"and i32 {pbits}, {in_mask}")
        kind = ins.mods[0]
        if kind == "BALLOT":
            value = ballot
        elif kind == "ANY":
            value = self.op(f"zext i1 {self.op(f'icmp ne i32 {ballot}, 0')} to i32")
        else:
            value = self.op(f"zext i1 {self.op(f'icmp eq i32 {ballot}, {in_mask}')} to i32")
        self.write(ins.dsts[0], self.splat_value("i32", value), on, 32)

    def emit_shuffle(self, ins, on: str) -> None:
        W = self.W
        mode = ins.mods[0]
        bits = 64 if "64" in ins.mods else 32
        ty = f"i{bits}"
        var = self.read(ins.srcs[0], bits)
        arg = self.read(ins.srcs[1], 32)
        width = self.read(ins.srcs[2], 32)
        lanes = self.lane_ids()
        okw = self.op(f"and <{W} x i1> {self.op(f'icmp sge <{W} x i32> {width}, splat (i32 1)')}, "
                      f"{self.op(f'icmp sle <{W} x i32> {width}, splat (i32 32)')}")
        width = self.op(f"select <{W} x i1> {okw}, <{W} x i32> {width}, <{W} x i32> splat (i32 32)")
        # the interpreter computes in int64 on the 32-bit argument read as unsigned
        arg64 = self.op(f"zext <{W} x i32> {arg} to <{W} x i64>")
        w64 = self.op(f"zext <{W} x i32> {width} to <{W} x i64>")
        l64 = self.op(f"zext <{W} x i32> {lanes} to <{W} x i64>")
        base = self.op(f"mul <{W} x i64> {self.op(f'udiv <{W} x i64> {l64}, {w64}')}, {w64}")
        if mode == "IDX":
            src = self.op(f"add <{W} x i64> {base}, {self.op(f'urem <{W} x i64> {arg64}, {w64}')}")
        elif mode == "UP":
            d = self.op(f"sub <{W} x i64> {l64}, {arg64}")
            ok = self.op(f"icmp sge <{W} x i64> {d}, {base}")
            src = self.op(f"select <{W} x i1> {ok}, <{W} x i64> {d}, <{W} x i64> {l64}")
        elif mode == "DOWN":
            d = self.op(f"add <{W} x i64> {l64}, {arg64}")
            ok = self.op(f"icmp slt <{W} x i64> {d}, {self.op(f'add <{W} x i64> {base}, {w64}')}")
            src = self.op(f"select <{W} x i1> {ok}, <{W} x i64> {d}, <{W} x i64> {l64}")
        else:
            d = self.op(f"xor <{W} x i64> {l64}, {arg64}")
            ok = self.op(f"icmp slt <{W} x i64> {d}, {self.op(f'add <{W} x i64> {base}, {w64}')}")
            src = self.op(f"select <{W} x i1> {ok}, <{W} x i64> {d}, <{W} x i64> {l64}")
        lo = self.op(f"icmp slt <{W} x i64> {src}, zeroinitializer")
        src = self.op(f"select <{W} x i1> {lo}, <{W} x i64> zeroinitializer, <{W} x i64> {src}")
        hi = self.op(f"icmp sgt <{W} x i64> {src}, {self.e.splat(64, WARP - 1)}")
        src = self.op(f"select <{W} x i1> {hi}, <{W} x i64> {self.e.splat(64, WARP - 1)}, <{W} x i64> {src}")
        name = f"shfl_{bits}"
        if name not in self.helpers:
            self.helpers[name] = (
                f"define internal <{W} x {ty}> @{name}(<{W} x {ty}> %var, <{W} x i64> %src) noinline {{\n"
                f"entry:\n  br label %lane\nlane:\n"
                f"  %i = phi i32 [ 0, %entry ], [ %i1, %lane ]\n"
                f"  %out = phi <{W} x {ty}> [ poison, %entry ], [ %out1, %lane ]\n"
                f"  %s = extractelement <{W} x i64> %src, i32 %i\n"
                f"  %x = extractelement <{W} x {ty}> %var, i64 %s\n"
                f"  %out1 = insertelement <{W} x {ty}> %out, {ty} %x, i32 %i\n"
                f"  %i1 = add i32 %i, 1\n  %more = icmp ult i32 %i1, {W}\n"
                f"  br i1 %more, label %lane, label %done\ndone:\n  ret <{W} x {ty}> %out1\n}}\n")
        out = self.op(f"call <{W} x {ty}> @{name}(<{W} x {ty}> {var}, <{W} x i64> {src})")
        self.write(ins.dsts[0], out, on, bits)

    # ---- the function ------------------------------------------------------------------------
    LOCALS = ("steps", "inst", "thr", "pon", "br", "div", "maxd", "maxp", "bars", "stall", "exb", "abb",
              "live", "grp", "oth", "nstop", "cur", "rng", "bset", "mask", "depth", "bailpc", "top", "rpc", "steps0",
              "spin")

    def warp_function(self) -> str:
        """`i32 @warp(ptr %ctx, i64 %wi)`: run warp wi until done (0), a barrier (1) or a bail (2)."""
        code = self.code
        self.e.lines = []
        self.label("entry")
        for name in self.LOCALS:
            self.line(f"%{name}.a = alloca i64")
        sizes = {"regs": code.rows * WARP * 4, "preds": code.npreds * WARP, "pcs": WARP * 8, "wait": WARP * 8,
                 "flags": 3 * WARP, "ids": 12 * WARP * 4, "frame": WARP * 8, "stack": MAXD * 24, "words": 64,
                 "bmask": NBAR * 8}
        for name, stride in sizes.items():
            base = self.ctx_field(L.SECTION[name], "ptr")
            off = self.op(f"mul i64 %wi, {stride}")
            self.line(f"%{name} = getelementptr i8, ptr {base}, i64 {off}")
        for name, index in (("syms", L.SYMS), ("mt_base", L.MT_BASE), ("mt_end", L.MT_END), ("mt_host", L.MT_HOST),
                            ("counters", L.COUNTERS)):
            v = self.ctx_field(index, "ptr")
            self.line(f"%{name} = getelementptr i8, ptr {v}, i64 0")
        self.line(f"%maxsteps = load i64, ptr {self.op('getelementptr i64, ptr %ctx, i64 ' + str(L.MAX_STEPS))}")
        self.line(f"%rngon = load i64, ptr {self.op('getelementptr i64, ptr %ctx, i64 ' + str(L.RNG_ON))}")
        steps = self.op(f"load i64, ptr {self.op(f'getelementptr i64, ptr %counters, i64 {L.STEPS}')}")
        self.store_local("steps", steps)
        self.store_local("steps0", steps)
        for name in ("inst", "thr", "pon", "br", "div", "maxd", "maxp", "bars"):
            self.store_local(name, 0)
        for name, index in (("stall", STALL), ("cur", CURRENT), ("rng", RNG), ("bset", BSET), ("depth", DEPTH),
                            ("spin", SPIN)):
            self.store_local(name, self.op(f"load i64, ptr {self.word_ptr(index)}"))
        for name, which in (("live", 0), ("exb", 1), ("abb", 2)):
            self.store_local(name, self.op(f"zext i32 {self.load_flag_bits(which)} to i64"))
        self.store_local("bailpc", 0)
        rows_at = len(self.e.lines)
        self.br("sched")
        if self.sched == "stack":
            self.stack_dispatch()
        else:
            self.its_scheduler()
        for pc, ins in enumerate(code.instrs):
            try:
                if self.effect_plan(ins) is None:
                    self.always_bail.add(pc)
            except Unsupported:
                self.always_bail.add(pc)
        self.entries = self.entry_points()
        self.entry_set = set(self.entries)
        bounds = self.entries + [code.end]
        self.segment = {e: bounds[i + 1] - e for i, e in enumerate(self.entries)}
        for pc in range(code.end):
            self.instruction(pc)
        self.common_blocks()
        self.exits()
        self.e.lines[rows_at:rows_at] = self.load_rows()
        cases = " ".join(f"i64 {k}, label %I{k}" for k in self.entries)
        body = "\n".join(self.e.lines).replace("@CASES@", cases)
        return f"define internal i32 @warp(ptr %ctx, i64 %wi) {{\n{body}\n}}\n"

    def i32(self, name: str) -> str:
        return self.op(f"trunc i64 {self.load_local(name)} to i32")

    def set32(self, name: str, value: str) -> None:
        self.store_local(name, self.op(f"zext i32 {value} to i64"))

    # ---- the stack model's dispatch ------------------------------------------------------------
    def top_ptr(self) -> str:
        depth = self.load_local("depth")
        i = self.op(f"sub i64 {depth}, 1")
        return self.op(f"getelementptr i8, ptr %stack, i64 {self.op(f'mul i64 {i}, 24')}")

    def stack_dispatch(self) -> None:
        code = self.code
        self.label("sched")
        depth = self.load_local("depth")
        self.cbr(self.op(f"icmp eq i64 {depth}, 0"), "finish", "sched.top")
        self.label("sched.top")
        top = self.top_ptr()
        self.store_local("top", self.op(f"ptrtoint ptr {top} to i64"))
        pc = self.op(f"load i64, ptr {top}")
        mp = self.gep(top, 8)
        m = self.op(f"load i64, ptr {mp}")
        rpc = self.op(f"load i64, ptr {self.gep(top, 16)}")
        ex = self.load_local("exb")
        m = self.op(f"and i64 {m}, {self.op(f'xor i64 {ex}, -1')}")
        self.line(f"store i64 {m}, ptr {mp}")
        self.store_local("mask", m)
        c1 = self.op(f"icmp eq i64 {pc}, {rpc}")
        c2 = self.op(f"icmp eq i64 {m}, 0")
        c3 = self.op(f"icmp sge i64 {pc}, {code.end}")
        self.store_local("rpc", rpc)
        pop = self.op(f"or i1 {self.op(f'or i1 {c1}, {c2}')}, {c3}")
        self.cbr(pop, "sched.pop", "sched.run")
        self.label("sched.pop")
        self.store_local("depth", self.op(f"sub i64 {self.load_local('depth')}, 1"))
        self.br("sched")
        self.label("sched.run")
        maxd = self.load_local("maxd")
        d = self.load_local("depth")
        self.store_local("maxd", self.op(f"select i1 {self.op(f'icmp sgt i64 {d}, {maxd}')}, i64 {d}, i64 {maxd}"))
        self.line(f"switch i64 {pc}, label %finish [ @CASES@ ]")

    def set_top_pc(self, pc) -> None:
        top = self.op(f"inttoptr i64 {self.load_local('top')} to ptr")
        self.line(f"store i64 {pc}, ptr {top}")

    # ---- the ITS scheduler ------------------------------------------------------------------------
    def vec_pcs(self) -> str:
        return self.op(f"load <{self.W} x i64>, ptr %pcs, align 8")

    def vec_wait(self) -> str:
        return self.op(f"load <{self.W} x i64>, ptr %wait, align 8")

    def vmin(self, vec: str) -> str:
        name = f"llvm.vector.reduce.smin.v{self.W}i64"
        self.e.declare(name, f"declare i64 @{name}(<{self.W} x i64>)")
        return self.op(f"call i64 @{name}(<{self.W} x i64> {vec})")

    def masked_min(self, pcs: str, maskbits: str, above: str | None) -> str:
        """min of pcs over the lanes in maskbits (and > above); INT64_MAX when none."""
        W = self.W
        m = self.vmask(maskbits)
        if above is not None:
            gt = self.op(f"icmp sgt <{W} x i64> {pcs}, {self.splat_value('i64', above)}")
            m = self.op(f"and <{W} x i1> {m}, {gt}")
        v = self.op(f"select <{W} x i1> {m}, <{W} x i64> {pcs}, <{W} x i64> {self.e.splat(64, INT64_MAX)}")
        return self.vmin(v)

    def its_scheduler(self) -> None:
        W, code = self.W, self.code
        self.label("sched")
        pcs, wt = self.vec_pcs(), self.vec_wait()
        ex, ab = self.i32("exb"), self.i32("abb")
        notex = self.op(f"xor i32 {ex}, -1")
        notab = self.op(f"xor i32 {ab}, -1")
        nowait = self.bits(self.op(f"icmp slt <{W} x i64> {wt}, zeroinitializer"))
        inrange = self.bits(self.op(f"icmp slt <{W} x i64> {pcs}, {self.e.splat(64, code.end)}"))
        r = self.op(f"and i32 {self.op(f'and i32 {notex}, {nowait}')}, {self.op(f'and i32 {notab}, {inrange}')}")
        if W < 32:
            r = self.op(f"and i32 {r}, {(1 << W) - 1}")
        self.cbr(self.op(f"icmp eq i32 {r}, 0"), "sched.none", "sched.some")
        # nothing runnable: a barrier, a release of every convergence barrier, or the end
        self.label("sched.none")
        full = (1 << W) - 1 if W < 32 else -1
        idle = self.op(f"and i32 {self.op(f'and i32 {notex}, {notab}')}, {nowait}")
        idle = self.op(f"and i32 {idle}, {full}")
        atbar = self.op(f"and i1 {self.op(f'icmp ne i32 {ab}, 0')}, {self.op(f'icmp eq i32 {idle}, 0')}")
        self.cbr(atbar, "at_bar", "sched.release")
        self.label("sched.release")
        waiting_v = self.op(f"icmp sge <{W} x i64> {wt}, zeroinitializer")
        waiting = self.bits(waiting_v)
        wl = self.op(f"and i32 {self.op(f'and i32 {waiting}, {notex}')}, {full}")
        self.cbr(self.op(f"icmp ne i32 {wl}, 0"), "sched.releaseall", "finish")
        self.label("sched.releaseall")
        wt2 = self.op(f"select <{W} x i1> {waiting_v}, <{W} x i64> {self.e.splat(64, -1)}, <{W} x i64> {wt}")
        pcs2 = self.op(f"select <{W} x i1> {waiting_v}, <{W} x i64> "
                       f"{self.op(f'add <{W} x i64> {pcs}, splat (i64 1)')}, <{W} x i64> {pcs}")
        self.line(f"store <{W} x i64> {wt2}, ptr %wait, align 8")
        self.line(f"store <{W} x i64> {pcs2}, ptr %pcs, align 8")
        again = self.op(f"and i32 {self.op(f'and i32 {notex}, {notab}')}, {full}")   # all waits are over now
        self.cbr(self.op(f"icmp ne i32 {again}, 0"), "sched", "finish")
        # count the distinct pcs (the paths), and choose one
        self.label("sched.some")
        self.line("br label %sched.count")
        self.label("sched.count")
        rem = self.op(f"phi i32 [ {r}, %sched.some ], [ %rem.next, %sched.count ]")
        cnt = self.op("phi i64 [ 0, %sched.some ], [ %cnt.next, %sched.count ]")
        self.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
        lane = self.op(f"call i32 @llvm.cttz.i32(i32 {rem}, i1 true)")
        p = self.op(f"extractelement <{W} x i64> {pcs}, i32 {lane}")
        same = self.bits(self.op(f"icmp eq <{W} x i64> {pcs}, {self.splat_value('i64', p)}"))
        self.line(f"%rem.next = and i32 {rem}, {self.op(f'xor i32 {same}, -1')}")
        self.line(f"%cnt.next = add i64 {cnt}, 1")
        self.cbr(self.op("icmp eq i32 %rem.next, 0"), "sched.counted", "sched.count")
        self.label("sched.counted")
        maxp = self.load_local("maxp")
        self.store_local("maxp", self.op(f"select i1 {self.op(f'icmp sgt i64 %cnt.next, {maxp}')}, i64 %cnt.next, i64 {maxp}"))
        cur = self.load_local("cur")
        at_cur = self.bits(self.op(f"icmp eq <{W} x i64> {pcs}, {self.splat_value('i64', cur)}"))
        here = self.op(f"and i32 {r}, {at_cur}")
        self.cbr(self.op(f"icmp ne i32 {here}, 0"), "sched.go", "sched.choose")
        self.label("sched.choose")
        self.cbr(self.op("icmp ne i64 %rngon, 0"), "sched.random", "sched.rr")
        self.label("sched.rr")
        later = self.masked_min(pcs, r, cur)
        lowest = self.masked_min(pcs, r, None)
        none = self.op(f"icmp eq i64 {later}, {INT64_MAX}")
        self.store_local("cur", self.op(f"select i1 {none}, i64 {lowest}, i64 {later}"))
        self.br("sched.go")
        self.label("sched.random")
        x = self.load_local("rng")
        x = self.op(f"xor i64 {x}, {self.op(f'lshr i64 {x}, 12')}")
        x = self.op(f"xor i64 {x}, {self.op(f'shl i64 {x}, 25')}")
        x = self.op(f"xor i64 {x}, {self.op(f'lshr i64 {x}, 27')}")
        self.store_local("rng", x)
        out = self.op(f"mul i64 {x}, {0x2545F4914F6CDD1D - (1 << 64)}")
        k = self.op(f"urem i64 {self.op(f'lshr i64 {out}, 32')}, %cnt.next")
        self.br("sched.kth")
        self.label("sched.kth")
        i = self.op("phi i64 [ 0, %sched.random ], [ %kth.i, %sched.kth ]")
        prev = self.op(f"phi i64 [ {-(1 << 63)}, %sched.random ], [ %kth.v, %sched.kth ]")
        v = self.masked_min(pcs, r, prev)
        self.line(f"%kth.v = add i64 {v}, 0")
        self.line(f"%kth.i = add i64 {i}, 1")
        self.cbr(self.op(f"icmp ugt i64 %kth.i, {k}"), "sched.kthdone", "sched.kth")
        self.label("sched.kthdone")
        self.store_local("cur", "%kth.v")
        self.br("sched.go")
        self.label("sched.go")
        cur = self.load_local("cur")
        at_cur = self.bits(self.op(f"icmp eq <{W} x i64> {pcs}, {self.splat_value('i64', cur)}"))
        grp = self.op(f"and i32 {r}, {at_cur}")
        oth = self.op(f"and i32 {r}, {self.op(f'xor i32 {grp}, -1')}")
        self.set32("grp", grp)
        self.set32("oth", oth)
        self.store_local("nstop", self.masked_min(pcs, oth, cur))
        self.line(f"switch i64 {cur}, label %finish [ @CASES@ ]")

    def its_materialize(self, pc_next) -> None:
        """The group's threads are at pc_next (their pcs were left behind while running straight)."""
        W = self.W
        pcs = self.vec_pcs()
        g = self.vmask(self.i32("grp"))
        at = self.e.splat(64, pc_next) if isinstance(pc_next, int) else self.splat_value("i64", pc_next)
        v = self.op(f"select <{W} x i1> {g}, <{W} x i64> {at}, <{W} x i64> {pcs}")
        self.line(f"store <{W} x i64> {v}, ptr %pcs, align 8")

    def release_bsync(self) -> None:
        """Open every convergence barrier whose threads have all arrived or exited."""
        W = self.W
        if not self.barriers:
            return
        for n in self.barriers:
            wt, pcs = self.vec_wait(), self.vec_pcs()
            wn_v = self.op(f"icmp eq <{W} x i64> {wt}, {self.e.splat(64, 99 if n == WARPSYNC_BARRIER else n)}")
            wn = self.bits(wn_v)
            bm = self.op(f"load i64, ptr {self.gep('%bmask', n * 8)}")
            bm = self.op(f"trunc i64 {bm} to i32")
            ex = self.i32("exb")
            arrived = self.op(f"or i32 {ex}, {wn}")
            missing = self.op(f"and i32 {bm}, {self.op(f'xor i32 {arrived}, -1')}")
            bset = self.load_local("bset")
            isset = self.op(f"icmp ne i64 {self.op(f'and i64 {bset}, {1 << n}')}, 0")
            some = self.op(f"icmp ne i32 {wn}, 0")
            all_in = self.op(f"icmp eq i32 {missing}, 0")
            cond = self.op(f"and i1 {isset}, {self.op(f'and i1 {some}, {all_in}')}")
            apply = self.vmask(self.op(f"select i1 {cond}, i32 {wn}, i32 0"))
            wt2 = self.op(f"select <{W} x i1> {apply}, <{W} x i64> {self.e.splat(64, -1)}, <{W} x i64> {wt}")
            inc = self.op(f"add <{W} x i64> {pcs}, splat (i64 1)")
            pcs2 = self.op(f"select <{W} x i1> {apply}, <{W} x i64> {inc}, <{W} x i64> {pcs}")
            self.line(f"store <{W} x i64> {wt2}, ptr %wait, align 8")
            self.line(f"store <{W} x i64> {pcs2}, ptr %pcs, align 8")

    # ---- one instruction ----------------------------------------------------------------------
    def instruction(self, pc: int) -> None:
        """Native code for code[pc]; an instruction it cannot compile always bails."""
        mark, decls = len(self.e.lines), dict(self.e.decls)
        try:
            plan = self.effect_plan(self.code.instrs[pc])
            if plan is not None:
                self.compiled_instruction(pc, plan)
                return
        except Unsupported:
            del self.e.lines[mark:]
            self.e.decls = decls
        self.always_bail.add(pc)
        self.label(f"I{pc}")
        self.br(f"B{pc}")
        self.bail_block(pc)

    def compiled_instruction(self, pc: int, body) -> None:
        W, code = self.W, self.code
        ins = code.instrs[pc]
        self.label(f"I{pc}")
        bail = f"B{pc}"
        stack = self.sched == "stack"
        # what the interpreter does itself: budget and deadlock reports (checked once for
        # the straight run of code an entry point starts), a divergent barrier
        steps = self.load_local("steps")
        over = "false"
        if pc in self.entry_set:
            run = self.segment[pc]
            over = self.op(f"icmp ugt i64 {self.op(f'add i64 {steps}, {run}')}, %maxsteps")
            if self.track_stall:
                stall = self.load_local("stall")
                limit = DEADLOCK_STEPS if stack else ITS_STALL_STEPS
                over = self.op(f"or i1 {over}, {self.op(f'icmp sgt i64 {stall}, {limit - run}')}")
            if self.track_spin:
                spin = self.load_local("spin")
                over = self.op(f"or i1 {over}, {self.op(f'icmp sgt i64 {spin}, {ITS_STALL_STEPS - run}')}")
        if stack and ins.op == "BRA":
            depth = self.load_local("depth")
            over = self.op(f"or i1 {over}, {self.op(f'icmp sgt i64 {depth}, {MAXD - 2}')}")
        if stack and ins.op == "BAR":
            live, ex, m = self.load_local("live"), self.load_local("exb"), self.load_local("mask")
            want = self.op(f"and i64 {live}, {self.op(f'xor i64 {ex}, -1')}")
            depth = self.load_local("depth")
            diverged = self.op(f"icmp sgt i64 {depth}, 1")
            bad = self.op(f"or i1 {self.op(f'icmp ne i64 {m}, {want}')}, {diverged}")
            over = self.op(f"or i1 {over}, {bad}")
        if over != "false":
            go = f"I{pc}.go"
            self.cbr(over, bail, go)
            self.label(go)
        group = "1" if W == 1 else self.i32("mask" if stack else "grp")
        gv = self.vmask(group) if W != 1 else "splat (i1 true)"
        if ins.guard is not None:
            g = self.read(ins.guard, 1)
            if ins.guard_neg:
                g = self.op(f"xor <{W} x i1> {g}, splat (i1 true)")
            on = self.op(f"and <{W} x i1> {gv}, {g}")
            on_bits = self.bits(on)
        else:
            on, on_bits = gv, group
        self.store_local("steps", self.op(f"add i64 {steps}, 1"))
        if self.kernel:   # the metrics of calls and host code are not reported
            self.add_local("thr", self.popc(group))
            self.add_local("pon", self.popc(on_bits))
        body(ins, on, on_bits, group, bail, pc)
        self.bail_block(pc)

    def bail_block(self, pc: int) -> None:
        self.label(f"B{pc}")
        self.store_local("bailpc", pc)
        self.br("bail.common")

    def common_blocks(self) -> None:
        """Where every instruction's bail and every merge of ITS paths go."""
        self.label("bail.common")
        pc = self.load_local("bailpc")
        if self.sched == "stack":
            self.set_top_pc(pc)
        else:
            self.its_materialize(pc)
            self.store_local("cur", pc)
        self.br("bail")
        if self.sched == "its":
            self.label("merge.common")
            nxt = self.load_local("bailpc")
            self.its_materialize(nxt)
            self.store_local("cur", self.op(f"sub i64 {nxt}, 1"))
            self.br("sched")

    def entry_points(self) -> list[int]:
        """The pcs native code can be entered at: labels, the pc after an event or an
        instruction that always goes to the interpreter.  Between them code runs
        straight, so LLVM sees few joins."""
        code = self.code
        if self.seeded:
            return list(range(code.end))
        entries = set(code.label_pc.values()) | {0}
        for pc, ins in enumerate(code.instrs):
            if OPS[ins.op].jit in ENDS_STRAIGHT_RUN or pc in self.always_bail:
                entries.add(pc + 1)
        return sorted(e for e in entries if e < code.end)

    def effect_plan(self, ins):
        """The emitter for this instruction, from the lowering its ISA row names
        (`lower_<jit>`), or None to hand it to the interpreter."""
        name = OPS[ins.op].jit
        return None if name == HAND_OFF else getattr(self, "lower_" + name)(ins)

    # ---- the lowerings the ISA rows name: lower_<jit>(ins) -> emitter, or None (hand-off) ---------
    def lower_branch(self, ins):
        return self.do_branch

    def lower_exit(self, ins):
        return self.do_exit

    def lower_trap(self, ins):
        return self.do_trap

    def lower_barrier(self, ins):
        return self.do_bar

    def lower_nothing(self, ins):
        return self.do_nothing

    def lower_yield(self, ins):
        return self.do_yield

    def lower_bssy(self, ins):
        return self.do_bssy

    def lower_bsync(self, ins):
        return self.do_bsync

    def lower_warpsync(self, ins):
        return self.do_warpsync

    def lower_load(self, ins):
        if (ins.mods[0] if ins.mods else "32") not in WIDTH_BYTES:
            return None
        return self.effect(lambda i, on, ob, bail: self.emit_load(i, on, ob, bail) or "false")

    def lower_store(self, ins):
        if (ins.mods[0] if ins.mods else "32") not in WIDTH_BYTES:
            return None
        return self.effect(self.emit_store)

    def lower_atomic(self, ins):
        tmod = ins.mods[1] if len(ins.mods) > 1 else "S32"
        kind = ins.mods[0] if ins.mods else ""
        if kind not in ATOMIC_RMW and kind not in ("MIN", "MAX", "CAS"):
            return None
        if tmod in ("F32", "F64") and kind not in ("ADD", "EXCH"):
            return None
        return self.effect(self.emit_atomic)

    def lower_special(self, ins):
        if not isinstance(ins.srcs[0], Special):
            return None
        self_special = ins.srcs[0].name
        base = self_special.rpartition(".")[0]
        if self_special not in ("SR_LANEID", "SR_WARPSIZE") and base not in ID_NAMES:
            return None
        return self.effect(lambda i, on, ob, bail: self.write(i.dsts[0], self.special(self_special), on, 32) or "false")

    def lower_vote(self, ins):
        return self.effect(lambda i, on, ob, bail: self.emit_vote(i, on, ob) or "false")

    def lower_shuffle(self, ins):
        return self.effect(lambda i, on, ob, bail: self.emit_shuffle(i, on) or "false")

    def lower_runtime_call(self, ins):
        """The host thread's rand, memcpy, memmove and memset; every other call is handed off."""
        if "RT" in ins.mods and ins.srcs[0].name in NATIVE_RUNTIME and self.W == 1 and not self.kernel:
            return self.effect(self.emit_rand if ins.srcs[0].name == "rand" else self.emit_memory_function)
        return None

    def lower_pure(self, ins):
        if _ops is not None and _ops.supported(ins):
            return self.effect(self.emit_pure)
        return None

    def emit_pure(self, ins, on: str, on_bits: str, bail: str) -> str:
        widths = semantics.source_widths(ins)
        srcs = [self.read(s, w) for s, w in zip(ins.srcs, widths)]
        value = _ops.emit_pure(self.e, ins, srcs)
        self.write(ins.dsts[0], value, on, semantics.result_width(ins))
        return "false"

    def emit_rand(self, ins, on: str, on_bits: str, bail: str) -> str:
        """glibc's rand() for the host thread: r = state[front] += state[rear]; r >> 1."""
        go, done = self.lbl("rand"), self.lbl("randd")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, go)
        self.label(go)
        v = self.op("call i32 @rand_native(ptr %ctx)")
        if ins.dsts:
            wide = ins.dsts[0].is_wide
            value = self.op(f"zext i32 {v} to i64") if wide else v
            vec = self.splat_value("i64" if wide else "i32", value)
            self.write(ins.dsts[0], vec, on, 64 if wide else 32)
        self.br(done)
        self.label(done)
        return "false"

    def emit_memory_function(self, ins, on: str, on_bits: str, bail: str) -> str:
        """memcpy, memmove, memset for the host thread, when every byte lies in one live
        allocation (else the interpreter runs it and reports the fault)."""
        name = ins.srcs[0].name
        args = [self.op(f"extractelement <1 x i64> {self.read(s, 64)}, i32 0") for s in ins.srcs[1:4]]
        go, check, done = self.lbl("mem"), self.lbl("memchk"), self.lbl("memd")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), done, check)
        self.label(check)
        self.cbr(self.op(f"icmp eq i64 {args[2]}, 0"), bail, go)   # n == 0: the interpreter's corner
        self.label(go)
        dst = self.op(f"call ptr @range_ptr(ptr %ctx, i64 {args[0]}, i64 {args[2]})")
        fine = self.lbl("memok")
        self.cbr(self.op(f"icmp eq ptr {dst}, null"), bail, fine)
        self.label(fine)
        if name == "memset":
            c = self.op(f"trunc i64 {args[1]} to i8")
            self.line(f"call void @llvm.memset.p0.i64(ptr {dst}, i8 {c}, i64 {args[2]}, i1 false)")
        else:
            src = self.op(f"call ptr @range_ptr(ptr %ctx, i64 {args[1]}, i64 {args[2]})")
            ok = self.lbl("memok")
            self.cbr(self.op(f"icmp eq ptr {src}, null"), bail, ok)
            self.label(ok)
            self.line(f"call void @llvm.memmove.p0.p0.i64(ptr {dst}, ptr {src}, i64 {args[2]}, i1 false)")
        if ins.dsts:
            self.write(ins.dsts[0], self.splat_value("i64", args[0]), on, 64)
        self.br(done)
        self.label(done)
        return "false"

    def effect(self, emit):
        """An instruction with an effect and no control flow: run it for the active lanes."""
        def body(ins, on, on_bits, group, bail, pc):
            changed = emit(ins, on, on_bits, bail)
            self.after(pc, changed)
        return body

    def stall_update(self, changed: str) -> None:
        if self.track_spin:
            spin = self.load_local("spin")
            nxt = self.op(f"add i64 {spin}, 1")
            self.store_local("spin", self.op(f"select i1 {changed}, i64 0, i64 {nxt}") if changed != "false" else nxt)
        if not self.track_stall:
            return
        stall = self.load_local("stall")
        reset = changed
        if self.sched == "stack":
            one = self.op(f"icmp eq i64 {self.load_local('depth')}, 1")
            reset = self.op(f"or i1 {changed}, {one}") if changed != "false" else one
        nxt = self.op(f"add i64 {stall}, 1")
        self.store_local("stall", self.op(f"select i1 {reset}, i64 0, i64 {nxt}") if reset != "false" else nxt)

    def after(self, pc: int, changed: str = "false") -> None:
        """Straight on to pc + 1: within a block directly; at a label the stack model
        goes through its dispatch (an entry may pop there), ITS rejoins its scheduler
        when another path waits at pc + 1 or schedules are seeded."""
        self.stall_update(changed)
        nxt = pc + 1
        if self.sched == "stack":
            if nxt >= self.code.end:
                self.set_top_pc(nxt)
                self.br("sched")
            elif nxt in self.block_starts:
                self.goto_label(nxt)
            else:
                self.br(f"I{nxt}")
            return
        if nxt >= self.code.end:
            self.its_materialize(nxt)
            self.store_local("cur", pc)
            self.br("sched")
            return
        stop = self.op(f"icmp eq i64 {self.load_local('nstop')}, {nxt}")
        stop = self.op(f"or i1 {stop}, {self.op('icmp ne i64 %rngon, 0')}")
        resched = f"R{pc}"
        self.cbr(stop, resched, f"I{nxt}")
        self.label(resched)
        self.store_local("bailpc", nxt)
        self.br("merge.common")

    def goto_label(self, pc: int) -> None:
        """Stack model: on to the label at pc with the same top entry, unless the entry
        ends there (pc is its rpc): then through the dispatch, which pops it."""
        here = self.op(f"icmp eq i64 {self.load_local('rpc')}, {pc}")
        pop, go = self.lbl("pop"), self.lbl("on")
        self.cbr(here, pop, go)
        self.label(pop)
        self.set_top_pc(pc)
        self.br("sched")
        self.label(go)
        self.br(f"I{pc}")

    def do_nothing(self, ins, on, on_bits, group, bail, pc):
        self.after(pc)

    def do_yield(self, ins, on, on_bits, group, bail, pc):
        if self.sched == "stack":
            self.after(pc)
            return
        self.stall_update("false")
        self.its_materialize(pc + 1)
        self.store_local("cur", pc + 1)
        self.br("sched")

    def do_bssy(self, ins, on, on_bits, group, bail, pc):
        if self.sched == "its":
            n = int(ins.srcs[0].name[1:])
            self.line(f"store i64 {self.op(f'zext i32 {on_bits} to i64')}, ptr {self.gep('%bmask', n * 8)}")
            self.store_local("bset", self.op(f"or i64 {self.load_local('bset')}, {1 << n}"))
        self.after(pc)

    def do_bsync(self, ins, on, on_bits, group, bail, pc):
        if self.sched == "stack":
            self.after(pc)
            return
        self.wait_at(pc, int(ins.srcs[0].name[1:]), on)

    def wait_at(self, pc: int, n: int, on: str) -> None:
        W = self.W
        self.its_materialize(pc + 1)
        wt, pcs = self.vec_wait(), self.vec_pcs()
        self.line(f"store <{W} x i64> {self.op(f'select <{W} x i1> {on}, <{W} x i64> {self.e.splat(64, n)}, <{W} x i64> {wt}')}, ptr %wait, align 8")
        self.line(f"store <{W} x i64> {self.op(f'select <{W} x i1> {on}, <{W} x i64> {self.e.splat(64, pc)}, <{W} x i64> {pcs}')}, ptr %pcs, align 8")
        self.release_bsync()
        self.stall_update("false")
        self.store_local("cur", pc)
        self.br("sched")

    def do_warpsync(self, ins, on, on_bits, group, bail, pc):
        if self.sched == "stack":
            self.after(pc)
            return
        self.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
        lane = self.op(f"call i32 @llvm.cttz.i32(i32 {group}, i1 true)")
        lane = self.op(f"select i1 {self.op(f'icmp eq i32 {group}, 0')}, i32 0, i32 {lane}")
        v = self.read(ins.srcs[0], 32)
        bits = self.op(f"extractelement <{self.W} x i32> {v}, i32 {lane}")
        bits = self.op(f"select i1 {self.op(f'icmp eq i32 {group}, 0')}, i32 0, i32 {bits}")
        m = self.op(f"and i32 {bits}, {self.i32('live')}")
        self.line(f"store i64 {self.op(f'zext i32 {m} to i64')}, ptr {self.gep('%bmask', WARPSYNC_BARRIER * 8)}")
        self.store_local("bset", self.op(f"or i64 {self.load_local('bset')}, {1 << WARPSYNC_BARRIER}"))
        self.wait_at(pc, 99, on)

    def do_exit(self, ins, on, on_bits, group, bail, pc):
        ex = self.load_local("exb")
        self.store_local("exb", self.op(f"or i64 {ex}, {self.op(f'zext i32 {on_bits} to i64')}"))
        if self.sched == "stack":
            self.stall_update("false")
            # nobody left: the entry's mask stays, so go straight on (a guarded return in a loop)
            stay, leave = self.lbl("stay"), self.lbl("leave")
            self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), stay, leave)
            self.label(stay)
            if pc + 1 < self.code.end:
                self.goto_label(pc + 1) if pc + 1 in self.block_starts else self.br(f"I{pc + 1}")
            else:
                self.br(leave)
            self.label(leave)
            self.set_top_pc(pc + 1)
            self.br("sched")
            return
        self.its_materialize(pc + 1)
        self.release_bsync()
        self.stall_update("false")
        self.store_local("cur", pc)
        self.br("sched")

    def do_trap(self, ins, on, on_bits, group, bail, pc):
        """A thread that traps goes to the interpreter, which reports the failed launch."""
        go = self.lbl("notrap")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), go, bail)
        self.label(go)
        self.after(pc)

    def do_bar(self, ins, on, on_bits, group, bail, pc):
        self.add_local("bars", 1)
        if self.sched == "stack":
            self.set_top_pc(pc + 1)
            self.br("at_bar")
            return
        ab = self.load_local("abb")
        self.store_local("abb", self.op(f"or i64 {ab}, {self.op(f'zext i32 {on_bits} to i64')}"))
        self.its_materialize(pc + 1)
        self.stall_update("false")
        self.store_local("cur", pc)
        self.br("sched")

    def do_branch(self, ins, on, on_bits, group, bail, pc):
        code = self.code
        target = code.label_pc[ins.target]
        self.add_local("br", 1)
        rest = self.op(f"and i32 {group}, {self.op(f'xor i32 {on_bits}, -1')}")
        both = self.op(f"and i1 {self.op(f'icmp ne i32 {on_bits}, 0')}, {self.op(f'icmp ne i32 {rest}, 0')}")
        d = self.load_local("div")
        self.store_local("div", self.op(f"add i64 {d}, {self.op(f'zext i1 {both} to i64')}"))
        if self.sched == "stack":
            split, uniform = f"S{pc}", f"U{pc}"
            self.cbr(both, split, uniform)
            self.label(split)
            join = code.rpc[code.block_of[pc]]
            self.set_top_pc(join)
            depth = self.load_local("depth")
            for k, (epc, emask) in enumerate(((pc + 1, rest), (target, on_bits))):
                index = self.op(f"add i64 {depth}, {k}")
                slot = self.op(f"getelementptr i8, ptr %stack, i64 {self.op(f'mul i64 {index}, 24')}")
                self.line(f"store i64 {epc}, ptr {slot}")
                self.line(f"store i64 {self.op(f'zext i32 {emask} to i64')}, ptr {self.gep(slot, 8)}")
                self.line(f"store i64 {join}, ptr {self.gep(slot, 16)}")
            self.store_local("depth", self.op(f"add i64 {depth}, 2"))
            self.stall_update("false")
            self.br("sched")
            self.label(uniform)
            self.stall_update("false")
            taken = self.op(f"icmp ne i32 {on_bits}, 0")
            yes, no = self.lbl("taken"), self.lbl("nottaken")
            self.cbr(taken, yes, no)
            self.label(yes)
            self.goto_label(target)
            self.label(no)
            if pc + 1 < code.end:
                self.goto_label(pc + 1)
            else:
                self.set_top_pc(pc + 1)
                self.br("sched")
            return
        W = self.W
        # alone in the warp and not seeded, a uniform branch keeps its path running: the
        # scheduler would pick this very group at the target (or at pc + 1)
        oth = self.load_local("oth")
        alone = self.op(f"and i1 {self.op(f'icmp eq i64 {oth}, 0')}, {self.op('icmp eq i64 %rngon, 0')}")
        direct = self.op(f"and i1 {alone}, {self.op(f'xor i1 {both}, true')}")
        fast, slow = self.lbl("alone"), self.lbl("resched")
        self.cbr(direct, fast, slow)
        self.label(fast)
        self.stall_update("false")
        taken = self.op(f"icmp ne i32 {on_bits}, 0")
        yes = self.lbl("taken")
        if pc + 1 < code.end:
            self.cbr(taken, yes, f"I{pc + 1}")
        else:
            self.cbr(taken, yes, slow)
        self.label(yes)
        self.br(f"I{target}")
        self.label(slow)
        self.its_materialize(pc + 1)
        pcs = self.vec_pcs()
        v = self.op(f"select <{W} x i1> {on}, <{W} x i64> {self.e.splat(64, target)}, <{W} x i64> {pcs}")
        self.line(f"store <{W} x i64> {v}, ptr %pcs, align 8")
        any_on = self.op(f"icmp ne i32 {on_bits}, 0")
        cur = str(pc)
        if target <= pc:
            cur = self.op(f"select i1 {any_on}, i64 {pc + 1}, i64 {pc}")
        else:
            alltaken = self.op(f"and i1 {any_on}, {self.op(f'icmp eq i32 {rest}, 0')}")
            cur = self.op(f"select i1 {alltaken}, i64 {target}, i64 {pc}")
        self.store_local("cur", cur)
        self.stall_update("false")
        self.br("sched")

    # ---- leaving -------------------------------------------------------------------------------
    def exits(self) -> None:
        for name, status in (("finish", L.DONE), ("at_bar", L.AT_BAR), ("bail", L.BAIL)):
            self.label(name)
            self.save_state()
            self.line(f"ret i32 {status}")

    def save_state(self) -> None:
        self.store_rows()
        self.store_local("inst", self.op(f"sub i64 {self.load_local('steps')}, {self.load_local('steps0')}"))
        for name, index in ((L.INST, "inst"), (L.THREAD, "thr"), (L.PRED_ON, "pon"), (L.BRANCH, "br"),
                            (L.DIVERGENT, "div"), (L.BARRIERS, "bars")):
            p = self.op(f"getelementptr i64, ptr %counters, i64 {name}")
            old, add = self.op(f"load i64, ptr {p}"), self.load_local(index)
            self.line(f"store i64 {self.op(f'add i64 {old}, {add}')}, ptr {p}")
        for name, index in ((L.MAX_DEPTH, "maxd"), (L.MAX_PATHS, "maxp")):
            p = self.op(f"getelementptr i64, ptr %counters, i64 {name}")
            old, new = self.op(f"load i64, ptr {p}"), self.load_local(index)
            gt = self.op(f"icmp sgt i64 {new}, {old}")
            self.line(f"store i64 {self.op(f'select i1 {gt}, i64 {new}, i64 {old}')}, ptr {p}")
        p = self.op(f"getelementptr i64, ptr %counters, i64 {L.STEPS}")
        self.line(f"store i64 {self.load_local('steps')}, ptr {p}")
        for name, index in (("stall", STALL), ("cur", CURRENT), ("rng", RNG), ("bset", BSET), ("depth", DEPTH),
                            ("spin", SPIN)):
            self.line(f"store i64 {self.load_local(name)}, ptr {self.word_ptr(index)}")
        self.store_flag_bits(1, self.i32("exb"))
        self.store_flag_bits(2, self.i32("abb"))
        p = self.op(f"getelementptr i64, ptr %ctx, i64 {L.BAIL_PC}")
        self.line(f"store i64 {self.load_local('bailpc')}, ptr {p}")


# ---- the module: helpers and entry points --------------------------------------------------------
FIND = f"""
define internal i64 @find(ptr %ctx, i64 %addr) {{
entry:
  %np = getelementptr i64, ptr %ctx, i64 {L.MT_N}
  %n = load i64, ptr %np
  %bp = getelementptr i64, ptr %ctx, i64 {L.MT_BASE}
  %bases = load ptr, ptr %bp
  br label %loop
loop:
  %lo = phi i64 [ 0, %entry ], [ %lo2, %step ]
  %hi = phi i64 [ %n, %entry ], [ %hi2, %step ]
  %more = icmp ult i64 %lo, %hi
  br i1 %more, label %step, label %done
step:
  %sum = add i64 %lo, %hi
  %mid = lshr i64 %sum, 1
  %mp = getelementptr i64, ptr %bases, i64 %mid
  %mb = load i64, ptr %mp
  %le = icmp ule i64 %mb, %addr
  %mid1 = add i64 %mid, 1
  %lo2 = select i1 %le, i64 %mid1, i64 %lo
  %hi2 = select i1 %le, i64 %hi, i64 %mid
  br label %loop
done:
  %r = sub i64 %lo, 1
  ret i64 %r
}}
"""

RAND = f"""
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define internal i32 @rand_native(ptr %ctx) {{
entry:
  %sp = getelementptr i64, ptr %ctx, i64 {L.RAND}
  %st = load ptr, ptr %sp
  %fp = getelementptr i32, ptr %st, i64 31
  %rp = getelementptr i32, ptr %st, i64 32
  %front = load i32, ptr %fp
  %rear = load i32, ptr %rp
  %pf = getelementptr i32, ptr %st, i32 %front
  %pr = getelementptr i32, ptr %st, i32 %rear
  %a = load i32, ptr %pf
  %b = load i32, ptr %pr
  %w = add i32 %a, %b
  store i32 %w, ptr %pf
  %f1 = add i32 %front, 1
  %fw = icmp slt i32 %f1, 31
  %f2 = select i1 %fw, i32 %f1, i32 0
  store i32 %f2, ptr %fp
  %r1 = add i32 %rear, 1
  %rw = icmp slt i32 %r1, 31
  %r2 = select i1 %rw, i32 %r1, i32 0
  store i32 %r2, ptr %rp
  %out = lshr i32 %w, 1
  ret i32 %out
}}
"""

def remembered_ir(sites: int) -> str:
    """`i64 @remembered(ctx, addr, site)`: the index of the allocation holding addr
    (-1: none), trying first the one memory instruction `site` found last time."""
    return f"""
@sitecache = internal global [{max(sites, 1)} x i64] zeroinitializer
define internal i64 @remembered(ptr %ctx, i64 %a, i64 %site) alwaysinline {{
entry:
  %np = getelementptr i64, ptr %ctx, i64 {L.MT_N}
  %n = load i64, ptr %np
  %cp = getelementptr i64, ptr @sitecache, i64 %site
  %c = load atomic i64, ptr %cp unordered, align 8
  %cin = icmp ult i64 %c, %n
  br i1 %cin, label %try, label %search
try:
  %bpp = getelementptr i64, ptr %ctx, i64 {L.MT_BASE}
  %bases = load ptr, ptr %bpp
  %cb = getelementptr i64, ptr %bases, i64 %c
  %cbase = load i64, ptr %cb
  %c1 = icmp ule i64 %cbase, %a
  br i1 %c1, label %try2, label %search
try2:
  %epp = getelementptr i64, ptr %ctx, i64 {L.MT_END}
  %ends = load ptr, ptr %epp
  %ce = getelementptr i64, ptr %ends, i64 %c
  %cend = load i64, ptr %ce
  %c2 = icmp ult i64 %a, %cend
  br i1 %c2, label %hit, label %search
hit:
  ret i64 %c
search:
  %f = call i64 @find(ptr %ctx, i64 %a)
  %fneg = icmp slt i64 %f, 0
  br i1 %fneg, label %none, label %remember
remember:
  store atomic i64 %f, ptr %cp unordered, align 8
  ret i64 %f
none:
  ret i64 -1
}}
"""


def _table_entry(idx: str) -> str:
    """IR lines loading %base, %end and %host of memory table entry idx."""
    lines = []
    for name, field in (("base", L.MT_BASE), ("end", L.MT_END), ("host", L.MT_HOST)):
        lines += [f"  %{name}.t.p = getelementptr i64, ptr %ctx, i64 {field}",
                  f"  %{name}.t = load ptr, ptr %{name}.t.p",
                  f"  %{name}.p = getelementptr i64, ptr %{name}.t, i64 {idx}",
                  f"  %{name} = load i64, ptr %{name}.p"]
    return "\n".join(lines)


def lane_ptrs_ir(lanes: int) -> str:
    """`{<W x ptr>, i1} @lane_ptrs(ctx, addr, on, size, site)`: host pointers for the
    active lanes, when they all fall in bounds and aligned inside the allocation that
    holds the first active lane's address (remembered per memory instruction)."""
    W = lanes
    return f"""
define internal {{ <{W} x ptr>, i1 }} @lane_ptrs(ptr %ctx, <{W} x i64> %addr, i32 %on, i64 %size, i64 %site) noinline {{
entry:
  %lane = call i32 @llvm.cttz.i32(i32 %on, i1 true)
  %a0 = extractelement <{W} x i64> %addr, i32 %lane
  %idx = call i64 @remembered(ptr %ctx, i64 %a0, i64 %site)
  %none = icmp slt i64 %idx, 0
  br i1 %none, label %fail, label %found
found:
{_table_entry("%idx")}
  %last = sub i64 %end, %size
  %big = icmp uge i64 %end, %size
  %vb0 = insertelement <{W} x i64> poison, i64 %base, i64 0
  %vb = shufflevector <{W} x i64> %vb0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %vl0 = insertelement <{W} x i64> poison, i64 %last, i64 0
  %vl = shufflevector <{W} x i64> %vl0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %ge = icmp uge <{W} x i64> %addr, %vb
  %le = icmp ule <{W} x i64> %addr, %vl
  %inb = and <{W} x i1> %ge, %le
  %sm1 = sub i64 %size, 1
  %vs0 = insertelement <{W} x i64> poison, i64 %sm1, i64 0
  %vs = shufflevector <{W} x i64> %vs0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %al = and <{W} x i64> %addr, %vs
  %alz = icmp eq <{W} x i64> %al, zeroinitializer
  %okv = and <{W} x i1> %inb, %alz
  {_bits_ir(W, "%okv", "%okb")}
  %nok = xor i32 %okb, -1
  %miss = and i32 %on, %nok
  %allok = icmp eq i32 %miss, 0
  %good = and i1 %allok, %big
  br i1 %good, label %make, label %fail
make:
  %delta = sub i64 %host, %base
  %vd0 = insertelement <{W} x i64> poison, i64 %delta, i64 0
  %vd = shufflevector <{W} x i64> %vd0, <{W} x i64> poison, <{W} x i32> zeroinitializer
  %ha = add <{W} x i64> %addr, %vd
  %ptrs = inttoptr <{W} x i64> %ha to <{W} x ptr>
  %r0 = insertvalue {{ <{W} x ptr>, i1 }} poison, <{W} x ptr> %ptrs, 0
  %r1 = insertvalue {{ <{W} x ptr>, i1 }} %r0, i1 true, 1
  ret {{ <{W} x ptr>, i1 }} %r1
fail:
  ret {{ <{W} x ptr>, i1 }} zeroinitializer
}}
"""


def _bits_ir(lanes: int, vec: str, out: str) -> str:
    if lanes == 32:
        return f"{out} = bitcast <32 x i1> {vec} to i32"
    return f"{out}.n = bitcast <{lanes} x i1> {vec} to i{lanes}\n  {out} = zext i{lanes} {out}.n to i32"


RANGE_PTR = f"""
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
define internal ptr @range_ptr(ptr %ctx, i64 %addr, i64 %n) {{
entry:
  %idx = call i64 @find(ptr %ctx, i64 %addr)
  %none = icmp slt i64 %idx, 0
  br i1 %none, label %fail, label %found
found:
{_table_entry("%idx")}
  %room = sub i64 %end, %addr
  %fits = icmp ule i64 %n, %room
  %inside = icmp ult i64 %addr, %end
  %ok = and i1 %fits, %inside
  br i1 %ok, label %make, label %fail
make:
  %off = sub i64 %addr, %base
  %h = add i64 %host, %off
  %p = inttoptr i64 %h to ptr
  ret ptr %p
fail:
  ret ptr null
}}
"""


def scalar_ptr_ir() -> str:
    """`ptr @scalar_ptr(ctx, addr, size, site)`: lane_ptrs for one lane; null when the
    access is not in bounds and aligned inside one live allocation."""
    return f"""
define internal ptr @scalar_ptr(ptr %ctx, i64 %a, i64 %size, i64 %site) alwaysinline {{
entry:
  %idx = call i64 @remembered(ptr %ctx, i64 %a, i64 %site)
  %none = icmp slt i64 %idx, 0
  br i1 %none, label %fail, label %found
found:
{_table_entry("%idx")}
  %last = sub i64 %end, %size
  %big = icmp uge i64 %end, %size
  %le = icmp ule i64 %a, %last
  %sm1 = sub i64 %size, 1
  %al = and i64 %a, %sm1
  %alz = icmp eq i64 %al, 0
  %ok1 = and i1 %big, %le
  %ok = and i1 %ok1, %alz
  br i1 %ok, label %make, label %fail
make:
  %off = sub i64 %a, %base
  %h = add i64 %host, %off
  %p = inttoptr i64 %h to ptr
  ret ptr %p
fail:
  ret ptr null
}}
"""


RUN_FUNCTION = """
define i32 @run_function(ptr %ctx) {
entry:
  %r = call i32 @warp(ptr %ctx, i64 0)
  ret i32 %r
}
"""


def _f(index: int) -> str:
    return f"getelementptr i64, ptr %ctx, i64 {index}"


def run_blocks_ir(ids_stride: int, flags_stride: int, words_stride: int, reductions: bool = False) -> str:
    """The block loop: start each block of [BLOCK, BLOCK_END) from the template, run its
    warps round by round (each until it exits or reaches the barrier), open the
    barrier when every live warp has arrived, note blocks that completed a barrier
    with some threads exited; stop at a bail, to be resumed.  With `reductions` (the
    code holds a BAR.RED) it also stops as a barrier opens (OPENING), so that the
    engine delivers the reductions, and is resumed at the opening (RESUME_OPEN)."""
    S = L.SECTION
    cta = ID_NAMES.index("SR_CTAID") * 3 * WARP * 4
    return f"""
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define i32 @run_blocks(ptr %ctx) {{
entry:
  %nwp = {_f(L.NWARPS)}
  %nw = load i64, ptr %nwp
  %idsp = {_f(S['ids'])}
  %ids = load ptr, ptr %idsp
  %flagsp = {_f(S['flags'])}
  %flags = load ptr, ptr %flagsp
  %wordsp = {_f(S['words'])}
  %words = load ptr, ptr %wordsp
  %resp = {_f(L.RESUME)}
  %res = load i64, ptr %resp
  %isres = icmp ne i64 %res, 0
  br i1 %isres, label %resume, label %start
resume:
  store i64 0, ptr %resp
  %reopen = icmp eq i64 %res, {L.RESUME_OPEN}
  br i1 %reopen, label %opening, label %round
start:
  %bp = {_f(L.BLOCK)}
  %b = load i64, ptr %bp
  %ep = {_f(L.BLOCK_END)}
  %e = load i64, ptr %ep
  %ap = {_f(L.ABORT)}
  %ab = load volatile i64, ptr %ap
  %past = icmp sge i64 %b, %e
  %stop = icmp ne i64 %ab, 0
  %quit = or i1 %past, %stop
  br i1 %quit, label %out, label %image
out:
  ret i32 {L.DONE}
image:
  %stp = {_f(L.STATE)}
  %st = load ptr, ptr %stp
  %tp = {_f(L.TEMPLATE)}
  %tpl = load ptr, ptr %tp
  %szp = {_f(L.STATE_SIZE)}
  %sz = load i64, ptr %szp
  call void @llvm.memcpy.p0.p0.i64(ptr %st, ptr %tpl, i64 %sz, i1 false)
  %gxp = {_f(L.GRID_X)}
  %gx = load i64, ptr %gxp
  %gyp = {_f(L.GRID_Y)}
  %gy = load i64, ptr %gyp
  %bx = urem i64 %b, %gx
  %t = udiv i64 %b, %gx
  %by = urem i64 %t, %gy
  %bz = udiv i64 %t, %gy
  %bx32 = trunc i64 %bx to i32
  %by32 = trunc i64 %by to i32
  %bz32 = trunc i64 %bz to i32
  %vx0 = insertelement <32 x i32> poison, i32 %bx32, i64 0
  %vx = shufflevector <32 x i32> %vx0, <32 x i32> poison, <32 x i32> zeroinitializer
  %vy0 = insertelement <32 x i32> poison, i32 %by32, i64 0
  %vy = shufflevector <32 x i32> %vy0, <32 x i32> poison, <32 x i32> zeroinitializer
  %vz0 = insertelement <32 x i32> poison, i32 %bz32, i64 0
  %vz = shufflevector <32 x i32> %vz0, <32 x i32> poison, <32 x i32> zeroinitializer
  %rop = {_f(L.RNG_ON)}
  %ron = load i64, ptr %rop
  %sdp = {_f(L.SEED)}
  %seed = load i64, ptr %sdp
  %s1 = mul i64 %seed, {0x9E3779B97F4A7C15 - (1 << 64)}
  %s2 = mul i64 %b, {0xBF58476D1CE4E5B9 - (1 << 64)}
  %s12 = xor i64 %s1, %s2
  br label %ctaloop
ctaloop:
  %w = phi i64 [ 0, %image ], [ %w1, %ctaloop ]
  %io = mul i64 %w, {ids_stride}
  %ip = getelementptr i8, ptr %ids, i64 %io
  %cx = getelementptr i8, ptr %ip, i64 {cta}
  store <32 x i32> %vx, ptr %cx, align 4
  %cy = getelementptr i8, ptr %ip, i64 {cta + WARP * 4}
  store <32 x i32> %vy, ptr %cy, align 4
  %cz = getelementptr i8, ptr %ip, i64 {cta + 2 * WARP * 4}
  store <32 x i32> %vz, ptr %cz, align 4
  %s3 = mul i64 %w, {0x94D049BB133111EB - (1 << 64)}
  %s4 = xor i64 %s12, %s3
  %s5 = or i64 %s4, 1
  %wo = mul i64 %w, {words_stride}
  %wp = getelementptr i8, ptr %words, i64 %wo
  %rngp = getelementptr i64, ptr %wp, i64 {RNG}
  %oldrng = load i64, ptr %rngp
  %isr = icmp ne i64 %ron, 0
  %newrng = select i1 %isr, i64 %s5, i64 %oldrng
  store i64 %newrng, ptr %rngp
  %w1 = add i64 %w, 1
  %cmore = icmp ult i64 %w1, %nw
  br i1 %cmore, label %ctaloop, label %zero
zero:
  %znp = {_f(L.SCOPE_N)}
  %zn = load i64, ptr %znp
  %zpp = {_f(L.SCOPE_PTRS)}
  %zptrs = load ptr, ptr %zpp
  %zsp = {_f(L.SCOPE_SIZES)}
  %zsizes = load ptr, ptr %zsp
  br label %zloop
zloop:
  %z = phi i64 [ 0, %zero ], [ %z1, %zbody ]
  %zm = icmp ult i64 %z, %zn
  br i1 %zm, label %zbody, label %round
zbody:
  %zpe = getelementptr ptr, ptr %zptrs, i64 %z
  %zptr = load ptr, ptr %zpe
  %zse = getelementptr i64, ptr %zsizes, i64 %z
  %zsize = load i64, ptr %zse
  call void @llvm.memset.p0.i64(ptr %zptr, i8 0, i64 %zsize, i1 false)
  %z1 = add i64 %z, 1
  br label %zloop
round:
  br label %wloop
wloop:
  %rw = phi i64 [ 0, %round ], [ %rw1, %wnext ]
  %rwo = mul i64 %rw, {words_stride}
  %rwp = getelementptr i8, ptr %words, i64 %rwo
  %statp = getelementptr i64, ptr %rwp, i64 {STATUS}
  %stat = load i64, ptr %statp
  %torun = icmp eq i64 %stat, {RUN}
  br i1 %torun, label %wrun, label %wnext
wrun:
  %r = call i32 @warp(ptr %ctx, i64 %rw)
  %isbail = icmp eq i32 %r, {L.BAIL}
  br i1 %isbail, label %bail, label %wset
bail:
  %bwp = {_f(L.BAIL_WARP)}
  store i64 %rw, ptr %bwp
  ret i32 {L.BAIL}
wset:
  %isdone = icmp eq i32 %r, {L.DONE}
  %ns = select i1 %isdone, i64 {DONE}, i64 {AT_BAR}
  store i64 %ns, ptr %statp
  br label %wnext
wnext:
  %rw1 = add i64 %rw, 1
  %wmore = icmp ult i64 %rw1, %nw
  br i1 %wmore, label %wloop, label %tally
tally:
  br label %tloop
tloop:
  %tw = phi i64 [ 0, %tally ], [ %tw1, %tloop ]
  %nbar = phi i64 [ 0, %tally ], [ %nbar1, %tloop ]
  %part = phi i1 [ false, %tally ], [ %part1, %tloop ]
  %two = mul i64 %tw, {words_stride}
  %twp = getelementptr i8, ptr %words, i64 %two
  %tsp = getelementptr i64, ptr %twp, i64 {STATUS}
  %ts = load i64, ptr %tsp
  %tb = icmp eq i64 %ts, {AT_BAR}
  %tbi = zext i1 %tb to i64
  %nbar1 = add i64 %nbar, %tbi
  %tfo = mul i64 %tw, {flags_stride}
  %tfp = getelementptr i8, ptr %flags, i64 %tfo
  %lv = load <32 x i8>, ptr %tfp, align 1
  %tep = getelementptr i8, ptr %tfp, i64 {WARP}
  %ev = load <32 x i8>, ptr %tep, align 1
  %le = and <32 x i8> %lv, %ev
  %lem = icmp ne <32 x i8> %le, zeroinitializer
  %leb = bitcast <32 x i1> %lem to i32
  %gone = icmp ne i32 %leb, 0
  %pg = and i1 %tb, %gone
  %part1 = or i1 %part, %pg
  %tw1 = add i64 %tw, 1
  %tmore = icmp ult i64 %tw1, %nw
  br i1 %tmore, label %tloop, label %decide
decide:
  %none = icmp eq i64 %nbar1, 0
  br i1 %none, label %nextblock, label %barrier
nextblock:
  %bp2 = {_f(L.BLOCK)}
  %b2 = load i64, ptr %bp2
  %b3 = add i64 %b2, 1
  store i64 %b3, ptr %bp2
  br label %start
barrier:
  %fewer = icmp ult i64 %nbar1, %nw
  %warn = or i1 %fewer, %part1
  br i1 %warn, label %note, label %open
note:
  %nwnp = {_f(L.NWARN)}
  %nwn = load i64, ptr %nwnp
  %room = icmp ult i64 %nwn, {L.WARN_CAP}
  br i1 %room, label %record, label %counted
record:
  %wlp = {_f(L.WARN)}
  %wl = load ptr, ptr %wlp
  %wle = getelementptr i64, ptr %wl, i64 %nwn
  %bp4 = {_f(L.BLOCK)}
  %b4 = load i64, ptr %bp4
  store i64 %b4, ptr %wle
  br label %counted
counted:
  %nwn1 = add i64 %nwn, 1
  store i64 %nwn1, ptr %nwnp
  br label %open
open:
  {f"ret i32 {L.OPENING}" if reductions else "br label %opening"}
opening:
  br label %oloop
oloop:
  %ow = phi i64 [ 0, %opening ], [ %ow1, %onext ]
  %owo = mul i64 %ow, {words_stride}
  %owp = getelementptr i8, ptr %words, i64 %owo
  %osp = getelementptr i64, ptr %owp, i64 {STATUS}
  %os = load i64, ptr %osp
  %ob = icmp eq i64 %os, {AT_BAR}
  br i1 %ob, label %oreset, label %onext
oreset:
  store i64 {RUN}, ptr %osp
  %ofo = mul i64 %ow, {flags_stride}
  %ofp = getelementptr i8, ptr %flags, i64 %ofo
  %oab = getelementptr i8, ptr %ofp, i64 {2 * WARP}
  store <32 x i8> zeroinitializer, ptr %oab, align 1
  br label %onext
onext:
  %ow1 = add i64 %ow, 1
  %omore = icmp ult i64 %ow1, %nw
  br i1 %omore, label %oloop, label %round
}}
"""


def module_ir(code: Code, sched: str, lanes: int, symbols: list[str], kernel: bool,
              seeded: bool = False) -> tuple[str, list[int]]:
    """The module's text, and the pcs its code can be entered at."""
    gen = FunctionCodegen(code, sched, lanes, symbols, kernel, seeded)
    warp = gen.warp_function()
    parts = [warp, FIND, RAND, RANGE_PTR, RUN_FUNCTION, remembered_ir(gen.sites),
             scalar_ptr_ir() if lanes == 1 else lane_ptrs_ir(lanes)] + list(gen.helpers.values())
    if kernel:
        from minicuda.vm.state import Layout
        lay = Layout(code.rows, code.npreds, 1)
        reductions = any(ins.op == "BAR.RED" for ins in code.instrs)
        parts.append(run_blocks_ir(lay.stride["ids"], lay.stride["flags"], lay.stride["words"], reductions))
    gen.e.declare("cttz32", "declare i32 @llvm.cttz.i32(i32, i1)")
    decls = {}
    for text in gen.e.decls.values():   # one declaration per symbol, whoever asked for it
        decls.setdefault(re.search(r"@([\w.$]+)\(", text).group(1), text)
    return "\n".join(list(decls.values()) + parts), gen.entries

"""The base of the JIT's function code generator: its state and its IR vocabulary.

`LaneCode` holds what every part of code generation shares: the function's `Code`,
the scheduling model, the lane count W, the Emitter the lines go to, and the
module-level helpers asked for so far.  On top of the Emitter it gives the words
the lowerings are written in: fresh labels and branches, the warp's locals (one
`alloca i64` each, named `%<name>.a`: counters, masks, the scheduler's registers),
lane masks as `i32` bits or `<W x i1>` vectors, the lane flags, and operands read
and written as lane vectors (`read`, `write`).

Invariants: a write touches only the lanes of its `on` mask; a warp's registers
live in locals loaded at entry from the block state (`%regs`, `%preds`: `load_rows`)
and written back wherever the code leaves (`store_rows`), so that LLVM keeps them in
SSA values.  What cannot be lowered
raises `Unsupported`, and the instruction goes to the interpreter.

The concerns are mixin classes over this base, composed in function.py's
`FunctionCodegen`, and they reach each other through `self`: a lowering wraps its
emitter with the driver's `effect`, which goes on with `after`; the control
lowerings hand their model's part to `stack_<x>` / `its_<x>`.
"""
from __future__ import annotations

import numpy as np

from minicuda import semantics
from minicuda.ir import Imm, Reg, Special, Sym
from minicuda.vm.code import PRED_BASE, Code
from minicuda.vm.jit.emit import Emitter
from minicuda.vm.state import ID_NAMES, WARP, WARPSYNC_BARRIER


class Unsupported(Exception):
    """An instruction or operand native code does not handle: the interpreter runs it."""


class LaneCode:
    """The state and IR vocabulary of one function's code generation (see FunctionCodegen)."""

    def __init__(self, code: Code, sched: str, lanes: int, symbols: list[str], kernel: bool, seeded: bool = False,
                 profiled: bool = False, checks: frozenset = frozenset()):
        self.code, self.sched, self.W = code, sched, lanes
        self.profiled = profiled   # count per instruction (vm/profile.py's native table)
        # a seeded ITS schedule may park a path at any pc, so every pc is an entry point
        self.seeded = seeded
        # the tools compiled in (vm/tools.py's COMPILED_TOOLS): initcheck's memory instructions
        # read and set its flags; synccheck's warp-synchronous ones go to the interpreter, and
        # racecheck's memory instructions and fences too
        self.initcheck, self.synccheck = "initcheck" in checks, "synccheck" in checks
        self.racecheck = "racecheck" in checks
        # the memory counters' variant (vm/jit/memlog.py): device code logs each warp-level
        # load and store and counts each instruction's warp executions
        self.counted = "memcounters" in checks and lanes > 1
        # the timing model's variant (vm/jit/rounds.py): each instruction steps the warp's round trips
        self.rounds = "loadrounds" in checks and lanes > 1
        self.symbols = symbols            # the module's symbol table (index = position)
        self.kernel = kernel
        self.e = Emitter(lanes)
        self.nlabel = 0
        self.block_starts = set(code.label_pc.values())
        # device code counts instructions since memory last changed, for the look for a
        # repeating state (vm/cycles.py); host code (one lane) may spin as a native program does
        self.track_stall = lanes > 1
        # registers live in SSA values, not in the block state: loaded at entry, written back
        # wherever the code leaves (a warp's masked writes are selects on values; through
        # memory each was a masked store that the next read of the row waited on, since a
        # load cannot take its bytes from a masked store in flight)
        self.ssa_regs = lanes == 1 or not any(i.op.startswith("BAR") for i in code.instrs)
        self.rows_used: set[int] = set()
        self.preds_used: set[int] = set()
        self.sites = 0                    # memory instructions: each has a cached allocation
        self.cached_sites: list[int] = []  # the host thread's: each has its range in locals too
        self.always_bail: set[int] = set()
        self.entries: list[int] = []
        self.helpers: dict[str, str] = {}   # module-level functions this code needs
        self.callee_rows: dict[str, tuple] = {}   # native callees (host_callees.py): index, layout, rows, preds
        self.barriers = sorted({int(i.srcs[0].name[1:]) for i in code.instrs if i.op in ("BSSY", "BSYNC", "BREAK")}
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
                if s < PRED_BASE:
                    raise Unsupported(f"predicate read of {o}")
                p = self.pred_ptr(s - PRED_BASE)
                v = self.op(f"load <{W} x i8>, ptr {p}, align 1")
                return self.op(f"icmp ne <{W} x i8> {v}, zeroinitializer")
            if s == -1:
                return "zeroinitializer"
            if s >= PRED_BASE:
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
        if width == 1 or s >= PRED_BASE:
            if r.name == "PT":
                return
            if width != 1:
                value = self.op(f"icmp ne <{W} x i{width}> {value}, zeroinitializer")
            p = self.pred_ptr(s - PRED_BASE)
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

    # ---- locals, labels and the no-progress counters ----------------------------------------
    def i32(self, name: str) -> str:
        return self.op(f"trunc i64 {self.load_local(name)} to i32")

    def set32(self, name: str, value: str) -> None:
        self.store_local(name, self.op(f"zext i32 {value} to i64"))

    @property
    def current_label(self) -> str:
        for text in reversed(self.e.lines):
            if text.endswith(":") and not text.startswith(" "):
                return text[:-1]
        raise AssertionError("no label")

    def stall_update(self, changed: str) -> None:
        """The no-progress counters after an instruction; `changed` (an i1, or "false")
        says whether it changed memory: then the stall restarts, CHECK goes back to its
        first value, SAMPLED to -1 (vm/cycles.py), and the instructions that changed
        memory (`wr`) count one more."""
        if not self.track_stall:
            return
        nxt = self.op(f"add i64 {self.load_local('stall')}, 1")
        if changed == "false":
            self.store_local("stall", nxt)
            return
        self.store_local("stall", self.op(f"select i1 {changed}, i64 0, i64 {nxt}"))
        self.store_local("check", self.op(f"select i1 {changed}, i64 %firstcheck, i64 {self.load_local('check')}"))
        self.store_local("sampled", self.op(f"select i1 {changed}, i64 -1, i64 {self.load_local('sampled')}"))
        self.add_local("wr", self.op(f"zext i1 {changed} to i64"))

"""The reference interpreter: the executable specification of the bytecode.

A warp is 32 lanes executed together with numpy: one register file of
[slots x 32] uint32 (a 64-bit value is an aligned pair), predicates [8 x 32].
Two scheduling models run a warp:

- `stack` (sm_2x..sm_6x): one pc per warp and a reconvergence stack of
  (pc, mask, rpc) entries.  A divergent branch sets the top entry's pc to the
  branch's reconvergence point, the join its SSY names (minicuda/ir.py gives the
  rule; the compiler places it at the immediate post-dominator), and pushes one
  entry per side with that rpc; only the top runs; an entry whose pc reaches its
  rpc is popped.
- `its` (sm_70+): a pc per thread.  The scheduler runs the threads that share a pc
  as one instruction, stays on a path until it blocks, exits or takes a backward
  branch (a yield point), then moves round-robin to the next pc: a spinning thread
  cannot starve the thread holding the lock.  BSSY Bn records the threads that must
  meet at BSYNC Bn; they wait there for each other or for their exit.

Metrics follow nvprof/ncu: a branch is one execution of a BRA, a user function's CALL
or a RET by a warp (a BRA whose guard no thread holds included; EXIT is not one),
divergent when its active threads go to more than one target.

It is over 800 lines because it is the bytecode's specification: the scheduling of both
models, every opcode's meaning and the launches that drive them (a cooperative launch's
blocks side by side included) read as one contract, which the JIT must match bit for bit.
"""
from __future__ import annotations

import contextlib
import dataclasses
import struct
import time

import numpy as np

from minicuda.ir import Imm, Mem, Reg, Special, Sym
from minicuda.isa import OPS
from minicuda import semantics
from minicuda.vm import cycles
from minicuda.vm.code import PRED_BASE, Code
from minicuda.vm.errors import VMError
from minicuda.vm.launch_setup import LaunchSetup
from minicuda.vm.memory import DEVICE, HOST, SHARED_WINDOW, WIDTH_BYTES, Memory, MemoryFault, pointer_note
from minicuda.vm.load_rounds import LoadRounds
from minicuda.vm.memcounters import count_access
from minicuda.vm.timing_model import instruction_class, loads_in_flight
from minicuda.vm.metrics import LaunchMetrics, counts_as_branch
from minicuda.vm.racecheck import RaceCheck
from minicuda.vm.synccheck import SyncCheck
from minicuda.vm.tools import WARNING, Findings, report_uninitialised, sanitizer_report
from minicuda.vm.profile import InstructionProfile, IssueTrace
from minicuda.vm.stop import StopFlag, Stopped, block_positions
from minicuda.vm.state import (BSET, CHECK, CURRENT, DEPTH, DONE, MAXD, NBAR, RNG, SAMPLED, STALL, STATUS, WARP,
                               WARPSYNC_BARRIER, BlockState, bits_mask, mask_bits, rng_next, start_block)

LANES = np.arange(WARP)
SCHEDULED_KINDS = ("control", "sync", "marker")   # ISA kinds the scheduler sees even with no thread's guard true
BLOCK_BARRIERS = ("barrier", "bar_red")   # the semantics (ISA `interp`) that wait for the whole block
BAR_REDUCTIONS = ("POPC", "AND", "OR")
DIVISIONS = ("IDIV", "IREM")
REGISTER_BITS = {"64": 64, "128": 128}   # a load's or store's register width by its width modifier (else 32)


class Warp:
    """One warp: views of its rows in a BlockState, plus the scheduler's Python-side state
    (`pull` reads it from the shared arrays, `push` writes it back for the JIT)."""

    def __init__(self, code: Code, state: BlockState, index: int, symbols: dict, scope=None, warp_id=0):
        self.code, self.state, self.index = code, state, index
        self.regs = state.regs[index]
        self.preds = state.preds[index].view(bool)
        flags = state.flags[index].view(bool)
        self.live, self.exited, self.at_bar = flags[0], flags[1], flags[2]
        self.pc = state.pcs[index]
        self.waiting = state.wait[index]
        self.frame = state.frame[index]
        self.ids = state.warp_ids(index)
        self.ids["warp"] = warp_id
        self.symbols, self.scope = symbols, scope
        self.driven = False        # run by a call stack (Machine.call_function), which runs its CALLs
        self.watched = code.fn.kind != "host"   # looked at for a repeating state (vm/cycles.py); host loops may spin
        self.pending_call = None   # (CALL, threads) for that call stack to run
        self.load_rounds = None    # vm/load_rounds.py's epochs (with the memory counters)
        self.pull()

    def pull(self) -> None:
        words, index = self.state.words[self.index], self.index
        self.stack = [[int(pc), bits_mask(m), int(rpc)] for pc, m, rpc in self.state.stack[index, :int(words[DEPTH])]]
        self.current, self.stall, self.rng = int(words[CURRENT]), int(words[STALL]), int(words[RNG])
        self.check, self.sampled = int(words[CHECK]), int(words[SAMPLED])
        self.done = int(words[STATUS]) == DONE
        self.barrier_masks = {_barrier_name(n): bits_mask(self.state.bmask[index, n])
                              for n in range(NBAR) if int(words[BSET]) >> n & 1}

    def push(self) -> None:
        words, index = self.state.words[self.index], self.index
        if len(self.stack) > MAXD:
            raise VMError("internal", f"reconvergence stack deeper than {MAXD} entries")
        for i, (pc, m, rpc) in enumerate(self.stack):
            self.state.stack[index, i] = (pc, mask_bits(m), rpc)
        words[DEPTH], words[CURRENT], words[STALL], words[RNG] = len(self.stack), self.current, self.stall, self.rng
        words[CHECK], words[SAMPLED] = self.check, self.sampled
        if self.done:
            words[STATUS] = DONE
        bset = 0
        for name, m in self.barrier_masks.items():
            n = _barrier_index(name)
            bset |= 1 << n
            self.state.bmask[index, n] = mask_bits(m)
        words[BSET] = bset


def _barrier_name(n: int) -> str:
    return "B99" if n == WARPSYNC_BARRIER else f"B{n}"


def _barrier_index(name: str) -> int:
    return WARPSYNC_BARRIER if name == "B99" else int(name[1:])


class Interpreter:
    def __init__(self, module, memory: Memory, symbols: dict[str, int], sched: str = "its",
                 max_steps: int = 50_000_000, trace=None, seed: int | None = None):
        self.module, self.memory, self.symbols = module, memory, symbols
        self.sched, self.max_steps, self.trace = sched, max_steps, trace
        self.codes: dict[str, Code] = {}
        self.on_host = False   # the host thread's interpreter (Machine.host) runs host code
        self.loads_in_flight = loads_in_flight()   # vm/load_rounds.py's epochs, for the timing model
        self.memory_counters = False   # count every access for vm/memcounters.py (Machine(memory_counters=True))
        self.count_rounds = False      # and each warp's load round trips for the timing model (vm/load_rounds.py)
        self.steps = 0
        self.machine = None   # the Machine running a whole program, for CALL and LAUNCH
        self.stop = StopFlag()   # set from outside (vm/watch.py): stop before the next instruction
        self.blocks_done = 0     # of the launch running, for the progress line
        self.cooperative = False   # a cooperative launch running: GRIDSYNC is its grid barrier
        self.warnings: list[str] = []
        self.notes: list[str] = []   # what the run tells the user once (a function the JIT left to the interpreter)
        self.note = None   # and where it goes as it happens (the CLI: stderr, unless -q)
        self.tools: frozenset[str] = frozenset()   # --tool: the sanitizers asked for (vm/tools.py)
        self.reported: set[int] = set()   # instructions a sanitizer has reported, once each
        self.findings = Findings()   # what the tools reported, counted for the summary
        self.race: RaceCheck | None = None   # --tool racecheck, during a launch (vm/racecheck.py)
        self.sync: SyncCheck | None = None   # --tool synccheck, during a launch (vm/synccheck.py)
        # ITS picks the next path round-robin; with a seed, at random (still fair, reproducible)
        self.seed = seed
        self.replaying = False   # a proven cycle run once more, to see which threads run in it
        self.profiling = False   # count per instruction (vm/profile.py): each launch's metrics get `.profile`
        self.profile = None      # the launch running's InstructionProfile, while profiling
        self.timeline_warp = None   # (linear block, warp in block) whose issue trace each launch records
        self.failed_launches = []   # a profiled run's launches that faulted, their metrics up to the fault
        self.issue_trace = None  # an IssueTrace (vm/profile.py): the warp whose issued instructions to record
        # each opcode's semantics, as its ISA row names it, and whether it runs with no thread on
        self.dispatch = {op: (getattr(self, "op_" + row.interp), row.kind in SCHEDULED_KINDS)
                         for op, row in OPS.items()}

    @property
    def side(self) -> str:
        """The side this interpreter's accesses are made on (vm/memory.py's REACH)."""
        return HOST if self.on_host else DEVICE

    def code(self, name: str) -> Code:
        """`name` flattened to run here: a __host__ __device__ function (kind "host" in the
        module) called from device code runs as device code, on every thread of the warp."""
        if name not in self.codes:
            fn = self.module.functions[name]
            if fn.kind == "host" and not self.on_host:
                fn = dataclasses.replace(fn, kind="device")
            self.codes[name] = Code(fn)
        return self.codes[name]

    # ---- operands ----------------------------------------------------------------------
    def read(self, w: Warp, o, width: int):
        if isinstance(o, Reg):
            s = w.code.slot(o)
            if width == 1:
                return np.ones(WARP, bool) if o.name == "PT" else w.preds[s - PRED_BASE].copy() if s >= PRED_BASE else None
            if s == -1:
                return np.zeros((WARP, 4) if width == 128 else WARP, np.uint64 if width == 64 else np.uint32)
            if width == 128:   # a vector access's quad: a row of four words per lane
                return np.stack([w.regs[s + k] for k in range(4)], axis=1)
            if width == 64:
                return w.regs[s].astype(np.uint64) | (w.regs[s + 1].astype(np.uint64) << np.uint64(32))
            return w.regs[s].copy()
        if isinstance(o, Imm):
            return semantics.operand_value(o, width, WARP)
        if isinstance(o, Sym):
            base = w.frame if o.name == "frame" else np.full(WARP, w.symbols[o.name], dtype=np.uint64)
            value = base + np.uint64(o.offset)
            return value if width == 64 else value.astype(np.uint32)
        if isinstance(o, Special):
            return self.special(w, o.name)
        raise VMError("internal", f"cannot read operand {o}")

    def read_lane0(self, w: Warp, o) -> int:
        """Lane 0 of `read(w, o, 64)` as an int: the host thread's operand, without the lanes."""
        if isinstance(o, Reg):
            s = w.code.slot(o)
            if s == -1:
                return 0
            if s < PRED_BASE:
                return int(w.regs[s, 0]) | int(w.regs[s + 1, 0]) << 32
        elif isinstance(o, Sym) and o.name != "frame":
            return (w.symbols[o.name] + o.offset) & 0xFFFFFFFFFFFFFFFF
        elif isinstance(o, Imm) and isinstance(o.value, int):
            return o.value & 0xFFFFFFFFFFFFFFFF
        return int(self.read(w, o, 64)[0])

    def write_lane0(self, w: Warp, r: Reg, value: int, width: int) -> None:
        """`write` of lane 0 alone (the host thread's result)."""
        s = w.code.slot(r)
        if width not in (32, 64) or s >= PRED_BASE:
            mask = LANES == 0
            self.write(w, r, np.full(WARP, value & 0xFFFFFFFFFFFFFFFF, np.uint64), mask, width)
        elif s != -1:
            w.regs[s, 0] = value & 0xFFFFFFFF
            if width == 64:
                w.regs[s + 1, 0] = value >> 32 & 0xFFFFFFFF

    def special(self, w: Warp, name: str):
        if name == "SR_LANEID":
            return LANES.astype(np.uint32)
        if name == "SR_WARPSIZE":
            return np.full(WARP, WARP, np.uint32)
        if name.startswith("SR_CLOCK"):   # the counter clock64() reads (Runtime.rt_clock64): host nanoseconds
            now = time.perf_counter_ns()
            return np.full(WARP, (now >> 32 if name == "SR_CLOCKHI" else now) & 0xFFFFFFFF, np.uint32)
        base, _, axis = name.rpartition(".")
        return w.ids[base][axis]

    def write(self, w: Warp, r: Reg, value, mask: np.ndarray, width: int) -> None:
        s = w.code.slot(r)
        if width == 1 or s >= PRED_BASE:
            if r.name != "PT":
                w.preds[s - PRED_BASE] = np.where(mask, value.astype(bool), w.preds[s - PRED_BASE])
            return
        if s == -1:
            return
        if width == 128:
            for k in range(4):
                w.regs[s + k] = np.where(mask, value[:, k].astype(np.uint32), w.regs[s + k])
        elif width == 64:
            v = value.astype(np.uint64)
            w.regs[s] = np.where(mask, (v & np.uint64(0xFFFFFFFF)).astype(np.uint32), w.regs[s])
            w.regs[s + 1] = np.where(mask, (v >> np.uint64(32)).astype(np.uint32), w.regs[s + 1])
        else:
            w.regs[s] = np.where(mask, value.astype(np.uint32), w.regs[s])

    def address(self, w: Warp, m: Mem) -> np.ndarray:
        if m.window:   # a 32-bit shared address: (register + offset) mod 2^32 into the shared window
            offset = self.read(w, m.base, 32).astype(np.uint32) + np.uint32(m.offset & 0xFFFFFFFF)
            return offset.astype(np.uint64) + np.uint64(SHARED_WINDOW)
        base = self.read(w, m.base, 64)
        return base + np.uint64(m.offset & 0xFFFFFFFFFFFFFFFF)

    # ---- one instruction for a group of lanes --------------------------------------------------
    def execute(self, w: Warp, pc: int, group: np.ndarray, metrics: LaunchMetrics):
        """Run code[pc] for `group`; returns (event, taken_mask) where event is None,
        'branch', 'exit', 'bar', 'bssy', 'bsync', 'break', 'warpsync', 'yield' or 'call' (a CALL
        left to the call stack).  What the instruction does is its ISA row's semantics,
        `op_<interp>`."""
        ins = w.code.instrs[pc]
        if self.stop.word[0]:
            raise Stopped(self.stop.reason)
        self.count_step(ins)
        guard = np.ones(WARP, bool) if ins.guard is None else self.read(w, ins.guard, 1)
        if ins.guard_neg:
            guard = ~guard
        on = group & guard
        if self.race is not None:   # the threads that run it (a branch: all of the group, in lockstep)
            self.race.step(w, group if ins.op == "BRA" else on)
        metrics.inst_executed += 1
        if self.memory_counters:
            cls = instruction_class(ins.op)
            metrics.inst_classes[cls] = metrics.inst_classes.get(cls, 0) + 1
            if self.count_rounds and not self.on_host:
                rounds = w.load_rounds
                if rounds is None:
                    rounds = w.load_rounds = LoadRounds()
                rounds.step(w.code, pc, metrics, self.loads_in_flight, ins.op != "EXIT" or bool(on.any()))
        metrics.thread_inst_executed += int(group.sum())
        metrics.thread_inst_executed_pred_on += int(on.sum())
        if self.profile is not None and not self.on_host:
            self.count_instruction(w, pc, ins, group, on)
        if self.trace is not None:
            depth = len(w.stack)
            self.trace(f"warp {w.ids['warp']} pc {pc:04x} mask {_mask(group):08x} depth {depth} {ins}")
        semantics_of, scheduled = self.dispatch[ins.op]
        if not scheduled and not on.any():
            return None, on
        try:
            return semantics_of(w, ins, on, group, metrics), on
        except MemoryFault as f:
            if self.on_host:   # as a native program dies: SIGSEGV
                raise VMError("sigsegv", f"segmentation fault in '{w.code.fn.name}': {f.reason}, {f.kind} of {f.size} "
                                         f"bytes at address {f.address:#x}", ins.loc, pointer_note(f)) from None
            lane = getattr(f, "lane", int(np.nonzero(on)[0][0]))
            raise VMError("memory", self.fault_message(w, f, lane) + f" (instruction: {ins.opcode} at pc {pc:#06x})",
                          ins.loc, pointer_note(f)) from None

    def count_instruction(self, w: Warp, pc: int, ins, group: np.ndarray, on: np.ndarray) -> None:
        """The per-instruction counters and the issue trace (vm/profile.py) of a profiled launch."""
        self.profile.count(w.code, pc, group, on, counts_as_branch(ins))
        trace = self.issue_trace
        if trace is not None:
            ids = w.ids
            ctaid, nctaid = ids["SR_CTAID"], ids["SR_NCTAID"]
            linear = (int(ctaid["Z"][0]) * int(nctaid["Y"][0]) + int(ctaid["Y"][0])) * int(nctaid["X"][0]) \
                + int(ctaid["X"][0])
            if trace.wants(linear, ids["warp"]):
                trace.record(w.code.fn.name, pc, group, on)

    def count_step(self, ins) -> None:
        """One more warp instruction against the budget (--max-steps)."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise VMError("budget", f"instruction budget exhausted after {self.max_steps} warp instructions "
                                    f"(--max-steps); the program may not terminate", ins.loc)

    # ---- the semantics the ISA rows name: op_<interp>(w, ins, on, group, metrics) -> event -----------
    # `on`: the group's threads whose guard holds; an instruction of a kind the scheduler sees
    # (SCHEDULED_KINDS) runs even when there are none, the others only for some thread.
    def op_branch(self, w: Warp, ins, on, group, metrics) -> str:
        metrics.branch += 1
        if on.any() and (group & ~on).any():
            metrics.divergent_branch += 1
        return "branch"

    def op_exit(self, w: Warp, ins, on, group, metrics) -> str:
        if counts_as_branch(ins):   # RET: ncu counts it (EXIT it does not)
            metrics.branch += 1
        return "exit"

    def op_trap(self, w: Warp, ins, on, group, metrics) -> None:
        """__trap(): the launch fails as CUDA's does, naming the first trapping thread."""
        if on.any():
            lane = int(np.nonzero(on)[0][0])
            raise VMError("trap", self.launch_fault(w, lane, "cudaErrorLaunchFailure: unspecified launch failure") +
                          ": the thread executed a trap instruction (__trap())", ins.loc)
        return None

    def op_barrier(self, w: Warp, ins, on, group, metrics) -> str:
        metrics.barriers += 1
        return "bar"

    def op_bar_red(self, w: Warp, ins, on, group, metrics) -> str:
        """__syncthreads_count/_and/_or: a barrier; deliver_reductions writes the result
        when it opens."""
        if not ins.mods or ins.mods[0] not in BAR_REDUCTIONS:
            raise VMError("unsupported", f"{ins.opcode}: BAR.RED needs .POPC, .AND or .OR", ins.loc)
        metrics.barriers += 1
        return "bar"

    def op_grid_barrier(self, w: Warp, ins, on, group, metrics) -> str | None:
        """grid.sync(): in a cooperative launch a barrier the block waits at until every block
        has arrived (launch_cooperative); in any other launch the GPU's kernel fails, with
        cudaErrorLaunchFailure (as an H100 with CUDA 13 reports it)."""
        if not on.any():
            return None
        if not self.cooperative:
            lane = int(np.nonzero(on)[0][0])
            raise VMError("trap", self.launch_fault(w, lane, "cudaErrorLaunchFailure: unspecified launch failure") +
                          ": grid.sync() in a kernel not launched with cudaLaunchCooperativeKernel", ins.loc)
        metrics.barriers += 1
        return "bar"

    def op_nothing(self, w: Warp, ins, on, group, metrics) -> None:
        return None

    def op_yield(self, w: Warp, ins, on, group, metrics) -> str:
        return "yield"

    def op_bssy(self, w: Warp, ins, on, group, metrics) -> str:
        return "bssy"

    def op_bsync(self, w: Warp, ins, on, group, metrics) -> str:
        return "bsync"

    def op_break_barrier(self, w: Warp, ins, on, group, metrics) -> str:
        return "break"

    def op_warpsync(self, w: Warp, ins, on, group, metrics) -> str:
        if self.sync is not None:
            self.sync.warpsync(w, ins, on)
        return "warpsync"

    def op_load(self, w: Warp, ins, on, group, metrics) -> None:
        width = ins.mods[0] if ins.mods else "32"
        addresses = self.address(w, ins.srcs[0])
        values = self.memory.load(addresses, width, on, scope=w.scope, side=self.side)
        if self.race is not None:
            self.race.access(w, ins, on, addresses, WIDTH_BYTES[width], "load")
        self.write(w, ins.dsts[0], values, on, REGISTER_BITS.get(width, 32))
        if self.memory.shadow is not None and self.memory.shadow.pending:
            report_uninitialised(self, w, ins)
        if self.memory_counters and ins.op != "LDC":
            count_access(metrics, addresses, w.frame, width, on, "ld", f"{ins.loc} {ins.opcode}")

    def op_store(self, w: Warp, ins, on, group, metrics) -> None:
        width = ins.mods[0] if ins.mods else "32"
        value = self.read(w, ins.srcs[1], REGISTER_BITS.get(width, 32))
        addresses = self.address(w, ins.srcs[0])
        if self.race is not None:
            self.race.access(w, ins, on, addresses, WIDTH_BYTES[width], "store", value)
        self.memory.store(addresses, value, width, on, scope=w.scope, side=self.side)
        if self.memory_counters:
            count_access(metrics, addresses, w.frame, width, on, "st", f"{ins.loc} {ins.opcode}")

    def op_fence(self, w: Warp, ins, on, group, metrics) -> None:
        """__threadfence(): the VM's memory is sequentially consistent; racecheck sees a release."""
        if self.race is not None:
            self.race.fence(w, on)

    def op_atomic(self, w: Warp, ins, on, group, metrics) -> None:
        self.atomic(w, ins, on)

    def op_special(self, w: Warp, ins, on, group, metrics) -> None:
        self.write(w, ins.dsts[0], self.special(w, ins.srcs[0].name), on, 32)

    def op_call(self, w: Warp, ins, on, group, metrics) -> str | None:
        if self.machine is None:
            raise VMError("unsupported", f"{ins.opcode} needs a whole program (minicuda run)", ins.loc)
        if counts_as_branch(ins):   # a user function's CALL
            metrics.branch += 1
        if w.driven and ins.op == "CALL" and "RT" not in ins.mods:
            w.pending_call = (ins, on.copy())   # the call stack runs it: no Python recursion
            return "call"
        self.machine.call(self, w, ins, on, metrics)
        return None

    def op_shuffle(self, w: Warp, ins, on, group, metrics) -> None:
        self.warp_checks(w, ins, on)
        self.shuffle(w, ins, on)

    def op_vote(self, w: Warp, ins, on, group, metrics) -> None:
        self.warp_checks(w, ins, on)
        self.vote(w, ins, on)

    def op_match(self, w: Warp, ins, on, group, metrics) -> None:
        self.warp_checks(w, ins, on)
        self.match(w, ins, on)

    def warp_checks(self, w: Warp, ins, on) -> None:
        """A warp-synchronous primitive under synccheck and racecheck: its mask must name each
        calling thread; the threads it names that run it synchronise."""
        if self.sync is not None:
            self.sync.warp_op(w, ins, on)
        if self.race is not None and ins.op != "ACTIVEMASK":
            mask = self.read(w, ins.srcs[-1], 32).astype(np.int64)
            self.race.warp_sync(w, on & ((mask >> LANES) & 1 == 1))

    def op_pure(self, w: Warp, ins, on, group, metrics) -> None:
        widths = semantics.source_widths(ins)
        srcs = [self.read(w, s, wd) for s, wd in zip(ins.srcs, widths)]
        if ins.op in DIVISIONS:
            self.check_division(w, ins, srcs, on)
        result = semantics.evaluate(ins, srcs)
        self.write(w, ins.dsts[0], np.broadcast_to(result, (WARP,)), on, semantics.result_width(ins))

    def check_division(self, w: Warp, ins, srcs: list, on: np.ndarray) -> None:
        """Host code divides as x86-64 does: by zero, or INT_MIN by -1, is SIGFPE.  In a
        kernel the GPU gives a value (semantics.division_by_zero); --tool memcheck warns
        of a division by zero once per instruction."""
        bits, signed = semantics.int_type(ins)
        a, b = (np.broadcast_to(s, (WARP,)) for s in srcs)
        zero = on & (b == 0)
        if w.code.fn.kind == "host":
            ones = (1 << bits) - 1
            overflow = on & (a == 1 << (bits - 1)) & (b == ones) if signed else np.zeros(WARP, bool)
            if zero.any() or overflow.any():
                what = "division" if ins.op == "IDIV" else "remainder"
                cause = f"integer {what} by zero" if zero.any() else f"integer {what} overflow (INT_MIN / -1)"
                raise VMError("sigfpe", f"{cause} in '{w.code.fn.name}'", ins.loc)
        elif "memcheck" in self.tools and zero.any() and id(ins) not in self.reported:
            self.reported.add(id(ins))
            lane = int(np.nonzero(zero)[0][0])
            self.findings.report("memcheck", WARNING, sanitizer_report("Integer division by zero", w, lane, ins.loc))

    def shuffle(self, w: Warp, ins, on: np.ndarray) -> None:
        """SHFL.IDX/UP/DOWN/BFLY d, var, lane-or-delta, width, mask: as __shfl*_sync."""
        mode = ins.mods[0]
        bits = 64 if "64" in ins.mods else 32
        var = self.read(w, ins.srcs[0], bits)
        arg = self.read(w, ins.srcs[1], 32).astype(np.int64)
        width = self.read(w, ins.srcs[2], 32).astype(np.int64)
        width = np.where((width >= 1) & (width <= WARP), width, WARP)
        base = (LANES // width) * width
        if mode == "IDX":
            src = base + (arg % width)
        elif mode == "UP":
            src = np.where(LANES - arg >= base, LANES - arg, LANES)
        elif mode == "DOWN":
            src = np.where(LANES + arg < base + width, LANES + arg, LANES)
        else:
            src = np.where((LANES ^ arg) < base + width, LANES ^ arg, LANES)
        self.write(w, ins.dsts[0], var[np.clip(src, 0, WARP - 1)], on, bits)

    def vote(self, w: Warp, ins, on: np.ndarray) -> None:
        """VOTE.ANY/ALL/BALLOT d, predicate, mask; ACTIVEMASK d."""
        if ins.op == "ACTIVEMASK":
            self.write(w, ins.dsts[0], np.full(WARP, _mask(on), np.uint32), on, 32)
            return
        pred = self.read(w, ins.srcs[0], 32) != 0
        # each thread votes over the active threads of its own mask (tiles of a warp run together)
        members = self.read(w, ins.srcs[1], 32).astype(np.uint32) & np.uint32(_mask(on))
        ballot = members & np.uint32(_mask(pred & on))
        kind = ins.mods[0]
        value = ballot if kind == "BALLOT" else (ballot != 0) if kind == "ANY" else (ballot == members)
        self.write(w, ins.dsts[0], value.astype(np.uint32), on, 32)

    def match(self, w: Warp, ins, on: np.ndarray) -> None:
        """MATCH.ANY d, value, mask: the threads of mask with this thread's value;
        MATCH.ALL: mask when all of them hold the same value, else 0 (as __match_*_sync).
        Each thread matches over the active threads of its own mask (tiles of a warp run together)."""
        value = ins.srcs[0]
        bits = 64 if "64" in ins.mods or isinstance(value, Reg) and value.is_wide else 32
        values = self.read(w, value, bits)
        masks = self.read(w, ins.srcs[1], 32).astype(np.int64) & _mask(on)
        result = np.zeros(WARP, np.uint32)
        for lane in np.nonzero(on)[0]:
            members = ((masks[lane] >> LANES) & 1).astype(bool)
            same = members & (values == values[lane])
            if ins.mods[:1] == ("ALL",):
                result[lane] = masks[lane] if (same == members).all() else 0
            else:
                result[lane] = _mask(same)
        self.write(w, ins.dsts[0], result, on, 32)

    def atomic(self, w: Warp, ins, on: np.ndarray) -> None:
        kind, tmod = ins.mods[0], ins.mods[1] if len(ins.mods) > 1 else "S32"
        bits = 64 if tmod in ("S64", "U64", "F64") else 32
        addrs = self.address(w, ins.srcs[0])
        vals = [self.read(w, s, bits) for s in ins.srcs[1:]]
        old = np.zeros(WARP, np.uint64 if bits == 64 else np.uint32)
        width = "64" if bits == 64 else "32"
        if self.race is not None:
            self.race.access(w, ins, on, addrs, bits // 8, "atomic")
        for lane in np.nonzero(on)[0]:  # one thread at a time, in lane order
            one = np.zeros(WARP, bool)
            one[lane] = True
            cur = self.memory.load(addrs, width, one, "atomic", w.scope, self.side)[lane]
            new = _atomic_op(kind, tmod, int(cur), [int(v[lane]) for v in vals], bits)
            old[lane] = cur
            if new is not None:
                self.memory.store(addrs, np.full(WARP, new, dtype=old.dtype), width, one, w.scope, self.side, "atomic")
                if kind == "EXCH" and self.memory.shadow is not None:   # initcheck: the one that sets its bytes
                    a, off = self.memory.locate(int(addrs[lane]), bits // 8, "atomic", w.scope, self.side)
                    self.memory.shadow.wrote(a, off, bits // 8)
        self.write(w, ins.dsts[0], old, on, bits)
        if self.memory.shadow is not None and self.memory.shadow.pending:
            report_uninitialised(self, w, ins)

    def fault_message(self, w: Warp, f: MemoryFault, lane: int) -> str:
        near = f"; nearest allocation: {f.nearest.describe()}" if f.nearest else ""
        error = "cudaErrorMisalignedAddress: misaligned address" if f.reason == "misaligned address" else \
            "cudaErrorIllegalAddress: an illegal memory access was encountered"
        return (self.launch_fault(w, lane, error) +
                f": {f.reason}, {f.kind} of {f.size} bytes at address {f.address:#x}{near}")

    def launch_fault(self, w: Warp, lane: int, error: str) -> str:
        """`error` (CUDA's name and text) located: the kernel, the block and the thread."""
        tid = tuple(int(w.ids["SR_TID"][a][lane]) for a in "XYZ")
        bid = tuple(int(w.ids["SR_CTAID"][a][lane]) for a in "XYZ")
        return f"{error} in kernel '{w.code.fn.name}', block {bid}, thread {tid}"

    # ---- the stack model ----------------------------------------------------------------
    def run_stack(self, w: Warp, metrics: LaunchMetrics) -> str:
        """Run until the warp exits ('done') or reaches a barrier ('bar')."""
        while True:
            state = self.step_stack(w, metrics)
            if state is not None:
                return state

    def step_stack(self, w: Warp, metrics: LaunchMetrics) -> str | None:
        """One turn of the stack model: pop the top entry, or run its next instruction."""
        if not w.stack:
            w.done = True
            return "done"
        top = w.stack[-1]
        pc, mask, rpc = top
        mask = mask & ~w.exited
        top[1] = mask
        if pc == rpc or not mask.any() or pc >= w.code.end:
            w.stack.pop()
            return None
        metrics.max_stack_depth = max(metrics.max_stack_depth, len(w.stack))
        if w.stall > w.check and self.sample_due(w) and self.sample(w, metrics):
            return "spin"
        writes = self.memory.writes
        event, on = self.execute(w, pc, mask, metrics)
        ins = w.code.instrs[pc]
        if event == "branch":
            target = w.code.label_pc[ins.target]
            taken, rest = on, mask & ~on
            if taken.any() and rest.any():
                join = w.code.rpc[w.code.block_of[pc]]
                top[0] = join
                w.stack.append([pc + 1, rest, join])
                w.stack.append([target, taken, join])
            else:
                top[0] = target if taken.any() else pc + 1
        elif event == "exit":
            w.exited |= on
            top[0] = pc + 1
        elif event == "bar":
            top[0] = pc + 1
            w.at_bar |= on   # the threads that arrived (a BAR.RED's reduction reads them)
            if len(w.stack) > 1 or not np.array_equal(mask, w.live & ~w.exited):
                if self.sync is not None:
                    self.sync.divergent_warp(w, mask, ins)
                raise VMError("barrier", f"__syncthreads() reached by a divergent part of warp {w.ids['warp']} "
                                         f"(threads {_lanes(mask)}) under the stack model: the other threads "
                                         f"of the warp can never arrive", ins.loc)
            return "bar"
        else:
            top[0] = pc + 1
        if self.memory.writes != writes:
            w.stall, w.check, w.sampled = 0, cycles.FIRST_CHECK, -1
        else:
            w.stall += 1
        return "call" if event == "call" else None

    # ---- proven spins (vm/cycles.py) -------------------------------------------------------------
    def sample_due(self, w: Warp) -> bool:
        """Whether the warp's state is to be kept now: past its CHECK, about to run an
        instruction at a label, not kept at this stall already."""
        if not w.watched or w.stall <= w.check or w.stall == w.sampled or self.replaying:
            return False
        pc = w.current if self.sched == "its" else w.stack[-1][0] if w.stack else -1
        return pc in w.code.labels

    def sample(self, w: Warp, metrics) -> str | None:
        """Keep the warp's state in its look (vm/cycles.py); a proven cycle makes it spin."""
        w.push()
        period = cycles.keep(w.state, w.index, w.code)
        w.check, w.sampled = int(w.state.words[w.index, CHECK]), int(w.state.words[w.index, SAMPLED])
        return None if period is None else self.proven(w, period, metrics)

    def proven(self, w: Warp, period: int, metrics) -> str:
        """A proven cycle: a kernel's warp waits ("spin") for the rest of its block, with the
        report it gets if the block is stuck; in a called function the report is raised.
        Under independent thread scheduling a convergence barrier does not wait for threads
        that spin: when some of the warp's threads wait at a BSYNC while the others cycle,
        the waiting ones go on (None: the warp runs on).  nvcc -G wraps a spin loop in
        `BSSY B6` / `BSYNC B6` (warpLock's spinThenEnterCounter, tests/data/groundtruth/
        fidelity/gshape/warpLock_sm_90_G.sass) and the lock still completes on the GPU
        (warpLock_runs.txt): the thread that took it waits at the BSYNC, the others spin for it."""
        converging = ~w.exited & (w.waiting >= 0) & (w.waiting != 99)   # (99: a __syncwarp, which does wait)
        if self.sched == "its" and converging.any():
            w.waiting[converging] = -1
            w.pc[converging] += 1
            self.wake(w)
            return None
        verdict = self.spin_verdict(w, period, metrics)
        if w.code.fn.kind != "kernel":
            raise verdict
        w.state.windows[w.index].verdict = verdict
        return "spin"

    def spin_verdict(self, w: Warp, period: int, metrics) -> VMError:
        """The report of a cycle of `period` instructions: under the stack model a SIMT deadlock
        when some threads never run in it (they wait at their reconvergence point)."""
        pc = w.current if self.sched == "its" else w.stack[-1][0]
        ins = w.code.instrs[pc]
        if self.sched != "its":
            ran = self.threads_in_cycle(w, period, metrics)
            starved = w.live & ~w.exited & ~ran
            if starved.any():
                return cycles.simt_deadlock(w, ran, starved)
        return cycles.no_progress(w, ins, period)

    def threads_in_cycle(self, w: Warp, period: int, metrics) -> np.ndarray:
        """The threads that run in a proven cycle (stack model): it is run once more, back to
        this state; a called function's is not (its call stack runs its CALLs): its top's."""
        if w.driven:
            return w.stack[-1][1] & ~w.exited
        ran = np.zeros(WARP, bool)
        end = w.stall + period
        self.replaying = True
        try:
            while w.stall < end:
                before, mask = w.stall, w.stack[-1][1] & ~w.exited
                self.step_stack(w, metrics)
                if w.stall > before:
                    ran |= mask
        finally:
            self.replaying = False
        return ran

    def wake(self, w: Warp) -> None:
        """A spinning warp runs again: memory changed since its cycle was proven."""
        w.stall, w.check, w.sampled = 0, cycles.FIRST_CHECK, -1
        w.state.windows.pop(w.index, None)

    # ---- independent thread scheduling ---------------------------------------------------------
    def run_its(self, w: Warp, metrics: LaunchMetrics) -> str:
        while True:
            state = self.step_its(w, metrics)
            if state is not None:
                return state

    def step_its(self, w: Warp, metrics: LaunchMetrics) -> str | None:
        """One turn of independent thread scheduling: pick a path, run one instruction."""
        runnable = ~w.exited & (w.waiting < 0) & ~w.at_bar & (w.pc < w.code.end)
        if not runnable.any():
            if w.at_bar.any() and not (~w.exited & ~w.at_bar & (w.waiting < 0)).any():
                return "bar"
            if (~w.exited & (w.waiting >= 0)).any():
                self.release_all_bsync(w)
                if (~w.exited & (w.waiting < 0) & ~w.at_bar).any():
                    return None
            w.done = True
            return "done"
        pcs = np.unique(w.pc[runnable])
        metrics.max_paths = max(metrics.max_paths, len(pcs))
        if w.current not in pcs:
            if self.seed is not None:
                w.rng, value = rng_next(w.rng)
                w.current = int(pcs[(value >> 32) % len(pcs)])
            else:
                later = pcs[pcs > w.current]
                w.current = int(later[0]) if len(later) else int(pcs[0])
        pc = w.current
        if w.stall > w.check and self.sample_due(w) and self.sample(w, metrics):
            return "spin"
        group = runnable & (w.pc == pc)
        writes = self.memory.writes
        event, on = self.execute(w, pc, group, metrics)
        ins = w.code.instrs[pc]
        w.pc[group] = pc + 1
        if event == "branch":
            target = w.code.label_pc[ins.target]
            w.pc[on] = target
            if target <= pc and on.any():
                w.current = pc + 1  # a backward branch is a yield point: let other paths run
            elif on.any() and not (group & ~on).any():
                w.current = target
        elif event == "exit":
            w.exited |= on
            self.release_bsync(w)
        elif event == "bar":
            w.at_bar |= on  # they resume after the barrier once the block has arrived
        elif event == "bssy":
            w.barrier_masks[ins.srcs[0].name] = on.copy()
        elif event == "break":   # the threads leave the barrier; the ones waiting for them may go on
            name = ins.srcs[0].name
            if name in w.barrier_masks:
                w.barrier_masks[name] = w.barrier_masks[name] & ~on
                self.release_bsync(w)
        elif event == "bsync":
            n = int(ins.srcs[0].name[1:])
            w.waiting[on] = n
            w.pc[on] = pc
            self.release_bsync(w)
        elif event == "warpsync":
            bits = int(self.read(w, ins.srcs[0], 32)[np.nonzero(group)[0][0]]) if group.any() else 0
            w.barrier_masks["B99"] = ((bits >> LANES) & 1).astype(bool) & w.live
            w.waiting[on] = 99
            w.pc[on] = pc
            waited = w.waiting == 99
            self.release_bsync(w)
            if self.race is not None:   # the lanes released together synchronise
                self.race.warp_sync(w, waited & (w.waiting != 99))
        elif event == "yield":
            w.current = pc + 1
        if self.memory.writes != writes:
            w.stall, w.check, w.sampled = 0, cycles.FIRST_CHECK, -1
        else:
            w.stall += 1
        return "call" if event == "call" else None

    def release_bsync(self, w: Warp) -> None:
        for name, mask in w.barrier_masks.items():
            n = int(name[1:])
            waiting = w.waiting == n
            if waiting.any() and not (mask & ~w.exited & ~waiting).any():
                w.waiting[waiting] = -1
                w.pc[waiting] += 1

    def release_all_bsync(self, w: Warp) -> None:
        waiting = w.waiting >= 0
        w.waiting[waiting] = -1
        w.pc[waiting] += 1

    # ---- a kernel launch ----------------------------------------------------------------
    @contextlib.contextmanager
    def launch_checks(self):
        """A launch's racecheck and synccheck state, fresh when asked for; the launch's
        caller's (a parent kernel's) is put back when the launch ends."""
        saved = self.race, self.sync
        self.race = RaceCheck(self) if "racecheck" in self.tools else None
        self.sync = SyncCheck(self) if "synccheck" in self.tools else None
        try:
            yield
        finally:
            if self.race is not None:
                self.race.finish(self.findings)
            self.race, self.sync = saved

    def launch(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch: str,
               shared_dynamic: int = 0) -> LaunchMetrics:
        with self.launch_checks():
            return self.launch_blocks(kernel, grid, block, args, arch, shared_dynamic)

    def launch_blocks(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch: str,
                      shared_dynamic: int = 0) -> LaunchMetrics:
        setup = LaunchSetup(self, kernel, grid, block, args, shared_dynamic)
        metrics = LaunchMetrics(kernel, grid, block, arch, self.sched, counted_memory=self.memory_counters,
                              counted_rounds=self.count_rounds)
        state = BlockState(setup.layout)
        scope = setup.new_scope()
        self.blocks_done = 0
        try:
            with self.profiled(metrics):
                for linear, bid in enumerate(setup.blocks()):
                    self.run_block(setup, state, scope, bid, linear, metrics)
                    if self.memory_counters:
                        metrics.block_done()
                    self.blocks_done = linear + 1
        except Stopped as stop:
            stop.note_kernel(kernel, grid, block, self.blocks_done, grid[0] * grid[1] * grid[2])
            raise
        return metrics

    @contextlib.contextmanager
    def profiled(self, metrics: LaunchMetrics):
        """While profiling: a launch's own per-instruction counters and issue trace, left on
        its metrics (`.profile`, `.issue_trace`) however the launch ends."""
        if not self.profiling:
            yield
            return
        outer = self.profile, self.issue_trace
        self.profile = InstructionProfile()
        self.issue_trace = IssueTrace(*self.timeline_warp) if self.timeline_warp is not None else None
        try:
            yield
        except VMError as e:   # a failed launch's counts up to its fault (a report shows where it stuck)
            metrics.failure = str(e)
            self.failed_launches.append(metrics)
            raise
        finally:
            self.profile.fold_native()   # what the JIT counted (device functions it ran, its workers')
            metrics.profile, metrics.issue_trace = self.profile, self.issue_trace
            self.profile, self.issue_trace = outer

    def launch_cooperative(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch: str,
                           shared_dynamic: int = 0) -> LaunchMetrics:
        """A cooperative launch: every block resident at once (a state and shared memory each).
        The blocks run in turn, each until it is done or waits at the grid barrier (GRIDSYNC);
        when every block still running waits there, the barrier opens, and they run on."""
        with self.launch_checks():
            return self.launch_grid(kernel, grid, block, args, arch, shared_dynamic)

    def launch_grid(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch: str,
                    shared_dynamic: int = 0) -> LaunchMetrics:
        setup = LaunchSetup(self, kernel, grid, block, args, shared_dynamic)
        metrics = LaunchMetrics(kernel, grid, block, arch, self.sched, counted_memory=self.memory_counters,
                              counted_rounds=self.count_rounds)
        blocks = [(bid, self.block_warps(setup, BlockState(setup.layout), setup.new_scope(), bid, linear))
                  for linear, bid in enumerate(setup.blocks())]
        self.blocks_done, self.cooperative = 0, True
        try:
            with self.profiled(metrics):
                running = blocks
                while running:
                    running = [(bid, warps) for bid, warps in running
                               if self.run_to_grid_barrier(setup, warps, bid, metrics)]
                    self.blocks_done = len(blocks) - len(running)
                    if self.race is not None and running:
                        self.race.grid_barrier()
                    for _, warps in running:
                        for w in warps:
                            w.at_bar[:] = False
        except Stopped as stop:
            stop.note_kernel(kernel, grid, block, self.blocks_done, len(blocks))
            raise
        finally:
            self.cooperative = False
        return metrics

    def run_to_grid_barrier(self, setup: LaunchSetup, warps: list[Warp], bid, metrics) -> bool:
        """Run a block of a cooperative launch, round by round between its barriers, until it is
        done (False) or every warp still running waits at the grid barrier (True)."""
        pending = [w for w in warps if not w.done]
        try:
            while pending:
                states = self.run_round(pending, metrics)
                pending = [w for w, s in zip(pending, states) if s == "bar"]
                if pending and all(self.at_grid_barrier(w) for w in pending):
                    return True
                self.barrier_checks(pending)
                self.deliver_reductions(pending)
                for w in pending:
                    w.at_bar[:] = False
        except Stopped as stop:
            stop.note_warps(block_positions(warps, bid, self.sched))
            raise
        return False

    def at_grid_barrier(self, w: Warp) -> bool:
        """Whether the warp's waiting threads wait at a GRIDSYNC (their pc is past it)."""
        after = w.pc[w.at_bar] if self.sched == "its" else [w.stack[-1][0]] if w.stack else []
        return any(0 < pc <= w.code.end and w.code.instrs[pc - 1].op == "GRIDSYNC" for pc in after)

    def block_warps(self, setup: LaunchSetup, state: BlockState, scope, bid, linear: int) -> list[Warp]:
        """Start block `bid` in `state` and `scope`; its warps (one per thread for the scalar reference)."""
        start_block(state, setup.template, bid, linear, self.seed)
        scope.enter(bid)
        return [Warp(setup.code, state, i, setup.symbols, scope, wi) for i, wi in enumerate(setup.warp_of)]

    def run_block(self, setup: LaunchSetup, state: BlockState, scope, bid, linear: int, metrics) -> None:
        warps = self.block_warps(setup, state, scope, bid, linear)
        try:
            self.run_warps(setup, warps, bid, metrics)
        except Stopped as stop:
            stop.note_warps(block_positions(warps, bid, self.sched))
            raise

    def run_warps(self, setup: LaunchSetup, warps: list[Warp], bid, metrics) -> None:
        """A block's warps, round by round between its barriers."""
        pending = list(warps)
        while pending:
            states = self.run_round(pending, metrics)
            pending = [w for w, s in zip(pending, states) if s == "bar"]
            if pending and len(pending) < len(warps) or any((w.exited & w.live).any() for w in pending):
                self.partial_barrier_warning(setup.code, bid)
            self.barrier_checks(pending)
            self.deliver_reductions(pending)
            for w in pending:  # every live warp has arrived: the barrier opens
                w.at_bar[:] = False

    def run_round(self, warps: list[Warp], metrics) -> list[str]:
        """Run each warp until it is done or at the barrier ('done', 'bar').  A warp proven to
        spin waits while the others run, and runs again, in warp order, when memory has
        changed since; when none has, the block is stuck: the first spinning warp's report."""
        run = self.run_its if self.sched == "its" else self.run_stack
        states: list[str | None] = [None] * len(warps)
        spinning: dict[int, int] = {}   # warp -> memory's write count when it was proven to spin
        todo = list(range(len(warps)))
        while todo:
            for i in todo:
                states[i] = run(warps[i], metrics)
                if states[i] == "spin":
                    spinning[i] = self.memory.writes
            todo = [i for i in sorted(spinning) if spinning[i] != self.memory.writes]
            for i in todo:
                del spinning[i]
                self.wake(warps[i])
        if spinning:
            w = warps[min(spinning)]
            raise w.state.windows[w.index].verdict
        return states

    def barrier_checks(self, warps: list[Warp]) -> None:
        """A block's barrier opens for `warps`: synccheck looks at where they wait, racecheck
        orders what came before it before what comes after."""
        if not warps:
            return
        if self.sync is not None:
            self.sync.barrier_opened(warps, self.sched)
        if self.race is not None:
            self.race.barrier(self.race.block_of(warps[0]))

    def deliver_reductions(self, warps: list[Warp]) -> None:
        """As a block's barrier opens: every thread waiting at a BAR.RED receives the
        reduction of the predicates of all of them (.POPC: how many are non-zero, .AND:
        all, .OR: any).  A waiting thread's pc is past its barrier (ITS: its own pc,
        the stack model: the warp's); its registers are as it left them."""
        arrivals = []
        for w in warps:
            after = w.pc if self.sched == "its" else np.full(WARP, w.stack[-1][0] if w.stack else 0)
            for pc in np.unique(after[w.at_bar]):
                ins = w.code.instrs[pc - 1] if 0 < pc <= w.code.end else None
                if ins is not None and ins.op == "BAR.RED":
                    arrivals.append((w, ins, w.at_bar & (after == pc)))
        if not arrivals:
            return
        count = total = 0
        for w, ins, lanes in arrivals:
            src = ins.srcs[0]
            predicate = self.read(w, src, 1 if isinstance(src, Reg) and src.is_pred else 32) != 0
            count += int((predicate & lanes).sum())
            total += int(lanes.sum())
        for w, ins, lanes in arrivals:
            value = {"POPC": count, "AND": int(count == total), "OR": int(count > 0)}[ins.mods[0]]
            self.write(w, ins.dsts[0], np.full(WARP, value, np.uint32), lanes, 32)

    def note_once(self, message: str) -> None:
        """Tell the user `message` (once a run): into `notes`, and to `note` when set."""
        if message not in self.notes:
            self.notes.append(message)
            if self.note is not None:
                self.note(message)

    def partial_barrier_warning(self, code: Code, bid) -> None:
        fn = code.fn
        loc = next((i.loc for i in code.instrs if OPS[i.op].interp in BLOCK_BARRIERS), None)
        where = f"{loc}: " if loc is not None else ""
        message = (f"{where}warning: __syncthreads() in kernel '{fn.name}' block {bid} completed with only "
                   f"part of the block: the other threads had exited (undefined in CUDA; sm_70+ hardware "
                   f"runs on, and so does minicuda)")
        if message not in self.warnings:
            self.warnings.append(message)


def _atomic_op(kind: str, tmod: str, cur: int, vals: list[int], bits: int):
    mask = (1 << bits) - 1
    signed = tmod.startswith("S")

    def s(x):
        return x - (1 << bits) if signed and x >> (bits - 1) else x
    v = vals[0] if vals else 0
    if tmod in ("F32", "F64"):
        fmt = "<f" if bits == 32 else "<d"
        ifmt = "<I" if bits == 32 else "<Q"
        f = lambda x: struct.unpack(fmt, struct.pack(ifmt, x))[0]
        b = lambda x: struct.unpack(ifmt, struct.pack(fmt, x))[0]
        if kind == "ADD":
            return b(f(cur) + f(v))
        if kind == "EXCH":
            return v
    if kind == "ADD":
        return (cur + v) & mask
    if kind == "SUB":
        return (cur - v) & mask
    if kind == "EXCH":
        return v & mask
    if kind == "MIN":
        return (min(s(cur), s(v))) & mask
    if kind == "MAX":
        return (max(s(cur), s(v))) & mask
    if kind == "AND":
        return cur & v
    if kind == "OR":
        return cur | v
    if kind == "XOR":
        return cur ^ v
    if kind == "INC":
        return 0 if cur >= v else cur + 1
    if kind == "DEC":
        return v if cur == 0 or cur > v else cur - 1
    if kind == "CAS":
        return vals[1] & mask if cur == (vals[0] & mask) else None
    raise VMError("internal", f"unknown atomic {kind}")


def _mask(m: np.ndarray) -> int:
    return int(np.packbits(m[::-1].astype(np.uint8)).view(">u4")[0]) if len(m) == 32 else 0


def _lanes(m: np.ndarray) -> list[int]:
    return [int(i) for i in np.nonzero(m)[0]]

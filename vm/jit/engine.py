"""The JIT engine: compiled functions, workers running blocks in parallel, the hand-off
of single instructions to the interpreter.  It is over 800 lines because the launch, its
workers and the host thread's loop share the contexts and caches defined here.

Compiled code is cached per function description (`code_description`: its
instructions, scheduling model and lane count, never the LLVM text, which is generated
only when the disk cache has no object code for it), so a kernel compiled for one
architecture is compiled once per process and, through the disk cache, once per
machine.  llvmlite and the code generator are imported when the first function is run
natively (vm/jit/native.py), the two imports this package makes inside a function: a
program the interpreter runs never loads them.  A launch's
blocks are spread over `jobs` workers (threads: native code releases the GIL);
each worker has its own block state and block scope (shared memory, frames), and
blocks are taken in chunks from a common counter.  Counters are summed, so
metrics do not depend on the number of workers; a fault is reported for the
lowest block that faults, as a one-worker run reports it.  A stop asked from outside
(vm/stop.py) ends every worker at its next straight run or block, and the launch
raises `Stopped` naming the warps of every block in flight.

A sanitizer asked for (vm/tools.py's COMPILED_TOOLS) is compiled into device code, a
variant of its own: the instructions it looks at go to the interpreter, whose hooks
report; what the tools report in a worker's hand-offs is kept with its block and added
in block order, as printf's records are, and racecheck and synccheck, whose state spans
a launch's blocks, have them run in order on one worker.

A function too large for LLVM to compile in about a minute (`too_large_to_compile`:
its code generation grows faster than the function) is run by the interpreter
instead, with the same results and metrics, and a note on stderr naming it (once).
"""
from __future__ import annotations

import bisect
import contextlib
import ctypes
import hashlib
import os
import struct
import threading
from dataclasses import dataclass, replace

import numpy as np

from minicuda.ir import Imm, Mem, Sym
from minicuda.timing import TIMES
from minicuda.vm import cycles
from minicuda.vm.interp import Interpreter, Warp
from minicuda.vm.launch_setup import LaunchSetup
from minicuda.vm.load_rounds import from_words, state_words, to_words
from minicuda.vm.metrics import LaunchMetrics
from minicuda.vm.profile import NATIVE_COLUMNS
from minicuda.vm.jit import layout as L
from minicuda.vm.jit.host_callees import native_callees
from minicuda.vm.jit.host_calls import HostCallSite, HostView
from minicuda.vm.jit.memlog import MemoryLog, count_records
from minicuda.vm.jit.printf_fifo import NONE_DROPPED, LaunchFifo
from minicuda.vm.callstack import LANE0, NO_METRICS, run_frame_on_warp
from minicuda.vm.state import (AT_BAR, CHECK, DEPTH, DONE, RUN, SAMPLED, SPINNING, STALL, STATUS, WARP, BlockState,
                               bits_mask, mask_bits)
from minicuda.vm.stop import Stopped, block_positions
from minicuda.vm.tools import COMPILED_TOOLS, Findings

COUNTED = "memcounters"   # the variant that logs memory accesses for the counters (vm/jit/memlog.py)
ROUNDS = "loadrounds"     # and steps the load round trips for the timing model (vm/jit/rounds.py)
_ENTRY = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)
HOST_LANE = np.arange(32) == 0   # the host thread's one lane
CHUNK = 64   # blocks a worker takes at a time, at least
CHUNKS_PER_WORKER = 16   # a launch of many small blocks: about this many chunks a worker (each
# chunk costs a trip through Python, under the GIL; 16 keeps the last one short)
# LLVM's compile time grows with the module's text times the function's register rows,
# faster than linearly past a few million.  Measured on the loaded 2-core Xeon: main of the
# programming guide's Matrix multiply (0.68 MB of text, 34 rows: 23 million) compiles in
# 0.6 s, its MatMulKernel (7.4 MB, 30 rows: 222 million) in 45 s, where the interpreter
# runs that kernel's 6 launches for over 25 minutes; the samples' largest are reduceInteger's
# main at 14.6 million and its reduceCompleteUnrollWarps8 at 11.6.  Above this limit (about
# a minute of LLVM) the interpreter runs the function, and the run says so (`refusal`).
MAX_COMPILE_COST = 250_000_000
MAX_COMPILE_INSTRS = 3_000   # the text alone of more would take long to build


@dataclass(frozen=True)
class Native:
    """Object code compiled from one module text: its engine and entry points.  Functions
    whose code differs only in the names of the symbols it reads have the same text (a
    symbol is read by its position in the function's own sorted list) and share it."""
    engine: object
    run_function: object
    run_blocks: object | None
    entries: frozenset   # pcs native code can be entered at


@dataclass(frozen=True)
class Compiled:
    native: Native
    symbols: tuple[str, ...]   # this function's symbols, in the order its native code reads them
    entries: frozenset   # pcs native code can be entered at (and `end`)

    @property
    def run_function(self):
        return self.native.run_function

    @property
    def run_blocks(self):
        return self.native.run_blocks


_NATIVE: dict[str, Native] = {}   # by the hash of the module text
_CACHE: dict[tuple, Compiled] = {}   # by the hash of the module text and the function's symbols


def compile_function(code, sched: str, lanes: int, kernel: bool, seeded: bool = False,
                     profiled: bool = False, checks: frozenset = frozenset()) -> Compiled | None:
    """Native code for `code` (cached by its text and the symbols it reads, and on the Code
    itself: a kernel launched again costs no code generation); None when it is too large
    to compile.  `profiled`: the variant that counts per instruction (vm/profile.py);
    `checks`: the tools compiled into device code (vm/tools.py's COMPILED_TOOLS; host code
    never has them)."""
    checks = frozenset(checks & (COMPILED_TOOLS | {COUNTED, ROUNDS})) if code.fn.kind != "host" else frozenset()
    variant = (sched, lanes, kernel, seeded, profiled, checks)
    if variant not in code.native:
        code.native[variant] = _compile_function(code, sched, lanes, kernel, seeded, profiled, checks)
    return code.native[variant]


def compiled_for(interp: Interpreter, code, sched: str, lanes: int, kernel: bool,
                 profiled: bool = False) -> Compiled | None:
    """`code`'s native code for the run `interp` makes: its seeded schedule and its tools."""
    checks = interp.tools | ({COUNTED} if interp.memory_counters else set()) | \
        ({ROUNDS} if interp.count_rounds else set())
    compiled = compile_function(code, sched, lanes, kernel, seeded=interp.seed is not None, profiled=profiled,
                                checks=frozenset(checks))
    if compiled is None and code.refused is not None:
        interp.note_once(f"minicuda: note: '{code.fn.name}' runs on the interpreter: its native code would be "
                         f"too large to compile ({code.refused})")
    return compiled


def too_large_to_compile(code, text: str | None = None) -> bool:
    """Whether LLVM would take too long over `code` (or its module's `text`)."""
    return refusal(code, text) is not None


def refusal(code, text: str | None = None) -> str | None:
    """Why LLVM would take too long over `code` (or its module's `text`), in words; None
    when it would not."""
    if len(code.instrs) > MAX_COMPILE_INSTRS:
        return f"{len(code.instrs)} instructions, more than {MAX_COMPILE_INSTRS:,}"
    if text is not None and len(text) * code.rows > MAX_COMPILE_COST:
        return (f"{len(text) / 1e6:.1f} MB of LLVM IR times {code.rows} register rows, "
                f"over {MAX_COMPILE_COST // 1_000_000} million")
    return None


def _compile_function(code, sched: str, lanes: int, kernel: bool, seeded: bool, profiled: bool,
                      checks: frozenset) -> Compiled | None:
    code.refused = refusal(code)
    if code.refused is not None:
        return None
    symbols = sorted({o.name for ins in code.instrs for s in ins.srcs
                      for o in ((s.base,) if isinstance(s, Mem) else (s,)) if isinstance(o, Sym) and o.name != "frame"})
    seeded = seeded and sched == "its"
    description = code_description(code, sched, lanes, symbols, kernel, seeded, profiled, checks)
    key = hashlib.sha1(description.encode()).hexdigest()
    if key not in _NATIVE:
        native = _native_code(code, sched, lanes, symbols, kernel, seeded, profiled, checks, key)
        if native is None:
            return None
        _NATIVE[key] = native
    named = (key, tuple(symbols))
    if named not in _CACHE:
        _CACHE[named] = Compiled(_NATIVE[key], tuple(symbols), _NATIVE[key].entries | {code.end})
    return _CACHE[named]


def _native_code(code, sched: str, lanes: int, symbols: list[str], kernel: bool, seeded: bool, profiled: bool,
                 checks: frozenset,
                 key: str) -> Native | None:
    """The function's native code: its object code from the disk cache, else its LLVM
    module generated and compiled (None when that is too large to compile)."""
    from minicuda.vm.jit.native import LLVM   # noqa: PLC0415  (llvmlite: see the module docstring)

    with TIMES.phase("JIT: LLVM set-up"):
        llvm = LLVM.get()
    disk_key = llvm.entry_key(key)
    with TIMES.phase("JIT: native code loaded from the cache"):
        found = llvm.load(disk_key)
    if found is not None:
        engine, entries = found
    else:
        from minicuda.vm.jit.module import module_ir   # noqa: PLC0415  (the code generator: see above)

        with TIMES.phase("JIT: LLVM IR generated"):
            text, entries = module_ir(code, sched, lanes, symbols, kernel, seeded, profiled, checks)
        code.refused = refusal(code, text)
        if code.refused is not None:
            return None
        # kernels: registers into SSA, values carried between instructions, native code (their time is in memory
        # and vector work); host code: LLVM -O1 for its scalar loops, unless it is huge
        with TIMES.phase("JIT: LLVM compile to native code"):
            engine = llvm.compile(text, -1 if kernel or len(text) > 300_000 else 1, disk_key, entries)
    run_function = _ENTRY(engine.get_function_address("run_function"))
    run_blocks = _ENTRY(engine.get_function_address("run_blocks")) if kernel else None
    return Native(engine, run_function, run_blocks, frozenset(entries))


def code_description(code, sched: str, lanes: int, symbols: list[str], kernel: bool, seeded: bool,
                     profiled: bool = False, checks: frozenset = frozenset()) -> str:
    """Everything the function's LLVM module is generated from (vm/jit/module.py), as text:
    the variant, the function's facts, and each block's instructions without their
    source locations (native code does not name them: an edit that only moves a function
    keeps its native code).  A symbol is written by its position in `symbols`, as native
    code reads it, so functions that differ only in the objects they name share native
    code; a CALL's callee keeps its name (the runtime function decides the code).
    Floating immediates are written by their bits (str() writes every NaN alike).  The
    profiled variant (per-instruction counters) says so on its first line."""
    fn = code.fn
    params = " ".join(f"{p.reg}:{p.size}:{p.kind}" for p in fn.params)
    lines = [f"{sched} {lanes} {kernel} {seeded} {len(symbols)}" + (" profiled" if profiled else "")
             + "".join(f" {t}" for t in sorted(checks)),
             f"{fn.kind} ({params}) -> ({' '.join(map(str, fn.rets))}) {fn.ret_wide} {fn.shared_bytes} "
             f"{fn.local_bytes} {fn.dynamic_shared} {fn.registers} {fn.predicates} {fn.launch_bounds}"]
    position = {name: i for i, name in enumerate(symbols)}
    for block in fn.blocks:
        lines.append(f"{block.label}: {code.rpc.get(block.label)}")
        lines += (instr_description(ins, position) for ins in block.instrs)
    if lanes == 1:   # the native callees compiled into the module (vm/jit/host_callees.py)
        for name, callee in (getattr(code, "host_callees", None) or {}).items():
            lines += [f"callee {name}", code_description(callee, "stack", 1, [], False, False)]
    return "\n".join(lines)


def instr_description(ins, position: dict[str, int]) -> str:
    guard = f"@{'!' if ins.guard_neg else ''}{ins.guard} " if ins.guard is not None else ""
    operands = [operand_description(o, position) for o in ins.dsts]
    operands += [repr(o) if ins.op == "CALL" and i == 0 else operand_description(o, position)
                 for i, o in enumerate(ins.srcs)]
    return f"{guard}{ins.opcode} " + ", ".join(operands)


def operand_description(o, position: dict[str, int]) -> str:
    if isinstance(o, Imm) and isinstance(o.value, float):
        return f"f:{struct.pack('<d', o.value).hex()}"
    if isinstance(o, Sym) and o.name in position:
        return f"sym{position[o.name]}+{o.offset}"
    if isinstance(o, Mem) and isinstance(o.base, Sym) and o.base.name in position:
        return f"[sym{position[o.base.name]}+{o.base.offset}+{o.offset}]"
    return repr(o)


class _Context:
    """The int64 fields native code reads (vm/jit/layout.py), and the arrays they point to."""

    def __init__(self, state: BlockState, compiled: Compiled, symbols: dict, max_steps: int, stop_address: int):
        self.ctx = np.zeros(L.NFIELDS, dtype=np.int64)
        self.counters = np.zeros(L.NCOUNTERS, dtype=np.int64)
        self.warn = np.zeros(L.WARN_CAP, dtype=np.int64)
        self.rand = np.zeros(33, dtype=np.uint32)
        self.syms = np.array([symbols.get(n, 0) for n in compiled.symbols] or [0], dtype=np.uint64)
        c = self.ctx
        self.state = state
        for name, index in L.SECTION.items():
            c[index] = getattr(state, name).ctypes.data
        c[L.SYMS] = self.syms.ctypes.data
        c[L.COUNTERS] = self.counters.ctypes.data
        c[L.NWARPS] = state.layout.nwarps
        c[L.STATE] = state.buf.ctypes.data
        c[L.STATE_SIZE] = state.buf.nbytes
        c[L.ROUNDS] = state.rounds.ctypes.data
        c[L.WARN] = self.warn.ctypes.data
        c[L.RAND] = self.rand.ctypes.data
        c[L.MAX_STEPS] = max_steps
        c[L.STOP] = stop_address
        c[L.FIRST_CHECK] = cycles.FIRST_CHECK
        self.table_key = None
        self.table_scope = None   # the block scope whose entries `table` holds
        self.table = None
        self.host_warp: Warp | None = None   # the host thread's runtime calls read and write through it
        self.address = c.ctypes.data
        # for the host thread's loop: scalar views of the fields and counters, its state's
        # rows, and its runtime call sites by pc (None: the interpreter runs it)
        self.fields = memoryview(c)
        self.counter_view = memoryview(self.counters)
        self.no_counters = memoryview(np.zeros(L.NCOUNTERS, dtype=np.int64))
        self.host_view: HostView | None = None
        self.host_sites: dict[int, HostCallSite | None] = {}

    def set_table(self, memory, scope, side: str) -> None:
        """Point native code at the allocations (the program's, and the block scope's) as
        code on `side` sees them (vm/memory.py's `_Table`: an allocation out of the side's
        reach, or freed, is empty, and a read-only one is empty to stores, so such
        accesses go to the interpreter, which reports them).  Host code reads the
        memory's own arrays (nothing changes them while it runs); a block's code, whose
        scope has storage of its own and whose neighbours may allocate while it runs,
        reads a private copy with the scope's entries spliced in, made again only when
        the memory changed."""
        if scope is None:   # the memory's own arrays: where they are changes only as they grow
            fields = self.fields
            fields[L.MT_N] = len(memory.bases)
            if self.table is not memory.arrays or self.table_key != side:
                self.table, self.table_key = memory.arrays, side
                fields[L.MT_BASE], fields[L.MT_END], fields[L.MT_HOST], fields[L.MT_WEND], fields[L.MT_INIT] = \
                    memory.native_addresses(side)
            return
        # the scope itself is compared, not its id: a launch's scopes are freed with it,
        # and a later launch's may be made at the same address while the version stands
        key = (memory.version, side)
        if key == self.table_key and self.table_scope is scope:
            return
        n, arrays, addresses = len(memory.bases), memory.arrays, memory.native_addresses(side)
        if scope is not None:   # (no allocation of the memory's lies among the scope's)
            n, arrays = memory.native_table(side)
            m, scope_arrays = scope.native_table(side)
            split = bisect.bisect(memory.bases, scope.bases[0]) if m else n
            arrays = np.concatenate((arrays[:, :split], scope_arrays[:, :m], arrays[:, split:n]), axis=1)
            addresses = tuple(arrays[row].ctypes.data for row in range(len(arrays)))
            n += m
        self.table = arrays   # kept alive while native code reads it
        c = self.ctx
        c[L.MT_N] = n
        c[L.MT_BASE], c[L.MT_END], c[L.MT_HOST], c[L.MT_WEND], c[L.MT_INIT] = addresses
        self.table_key, self.table_scope = key, scope


class JitEngine:
    name = "jit"

    def __init__(self, interp: Interpreter, jobs: int | None = None):
        self.interp = interp
        self.jobs = max(1, jobs or usable_cores())
        self.bail_lock = threading.Lock()
        self.workers: list[_Worker] = []
        self.tracing = False   # the interpreter runs the block holding the traced warp (under bail_lock)
        self.call_logs: dict = {}   # Code -> the memory log of a device function's calls

    # ---- a whole grid ----------------------------------------------------------------------
    def launch(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch, shared_dynamic: int = 0):
        with self.interp.launch_checks():   # (synccheck's and racecheck's state: their hooks run in the bails)
            return self.launch_blocks(kernel, grid, block, args, arch, shared_dynamic)

    def launch_blocks(self, kernel: str, grid: tuple, block: tuple, args: list[int], arch, shared_dynamic: int = 0):
        interp = self.interp
        setup = LaunchSetup(interp, kernel, grid, block, args, shared_dynamic)
        compiled = compiled_for(interp, setup.code, interp.sched, 32, kernel=True, profiled=interp.profiling)
        if compiled is None:
            return interp.launch(kernel, grid, block, args, arch, shared_dynamic)
        metrics = LaunchMetrics(kernel, grid, block, arch, interp.sched, counted_memory=interp.memory_counters,
                                counted_rounds=interp.count_rounds)
        with interp.profiled(metrics):   # (a profile's counters: vm/profile.py)
            self.run_grid(setup, compiled, metrics, kernel)
        return metrics

    def run_grid(self, setup: LaunchSetup, compiled: Compiled, metrics, kernel: str) -> None:
        """The launch's blocks, on the workers; the block holding the warp whose issue trace
        a profile records (vm/profile.py) on the interpreter, in its turn."""
        interp = self.interp
        grid, block = setup.grid, setup.block
        self.workers = []
        nblocks = grid[0] * grid[1] * grid[2]
        runtime = interp.machine.runtime if interp.machine is not None else None
        room = runtime.fifo_records() - len(runtime.device_output) if runtime is not None else NONE_DROPPED
        self.fifo = LaunchFifo(room, nblocks)
        # (synccheck reports a thread's error once per launch, racecheck checks global memory
        # across blocks: blocks are checked in order)
        checked = interp.sync is not None or interp.race is not None
        nworkers = 1 if checked else min(self.jobs, -(-nblocks // CHUNK))
        budget = interp.max_steps
        workers = [_Worker(self, setup, compiled, metrics, budget) for _ in range(nworkers)]
        self.workers = workers
        start_steps = interp.steps
        for w in workers:
            w.context.counters[L.STEPS] = start_steps
        self.next_block = 0
        self.first_fault = None   # (block, error)
        self.counter_lock = threading.Lock()
        self.nblocks = nblocks
        self.chunk = max(CHUNK, nblocks // (nworkers * CHUNKS_PER_WORKER))
        self.stopped = False
        trace = interp.issue_trace
        self.interpreted_block = trace.block if trace is not None else None
        if nworkers == 1:
            workers[0].run()
        else:
            threads = [threading.Thread(target=w.run, daemon=True) for w in workers]
            for t in threads:
                t.start()
            try:
                for t in threads:
                    while t.is_alive():   # a timed join, so Ctrl-C reaches this thread
                        t.join(0.25)
            except KeyboardInterrupt:
                # stop the workers at their next block, then give up the launch
                self.stopped = True
                for w in workers:
                    w.context.ctx[L.ABORT] = 1
                for t in threads:
                    t.join()
                raise
        used = 0
        for w in workers:
            _add_counters(metrics, w.context.counters)
            used += int(w.context.counters[L.STEPS]) - start_steps
            if w.profile is not None:
                interp.profile.native_table(setup.code)[:] += w.profile
            if w.log is not None:
                w.log.finish(metrics)
        interp.steps = start_steps + used
        if interp.machine is not None:
            printed = {b: lines for w in workers for b, lines in w.printed.items()}
            if self.first_fault is not None:   # as far as a one-worker run would have got
                printed = {b: lines for b, lines in printed.items() if b <= self.first_fault[0]}
            interp.machine.runtime.device_output.extend(self.fifo.kept(printed))
        reported = sorted(((b, f) for w in workers for b, f in w.reported.items()
                           if self.first_fault is None or b <= self.first_fault[0]), key=lambda kept: kept[0])
        for _, findings in reported:   # in block order, as a one-worker run reports them
            interp.findings.extend(findings)
        if self.first_fault is not None:
            raise self.first_fault[1]
        done = sum(w.completed for w in workers)
        if done < nblocks:   # stopped from outside
            stop = Stopped(interp.stop.reason)
            for w in sorted(workers, key=lambda w: w.block):
                stop.note_warps(w.positions)
            stop.note_kernel(kernel, grid, block, done, nblocks)
            raise stop
        warned = sorted(b for w in workers for b in w.warned)
        for b in warned:
            interp.partial_barrier_warning(setup.code, setup.block_id(b))

    def prepare(self, kernel: str) -> None:
        """Compile `kernel` now (its launch finds it compiled)."""
        interp = self.interp
        compiled_for(interp, interp.code(kernel), interp.sched, 32, kernel=True, profiled=interp.profiling)

    def take_chunk(self) -> tuple[int, int] | None:
        with self.counter_lock:
            limit = self.nblocks if self.first_fault is None else self.first_fault[0]
            if self.next_block >= limit or self.stopped or self.interp.stop.word[0]:
                return None
            begin = self.next_block
            end = min(limit, begin + self.chunk)
            alone = self.interpreted_block   # a chunk of its own
            if alone is not None and begin <= alone < end:
                end = alone + 1 if begin == alone else alone
            self.next_block = end
            return begin, end

    def blocks_done(self) -> int:
        """Blocks of the launch running that have finished (read while it runs)."""
        return sum(w.completed + w.in_chunk() for w in self.workers)

    def fault(self, block: int, error: Exception) -> None:
        with self.counter_lock:
            if self.first_fault is None or block < self.first_fault[0]:
                self.first_fault = (block, error)

    # ---- a call stack's frame (vm/callstack.py) ----------------------------------------------
    def run_frame(self, interp: Interpreter, frame, metrics=NO_METRICS) -> str:
        """Run a call stack's top frame until it is done, at a barrier, or makes a call.
        Host code runs on its state alone: native code stops at a CALL of a user function,
        which is counted here and left in `frame.call`; anything else native code hands
        back goes to the interpreter through a Warp.  Device code runs through a Warp."""
        code = frame.code
        if code.fn.kind != "host":
            return run_frame_on_warp(self, interp, frame, metrics)
        native_callees(interp, code)   # (before its first compile: they are part of its module)
        compiled = compiled_for(interp, code, "stack", 1, kernel=False)
        if compiled is None:   # too large for LLVM: the interpreter runs it
            return run_frame_on_warp(self, interp, frame, metrics)
        state = frame.state
        context = state_context(state, frame.symbols, compiled, interp)
        context.fields[L.STACK_ROOM] = frame.room
        counters, fields, no_counters = context.counter_view, context.fields, context.no_counters
        rt = interp.machine.runtime.random if interp.machine is not None and code.calls_rand else None
        memory, side, run_function, address = interp.memory, interp.side, compiled.run_function, context.address
        view = host_view(context, state)
        sites, regs, stack, words, flags = context.host_sites, view.regs, view.stack, view.words, view.flags
        stop, bases = interp.stop.word, memory.bases
        # (the loop runs once per runtime call: the layout's indices are locals, and the
        # table is pointed at again only when the memory's arrays were replaced)
        steps_at, bail_pc, table_n, done, at_bar = L.STEPS, L.BAIL_PC, L.MT_N, L.DONE, L.AT_BAR
        while True:
            if context.table is memory.arrays and context.table_key == side:
                fields[table_n] = len(bases)
            else:
                context.set_table(memory, None, side)
            counters[:] = no_counters
            counters[steps_at] = interp.steps
            if rt is not None:
                _rand_out(rt, context.rand)
            status = run_function(address)
            if rt is not None:
                _rand_in(rt, context.rand)
            interp.steps = counters[steps_at]
            if status == done:
                return "done"
            if status == at_bar:
                return "bar"
            pc = fields[bail_pc]
            site = sites.get(pc)
            if site is not None and words[DEPTH] == 1 and stack[1] & 1 and not flags[WARP] and not stop[0]:
                interp.count_step(site.ins)   # run_host_runtime_call's work, for a decoded call site
                site.run(regs)
                stack[0] = pc + 1
                words[STALL] = 0
                continue
            ins = code.instrs[pc]
            if _user_call(ins):
                interp.count_step(ins)
                top = (words[DEPTH] - 1) * 3   # the stack entry: (pc, mask bits, rpc)
                stack[top] = pc + 1
                lanes = stack[top + 1]
                if lanes == 1 and not flags[WARP]:   # the host thread, as it always is
                    frame.call = (ins, LANE0)
                else:
                    frame.call = (ins, bits_mask(lanes & ~mask_bits(state.flags[0, 1].view(bool))))
                return "call"
            if _runtime_call(ins) and int(state.words[0, DEPTH]) == 1:
                run_host_runtime_call(interp, context, frame, pc)
                continue
            w = frame.warp()
            result = interpret_until_entry(interp, w, NO_METRICS, "stack", compiled.entries)
            frame.call = w.pending_call
            frame.release()
            if result is not None:
                return result

    # ---- one function for some threads (host code, a device function's call) --------------
    def run_function(self, interp: Interpreter, w: Warp, metrics) -> str:
        fn = w.code.fn
        host = fn.kind == "host"
        sched = "stack" if host else interp.sched
        profiled = interp.profile is not None and not host
        # (the block a profile traces a warp of runs on the interpreter, its calls too)
        compiled = None if self.tracing else \
            compiled_for(interp, w.code, sched, 1 if host else 32, kernel=False, profiled=profiled)
        if compiled is None:   # as the interpreter engine runs it
            return (interp.run_stack if interp.sched == "stack" else interp.run_its)(w, metrics)
        context = state_context(w.state, w.symbols, compiled, interp)
        if profiled:   # (run under the bail lock, or by the interpreter engine: one writer)
            table = interp.profile.native_table(w.code)
            context.ctx[L.PROFILE] = table.ctypes.data
        log, rounds = self.call_counters(interp, w, context)
        rt = interp.machine.runtime.random if interp.machine is not None else None
        w.push()
        while True:
            context.set_table(interp.memory, w.scope, interp.side)
            context.counters[:] = 0
            context.counters[L.STEPS] = interp.steps
            if rt is not None:
                _rand_out(rt, context.rand)
            status = compiled.run_function(context.address)
            if rt is not None:
                _rand_in(rt, context.rand)
            interp.steps = int(context.counters[L.STEPS])
            _add_counters(metrics, context.counters)
            if log is not None:
                _flush_call_log(log, context.ctx, metrics)
            w.pull()
            if status == L.DONE:
                w.done = True
                return "done"
            if status == L.AT_BAR:
                return "bar"
            if interp.stop.word[0]:   # asked to stop: w is at the instruction it would run
                raise Stopped(interp.stop.reason)
            if rounds is not None:   # the interpreter steps the round trips native code kept
                w.load_rounds = from_words(rounds[0], w.code)
            result = interpret_until_entry(interp, w, metrics, sched, compiled.entries)
            if rounds is not None:
                to_words(w.load_rounds, rounds[0], w.code)
            w.push()
            if result is not None:
                return result

    def call_counters(self, interp: Interpreter, w: Warp, context: _Context):
        """A device function's memory log and round-trip words, with the counters on: its
        accesses logged as a kernel's are (a log of its own, counted each time native code
        returns), its round trips stepped on words of its own, started afresh as the
        interpreter starts a frame's Warp afresh (vm/callstack.py's Frame.warp)."""
        log = rounds = None
        if interp.memory_counters and w.code.fn.kind != "host":
            log = self.call_logs.get(w.code)
            if log is None:
                log = self.call_logs[w.code] = MemoryLog(w.code, CALL_LOG_RECORDS)
            log.attach(context.ctx, L)
        if interp.count_rounds and w.code.fn.kind != "host":
            rounds = np.zeros((1, max(state_words(w.code), 1)), np.int64)
            context.ctx[L.ROUNDS] = rounds.ctypes.data
            context.ctx[L.ROUND_LIMIT] = interp.loads_in_flight
            w.load_rounds = None
        return log, rounds


CALL_LOG_RECORDS = 1 << 12   # a device function's log (1 MB): a call that fills it hands its accesses over


def _flush_call_log(log: MemoryLog, ctx, metrics) -> None:
    """Count a device function's logged accesses into the launch's `metrics` (under the bail
    lock its call runs under): its loads' sectors go to the block's loads, which the worker
    adopts as its block's pairs (vm/jit/memlog.py), and its executions to the classes."""
    n = int(ctx[L.MEMLOG_N])
    ctx[L.MEMLOG_N] = 0
    if metrics is NO_METRICS:
        log.execs[:] = 0
        return
    if n:
        for pairs in count_records(metrics, log.records[:n], log.sites):
            metrics.block_loads.append(pairs[:, 1])
    log.finish(metrics)


def state_context(state: BlockState, symbols: dict, compiled: Compiled, interp: Interpreter) -> _Context:
    """The context of a function's run on `state`, kept on the state: a call stack reuses
    states (vm/callstack.py), so a deep recursion builds few contexts.  The key holds the
    symbols themselves, not their id: a state outlives its launch, and a later launch's
    symbols (shared memory elsewhere) may be a new dict at a freed one's address."""
    key = (compiled, symbols, interp.max_steps, cycles.FIRST_CHECK)
    kept = getattr(state, "jit_context", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    context = _Context(state, compiled, symbols, interp.max_steps, interp.stop.address)
    context.ctx[L.TOOLS] = len(interp.tools)
    state.jit_context = (key, context)
    return context


def _user_call(ins) -> bool:
    return ins.op == "CALL" and "RT" not in ins.mods and ins.guard is None


def _runtime_call(ins) -> bool:
    return ins.op == "CALL" and "RT" in ins.mods and ins.guard is None


def run_host_runtime_call(interp: Interpreter, context: _Context, frame, pc: int) -> None:
    """The host thread's CALL.RT (cudaMalloc, malloc, printf, ...) at `pc`, run as the
    instruction itself: through its HostCallSite (vm/jit/host_calls.py: decoded once,
    straight to the runtime's method), or where it has none by the interpreter, on a Warp
    kept with the context; either way no scheduler state to read and write back, so a
    loop of runtime calls costs the calls alone.  The thread's stack holds one entry (its
    caller checks), which moves on past the call."""
    state = frame.state
    view = host_view(context, state)
    stack = view.stack
    if interp.trace is None and stack[1] & 1 and not view.flags[WARP]:   # execute's work, for one lane
        if interp.stop.word[0]:
            raise Stopped(interp.stop.reason)
        ins = frame.code.instrs[pc]
        interp.count_step(ins)
        sites = context.host_sites
        site = sites[pc] if pc in sites else sites.setdefault(
            pc, HostCallSite.make(interp.machine, ins, frame.code, frame.symbols))
        if site is not None:
            site.run(view.regs)
        else:
            interp.machine.call(interp, host_warp(context, frame), ins, HOST_LANE)
    else:
        lanes = int(stack[1]) & ~mask_bits(state.flags[0, 1].view(bool))
        interp.execute(host_warp(context, frame), pc, bits_mask(lanes), NO_METRICS)
    stack[0] = pc + 1
    view.words[STALL] = 0


def host_view(context: _Context, state: BlockState) -> HostView:
    """The scalar views of the host thread's state, kept with the context."""
    view = context.host_view
    if view is None or view.state is not state:
        view = context.host_view = HostView(state)
    return view


def host_warp(context: _Context, frame) -> Warp:
    """The Warp the interpreter runs the host thread's instructions on, kept with the context."""
    w = context.host_warp
    if w is None or w.state is not frame.state:
        w = context.host_warp = Warp(frame.code, frame.state, 0, frame.symbols, frame.scope, frame.warp_id)
        w.driven = True
    return w


class _Worker:
    def __init__(self, engine: JitEngine, setup: LaunchSetup, compiled: Compiled, metrics, budget: int):
        self.engine, self.setup, self.compiled, self.metrics = engine, setup, compiled, metrics
        self.state = BlockState(setup.layout)
        # the thread ids and frames, which run_blocks does not copy per block (block_loop.py)
        self.state.buf[:] = setup.template.buf
        self.scope = setup.new_scope()
        self.context = _Context(self.state, compiled, setup.symbols, budget, engine.interp.stop.address)
        c = self.context.ctx
        c[L.TOOLS] = len(engine.interp.tools)
        c[L.PRINTF_FROM] = engine.fifo.first_dropped.ctypes.data
        c[L.GRID_X], c[L.GRID_Y], c[L.GRID_Z] = setup.grid
        c[L.TEMPLATE] = setup.template.buf.ctypes.data
        self.scope_ptrs = np.array([a.data.ctypes.data for a in self.scope.allocs] or [0], dtype=np.uint64)
        self.scope_sizes = np.array([a.size for a in self.scope.allocs] or [0], dtype=np.int64)
        c[L.SCOPE_N] = len(self.scope.allocs)
        c[L.SCOPE_PTRS], c[L.SCOPE_SIZES] = self.scope_ptrs.ctypes.data, self.scope_sizes.ctypes.data
        seed = engine.interp.seed
        c[L.RNG_ON] = 1 if seed is not None else 0
        c[L.SEED] = np.int64(np.uint64(seed & ((1 << 64) - 1))) if seed is not None else 0
        self.warned: list[int] = []
        self.printed: dict[int, list[bytes]] = {}
        self.reported: dict[int, Findings] = {}   # block -> what the tools reported in its bails
        self.completed = 0       # blocks finished
        self.begin = None        # the first block of the chunk running
        self.block = -1          # the block in flight when stopped from outside, and its warps
        self.positions = []
        self.bail_writes = 0     # memory changes the interpreter made in this worker's bails
        self.spinning: dict[int, int] = {}   # warp -> this worker's memory changes when proven to spin
        # a profiled launch: the kernel's per-instruction counters, this worker's (vm/profile.py)
        self.profile = None
        if engine.interp.profiling:
            self.profile = np.zeros((len(setup.code.instrs), NATIVE_COLUMNS), np.int64)
            c[L.PROFILE] = self.profile.ctypes.data
        # the memory counters: this worker's log of accesses (vm/jit/memlog.py)
        self.log = None
        if engine.interp.memory_counters:
            self.log = MemoryLog(setup.code)
            self.log.attach(c, L)
        c[L.ROUND_LIMIT] = engine.interp.loads_in_flight

    def flush_log(self) -> None:
        """Count the accesses native code logged (they go into the launch's metrics, which
        the workers share: under the bail lock, where the interpreter counts its own)."""
        if self.log is None:
            return
        c = self.context.ctx
        with self.engine.bail_lock:
            self.log.flush(self.metrics, int(c[L.MEMLOG_N]), int(c[L.BLOCK]))
        c[L.MEMLOG_N] = 0

    def in_chunk(self) -> int:
        begin = self.begin
        return int(self.context.ctx[L.BLOCK]) - begin if begin is not None else 0

    def run(self) -> None:
        interp = self.engine.interp
        c = self.context.ctx
        while True:
            chunk = self.engine.take_chunk()
            if chunk is None:
                return
            if chunk[0] == self.engine.interpreted_block:
                if not self.interpret_block(chunk[0]):
                    return
                continue
            c[L.BLOCK], c[L.BLOCK_END] = chunk
            c[L.RESUME] = 0
            c[L.NWARN] = 0
            self.begin = chunk[0]
            while True:
                self.context.set_table(interp.memory, self.scope, interp.side)
                status = self.compiled.run_blocks(self.context.address)
                self.flush_log()
                if status == L.DONE:
                    break
                if status == L.OPENING:
                    self.barrier_opens()
                    c[L.RESUME] = L.RESUME_OPEN
                    continue
                if status == L.STOPPED:
                    self.note_block(Stopped(interp.stop.reason))
                    return
                if status == L.SPINNING:
                    stuck = self.wake_spinners()
                    if stuck is not None:
                        self.engine.fault(int(c[L.BLOCK]), stuck)
                        return
                    c[L.RESUME] = 1
                    continue
                try:
                    if interp.stop.word[0]:   # asked to stop: the warp bailed before an instruction
                        raise Stopped(interp.stop.reason)
                    self.bail()
                except Stopped as stop:
                    self.note_block(stop)
                    return
                except Exception as error:   # reported for the lowest faulting block
                    self.engine.fault(int(c[L.BLOCK]), error)
                    return
                c[L.RESUME] = 1
            self.completed += int(c[L.BLOCK]) - chunk[0]
            self.begin = None
            self.warned.extend(int(b) for b in self.context.warn[:min(int(c[L.NWARN]), L.WARN_CAP)])

    def interpret_block(self, b: int) -> bool:
        """Block b on the interpreter (it holds the warp a profile traces), as `bail` runs
        one instruction there; False when it faulted or was stopped."""
        setup, interp = self.setup, self.engine.interp
        runtime = interp.machine.runtime if interp.machine is not None else None
        with self.engine.bail_lock:
            counters = self.context.counters
            interp.steps = int(counters[L.STEPS])
            printed = len(runtime.device_output) if runtime is not None else 0
            if runtime is not None:
                runtime.fifo_end = printed + self.engine.fifo.room_for(b)
            writes = interp.memory.writes
            self.engine.tracing = True
            try:
                interp.run_block(setup, self.state, self.scope, setup.block_id(b), b, self.metrics)
            except Stopped as stop:
                self.block, self.positions = b, stop.warps
                return False
            except Exception as error:   # reported for the lowest faulting block
                self.engine.fault(b, error)
                return False
            finally:
                self.engine.tracing = False
                if self.log is not None:
                    self.log.adopt(self.metrics, b)
                counters[L.STEPS] = interp.steps
                self.keep_output(runtime, printed, b)
                self.bail_writes += interp.memory.writes - writes
        self.completed += 1
        return True

    def keep_output(self, runtime, printed: int, b: int) -> None:
        """What block b's device printf wrote on the interpreter since `printed`, kept with
        its block: the launch prints blocks in order."""
        if runtime is None:
            return
        runtime.fifo_end = None
        if len(runtime.device_output) > printed:
            self.engine.fifo.add(b, len(runtime.device_output) - printed)
            self.printed.setdefault(b, []).extend(runtime.device_output[printed:])
            del runtime.device_output[printed:]

    def note_block(self, stop: Stopped) -> None:
        """Stopped from outside: where the warps of the block in flight were (a function
        called from it may have named its own warp already)."""
        setup, b = self.setup, int(self.context.ctx[L.BLOCK])
        self.completed += b - self.begin
        self.begin = None
        self.block = b
        warps = [Warp(setup.code, self.state, i, setup.symbols, self.scope, setup.warp_of[i])
                 for i in range(self.state.layout.nwarps)]
        stop.note_warps(block_positions(warps, setup.block_id(b), self.engine.interp.sched))
        self.positions = stop.warps

    def writes(self) -> int:
        """Memory changes this worker has made: native code's and its bails'."""
        return int(self.context.counters[L.WRITES]) + self.bail_writes

    def wake_spinners(self) -> Exception | None:
        """A round ended with warps proven to spin: those memory changed for since run again,
        as Interpreter.run_round wakes them (each waits at a label: native code takes it
        back there); when none, the block is stuck: the report of the first."""
        words, now = self.state.words, self.writes()
        woken = [i for i in sorted(self.spinning) if self.spinning[i] != now]
        if not woken:
            first = min(self.spinning)
            self.spinning.clear()
            return self.state.windows[first].verdict
        for i in woken:
            del self.spinning[i]
            words[i, STATUS] = RUN
            words[i, STALL] = 0
            words[i, CHECK] = cycles.FIRST_CHECK
            words[i, SAMPLED] = -1
            self.state.windows.pop(i, None)
        return None

    def barrier_opens(self) -> None:
        """The block's barrier opens: synccheck looks at where its warps wait, and they get
        their BAR.RED results, as the interpreter does both."""
        setup, state, interp = self.setup, self.state, self.engine.interp
        waiting = [Warp(setup.code, state, i, setup.symbols, self.scope, setup.warp_of[i])
                   for i in range(state.layout.nwarps) if state.words[i, STATUS] == AT_BAR]
        if interp.sync is not None or interp.race is not None:
            with self.engine.bail_lock, self.block_findings(int(self.context.ctx[L.BLOCK])):
                interp.barrier_checks(waiting)
        interp.deliver_reductions(waiting)

    @contextlib.contextmanager
    def block_findings(self, b: int):
        """While the interpreter works for block `b` (under the bail lock): the tools' reports
        are kept with the block, as printf's records are, and the launch adds them in
        block order."""
        interp = self.engine.interp
        findings, interp.findings = interp.findings, self.reported.setdefault(b, Findings())
        try:
            yield
        finally:
            interp.findings = findings

    def bail(self) -> None:
        """Let the interpreter run the instruction native code stopped at; or, where it
        stopped to have the warp's state kept (vm/cycles.py), only keep it."""
        setup, interp = self.setup, self.engine.interp
        c = self.context.ctx
        index = int(c[L.BAIL_WARP])
        b = int(c[L.BLOCK])
        bid = setup.block_id(b)
        self.scope.rename(bid)
        if cycles.due(self.state, index, setup.code.labels, interp.sched == "its"):
            period = cycles.keep(self.state, index, setup.code)
            if period is None:
                return
        else:
            period = None
        w = Warp(setup.code, self.state, index, setup.symbols, self.scope, setup.warp_of[index])
        if interp.count_rounds:   # the round trips native code keeps in the state (vm/jit/rounds.py)
            w.load_rounds = from_words(self.state.rounds[index], setup.code)
        runtime = interp.machine.runtime if interp.machine is not None else None
        words = self.state.words[index]
        with self.engine.bail_lock, self.block_findings(b):
            counters = self.context.counters
            interp.steps = int(counters[L.STEPS])
            printed = len(runtime.device_output) if runtime is not None else 0
            if runtime is not None:   # the FIFO as far as this block's records go
                runtime.fifo_end = printed + self.engine.fifo.room_for(b)
            writes = interp.memory.writes
            try:
                if period is not None:
                    result = interp.proven(w, period, self.metrics)
                else:
                    result = interpret_until_entry(interp, w, self.metrics, interp.sched, self.compiled.entries)
            except Stopped:
                w.push()   # the state the report reads
                raise
            finally:
                if self.log is not None:
                    self.log.adopt(self.metrics, b)
                if w.load_rounds is not None:
                    to_words(w.load_rounds, self.state.rounds[index], setup.code)
                counters[L.STEPS] = interp.steps
                self.keep_output(runtime, printed, b)
                self.bail_writes += interp.memory.writes - writes
        w.push()
        if result == "bar":
            words[STATUS] = AT_BAR
        elif result == "done":
            words[STATUS] = DONE
        elif result == "spin":
            words[STATUS] = SPINNING
            self.spinning[index] = self.writes()


def interpret_until_entry(interp: Interpreter, w: Warp, metrics, sched: str, entries: frozenset) -> str | None:
    """Run the instruction native code stopped at on the interpreter, then on until
    the warp is where native code can take it back."""
    if sched == "stack":
        while True:
            result = interp.step_stack(w, metrics)
            if result is not None or not w.stack:
                return result
            pc, mask, _ = w.stack[-1]
            if pc in entries or not (mask & ~w.exited).any():
                return None
    while True:
        result = interp.step_its(w, metrics)
        if result is not None:
            return result
        runnable = ~w.exited & (w.waiting < 0) & ~w.at_bar
        if all(int(pc) in entries for pc in w.pc[runnable]):
            return None


def usable_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _add_counters(metrics, counters) -> None:
    metrics.inst_executed += int(counters[L.INST])
    metrics.thread_inst_executed += int(counters[L.THREAD])
    metrics.thread_inst_executed_pred_on += int(counters[L.PRED_ON])
    metrics.branch += int(counters[L.BRANCH])
    metrics.global_ld_rounds += int(counters[L.GLOBAL_ROUNDS])
    metrics.shared_ld_rounds += int(counters[L.SHARED_ROUNDS])
    metrics.alu_chain += int(counters[L.ALU_CHAIN])
    metrics.divergent_branch += int(counters[L.DIVERGENT])
    metrics.barriers += int(counters[L.BARRIERS])
    metrics.max_stack_depth = max(metrics.max_stack_depth, int(counters[L.MAX_DEPTH]))
    metrics.max_paths = max(metrics.max_paths, int(counters[L.MAX_PATHS]))


def _rand_out(random, array: np.ndarray) -> None:
    array[:] = random.state_words()


def _rand_in(random, array: np.ndarray) -> None:
    random.set_state_words(array)

"""One function of bytecode as native code: the driver of the JIT's code generation.

The code runs a warp exactly as the interpreter does (vm/interp.py is the
specification): lanes are LLVM vectors (`<32 x i32>`; host code is compiled with
one lane), an active mask is an integer of bits, and every instruction keeps the
interpreter's counters.  `FunctionCodegen` writes `i32 @warp(ptr %ctx, i64 %wi, i1 %fresh)`,
which runs warp wi until it is done, at a barrier or bails: the entry block loads
the warp's state into locals, the scheduling model's block (`sched`) picks what
runs, one LLVM block per instruction follows, and the exit blocks save the state
and the counters.  Each instruction's lowering is the method its ISA row names,
`FunctionCodegen.lower_<jit>` (minicuda/isa.py), found with its concern:

- control.py: branch, exit, barrier, trap, no-ops;
- memory.py: loads, stores, atomics, the host's native runtime calls;
- warp_ops.py: votes and shuffles;
- its_scheduler.py / stack_scheduler.py: the two scheduling models (and the
  convergence barriers, which only ITS gives meaning);
- here: pure instructions (through ops.py) and special registers.

Whatever native code does not do itself (calls, launches, the runtime, faults,
deadlock and budget reports, a store that spans allocations) it hands back: it
saves the warp's state with the pc of that instruction and returns BAIL; the
engine lets the interpreter run that one instruction on the same state and comes
back.  So a fault is reported by the interpreter, word for word.

Invariants: code runs straight between entry points (labels, in host code only a
loop's head; the pc after an event or after an instruction that always bails; every pc
when a seeded ITS schedule may park a path anywhere), and the budget check is made once
per straight run, at its entry, for its longest path (`straight_runs`); host code writes
back at an exit only the registers live there (live_rows.py); at a label, a warp past its CHECK
bails before the instruction so that the engine keeps its state (vm/cycles.py),
once per stall (SAMPLED): native code runs the watched loop.  Every POLL_STEPS
warp instructions that check also reads the stop flag (vm/stop.py): a stop is a
bail whose instruction the engine does not run.
"""
from __future__ import annotations

from minicuda import semantics
from minicuda.ir import Special
from minicuda.isa import HAND_OFF, OPS
from minicuda.vm.code import PRED_BASE
from minicuda.vm.interp import DIVISIONS
from minicuda.vm.jit import layout as L
from minicuda.vm.jit import ops
from minicuda.vm.jit.control import ControlLowering
from minicuda.vm.jit.host_callees import HostCallLowering
from minicuda.vm.jit.its_scheduler import ITSScheduling
from minicuda.vm.jit.lanes import Unsupported
from minicuda.vm.jit.live_rows import live_rows
from minicuda.vm.jit.memory import MemoryLowering
from minicuda.vm.jit.rounds import RoundsLowering
from minicuda.vm.jit.stack_scheduler import StackScheduling
from minicuda.vm.jit.warp_ops import WarpOpsLowering
from minicuda.vm.profile import NATIVE_COLUMNS, NATIVE_DIVERGENT, NATIVE_PRED_ON
from minicuda.vm.state import BSET, CHECK, CURRENT, DEPTH, ID_NAMES, MAXD, NBAR, RNG, SAMPLED, STALL, WARP

ENDS_STRAIGHT_RUN = ("exit", "barrier", "bsync", "break_barrier", "warpsync", "yield", "branch")   # lowerings: events
DEAD_ROWS = "  ; dead rows at "   # a bail's marker line in host code: see dead_rows
POLL_STEPS = 1 << 16   # warp instructions between two reads of the stop flag
# what synccheck and racecheck look at as it runs (vm/synccheck.py, vm/racecheck.py: a
# thread's local memory and the constants are no one else's)
SYNCCHECKED = frozenset({"WARPSYNC", "SHFL", "VOTE", "MATCH"})
RACECHECKED = SYNCCHECKED | {"LDG", "STG", "LDS", "STS", "ATOM", "ATOMS", "MEMBAR"}


class FunctionCodegen(ControlLowering, MemoryLowering, WarpOpsLowering, StackScheduling, ITSScheduling,
                      HostCallLowering, RoundsLowering):
    """LLVM IR for one function (`@warp` in the module) under one scheduling model."""

    # ---- the function ------------------------------------------------------------------------
    LOCALS = ("steps", "inst", "thr", "pon", "br", "div", "maxd", "maxp", "bars", "stall", "exb", "abb",
              "live", "grp", "oth", "nstop", "cur", "rng", "bset", "mask", "depth", "bailpc", "top", "rpc", "steps0",
              "check", "sampled", "poll", "wr")

    def warp_function(self) -> str:
        """`i32 @warp(ptr %ctx, i64 %wi, i1 %fresh)`: run warp wi until done (0), a barrier (1) or
        a bail (2); `fresh`: its state is the launch's template (a kernel's block loop says so
        of a block's first round), so ITS's scheduler's choice is known (`its_fresh_start`)."""
        code = self.code
        self.checked = (RACECHECKED if self.racecheck else frozenset()) | (SYNCCHECKED if self.synccheck else frozenset())
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
        self.line(f"%firstcheck = load i64, ptr {self.op('getelementptr i64, ptr %ctx, i64 ' + str(L.FIRST_CHECK))}")
        if self.profiled:
            self.line(f"%prof = load ptr, ptr {self.op('getelementptr i64, ptr %ctx, i64 ' + str(L.PROFILE))}")
        if self.counted:
            for name, index in (("memlog", L.MEMLOG), ("execs", L.EXECS)):
                self.line(f"%{name} = load ptr, ptr {self.op(f'getelementptr i64, ptr %ctx, i64 {index}')}")
        if self.rounds:
            self.rounds_entry()
        steps = self.op(f"load i64, ptr {self.op(f'getelementptr i64, ptr %counters, i64 {L.STEPS}')}")
        self.store_local("steps", steps)
        self.store_local("steps0", steps)
        self.renew_poll(steps)
        for name in ("inst", "thr", "pon", "br", "div", "maxd", "maxp", "bars", "wr"):
            self.store_local(name, 0)
        for name, index in (("stall", STALL), ("cur", CURRENT), ("rng", RNG), ("bset", BSET), ("depth", DEPTH),
                            ("check", CHECK), ("sampled", SAMPLED)):
            self.store_local(name, self.op(f"load i64, ptr {self.word_ptr(index)}"))
        for name, which in (("live", 0), ("exb", 1), ("abb", 2)):
            self.store_local(name, self.op(f"zext i32 {self.load_flag_bits(which)} to i64"))
        self.store_local("bailpc", 0)
        rows_at = len(self.e.lines)
        if self.sched == "its" and self.kernel:
            self.cbr("%fresh", "sched.fresh", "sched")
            self.its_fresh_start()
        else:
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
        self.segment = self.straight_runs()
        for pc in range(code.end):
            self.instruction(pc)
        self.common_blocks()
        self.exits()
        if self.W == 1 and self.sched == "stack":   # (a warp's waiting paths may read any row)
            self.e.lines = self.dead_rows(self.e.lines)
        self.e.lines[rows_at:rows_at] = self.site_locals() + self.load_rows() + self.callee_locals()
        cases = " ".join(f"i64 {k}, label %I{k}" for k in self.entries)
        body = "\n".join(self.e.lines).replace("@CASES@", cases)
        return f"define internal i32 @warp(ptr %ctx, i64 %wi, i1 %fresh) {{\n{body}\n}}\n"

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
        # what the interpreter does itself: budget and deadlock reports and a stop asked from
        # outside (checked once for the straight run of code an entry point starts), a
        # divergent barrier
        steps = self.load_local("steps")
        over = "false"
        if pc in self.entry_set:
            run = self.segment[pc]
            # the budget's check stops short of it every POLL_STEPS (`poll`) to read the stop flag
            poll = self.op(f"icmp ugt i64 {self.op(f'add i64 {steps}, {run}')}, {self.load_local('poll')}")
            if self.track_stall and pc in self.code.labels:
                # past CHECK at a label, the engine keeps the state, once a stall (vm/cycles.py)
                stall = self.load_local("stall")
                past = self.op(f"icmp sgt i64 {stall}, {self.load_local('check')}")
                fresh = self.op(f"icmp ne i64 {stall}, {self.load_local('sampled')}")
                over = self.op(f"or i1 {over}, {self.op(f'and i1 {past}, {fresh}')}")
        if stack and ins.op == "BRA" and W != 1:   # (one lane never diverges: nothing is pushed)
            depth = self.load_local("depth")
            over = self.op(f"or i1 {over}, {self.op(f'icmp sgt i64 {depth}, {MAXD - 2}')}")
        if stack and ins.op == "BAR":
            live, ex, m = self.load_local("live"), self.load_local("exb"), self.load_local("mask")
            want = self.op(f"and i64 {live}, {self.op(f'xor i64 {ex}, -1')}")
            depth = self.load_local("depth")
            diverged = self.op(f"icmp sgt i64 {depth}, 1")
            bad = self.op(f"or i1 {self.op(f'icmp ne i64 {m}, {want}')}, {diverged}")
            over = self.op(f"or i1 {over}, {bad}")
        handed = self.hand_off_unless(ins)   # to the interpreter, before anything is counted
        if handed != "false":
            over = self.op(f"or i1 {over}, {handed}")
        go = f"I{pc}.go"
        if pc in self.entry_set:
            self.poll_stop(pc, steps, over, poll, bail, go)
        elif over != "false":
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
        if self.code.fn.kind != "host":   # the metrics of host code are not reported
            self.add_local("thr", self.popc(group))
            self.add_local("pon", self.popc(on_bits))
            if self.profiled:
                self.profile_instruction(pc, ins, group, on_bits)
            if self.counted:
                self.count_at(pc, 1, "%execs")
            if self.rounds:
                self.step_rounds(pc, on_bits)
        self.pc = pc
        body(ins, on, on_bits, group, bail, pc)
        self.bail_block(pc)

    def profile_instruction(self, pc: int, ins, group: str, on_bits: str) -> None:
        """A profiled function's counters of code[pc] (vm/profile.py's native table, a row of
        NATIVE_COLUMNS per instruction): its histogram's bucket for the group's lanes, the
        threads whose guard held (a guarded instruction) and whether a branch diverged."""
        row = pc * NATIVE_COLUMNS
        self.count_at(self.op(f"add i64 {self.popc(group)}, {row}"), 1)
        if ins.guard is not None:
            self.count_at(row + NATIVE_PRED_ON, self.popc(on_bits))
        if ins.op == "BRA":
            rest = self.op(f"and i32 {group}, {self.op(f'xor i32 {on_bits}, -1')}")
            both = self.op(f"and i1 {self.op(f'icmp ne i32 {on_bits}, 0')}, {self.op(f'icmp ne i32 {rest}, 0')}")
            self.count_at(row + NATIVE_DIVERGENT, self.op(f"zext i1 {both} to i64"))

    def count_at(self, index, value, table: str = "%prof") -> None:
        """The profile table's (or `table`'s) word `index` += value."""
        p = self.op(f"getelementptr i64, ptr {table}, i64 {index}")
        old = self.op(f"load i64, ptr {p}")
        self.line(f"store i64 {self.op(f'add i64 {old}, {value}')}, ptr {p}")

    def renew_poll(self, steps: str, budget: str = "%maxsteps") -> None:
        """The next check of the stop flag: POLL_STEPS on, or the budget if it comes first."""
        nxt = self.op(f"add i64 {steps}, {POLL_STEPS}")
        self.store_local("poll", self.op(f"select i1 {self.op(f'icmp ult i64 {nxt}, {budget}')}, i64 {nxt}, "
                                         f"i64 {budget}"))

    def poll_stop(self, pc: int, steps: str, over: str, poll: str, bail: str, go: str) -> None:
        """At an entry point: bail on `over` (a no-progress counter); past `poll`, bail when the
        budget would run out in this straight run or a stop was asked from outside, else
        set the next poll and go on.  The fast path costs what the budget's check alone did."""
        slow = f"I{pc}.poll"
        self.cbr(self.op(f"or i1 {over}, {poll}"), slow, go)
        self.label(slow)
        run = self.segment[pc]
        maxsteps = self.ctx_field(L.MAX_STEPS)   # read again here: nothing keeps it in a register
        budget = self.op(f"icmp ugt i64 {self.op(f'add i64 {steps}, {run}')}, {maxsteps}")
        flag = self.op(f"load ptr, ptr {self.op(f'getelementptr i64, ptr %ctx, i64 {L.STOP}')}")
        stop = self.op(f"icmp ne i64 {self.op(f'load volatile i64, ptr {flag}')}, 0")
        renew = f"I{pc}.renew"
        self.cbr(self.op(f"or i1 {self.op(f'or i1 {over}, {budget}')}, {stop}"), bail, renew)
        self.label(renew)
        self.renew_poll(steps, maxsteps)
        self.br(go)
        self.label(go)

    def bail_block(self, pc: int) -> None:
        self.label(f"B{pc}")
        if self.W == 1:   # (the rows dead at pc, written in at the end: live_rows.py)
            self.e.lines.append(f"{DEAD_ROWS}{pc}")
        self.store_local("bailpc", pc)
        self.br("bail.common")

    def dead_rows(self, lines: list[str]) -> list[str]:
        """Host code: each bail's marker replaced by a poison store to every row not live at
        its pc (vm/jit/live_rows.py), so the write-back stores nothing there and LLVM need
        not keep those values alive on the way; the end keeps only the return registers."""
        live = live_rows(self.code)
        rows = [(row, "i32", f"%row{row}.a") for row in sorted(self.rows_used)] + \
            [(PRED_BASE + row, "i8", f"%prow{row}.a") for row in sorted(self.preds_used)]

        def stores(at: frozenset[int]) -> list[str]:
            return [f"  store <{self.W} x {ty}> poison, ptr {a}" for slot, ty, a in rows if slot not in at]
        out = []
        for text in lines:
            if text.startswith(DEAD_ROWS):
                out += stores(live[int(text[len(DEAD_ROWS):])])
            else:
                out.append(text)
                if text == "finish:":
                    out += stores(live[self.code.end])
        return out

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
        host = self.W == 1
        # the host thread's branches are plain branches: a straight run goes on through them
        # and through labels, and stops only at a loop's head (a backward branch's target), so
        # a loop iteration makes one budget check
        entries = {code.label_pc[i.target] for pc, i in enumerate(code.instrs)
                   if i.op == "BRA" and code.label_pc[i.target] <= pc} if host else set(code.label_pc.values())
        entries.add(0)
        for pc, ins in enumerate(code.instrs):
            # a call (which may go to the interpreter: a printf while the FIFO has room) ends one too
            ends = OPS[ins.op].jit in ENDS_STRAIGHT_RUN and not (host and ins.op == "BRA")
            if ends or pc in self.always_bail or ins.op == "CALL":
                entries.add(pc + 1)
        return sorted(e for e in entries if e < code.end)

    def straight_runs(self) -> dict[int, int]:
        """Per entry, the most instructions a straight run from it executes before it reaches
        an entry (where the budget is checked again) or leaves: the next entry's distance,
        unless a branch jumps forward past it (the host thread's: see entry_points); then the
        longest forward path, counted back from the end."""
        code, entries = self.code, self.entry_set
        longest = [0] * (code.end + 1)
        for pc in range(code.end - 1, -1, -1):
            ins = code.instrs[pc]
            nxt = [code.label_pc[ins.target]] if ins.op == "BRA" else []
            if ins.op != "BRA" or ins.guard is not None:
                nxt.append(pc + 1)
            longest[pc] = 1 + max((longest[s] for s in nxt if s > pc and s not in entries), default=0)
        return {e: longest[e] for e in self.entries}

    def effect_plan(self, ins):
        """The emitter for this instruction, from the lowering its ISA row names
        (`lower_<jit>`), or None to hand it to the interpreter."""
        name = OPS[ins.op].jit
        if name == HAND_OFF or ins.op in self.checked:   # (the tools': the interpreter's hooks see them)
            return None
        return getattr(self, "lower_" + name)(ins)

    def effect(self, emit):
        """An instruction with an effect and no control flow: run it for the active lanes."""
        def body(ins, on, on_bits, group, bail, pc):
            changed = emit(ins, on, on_bits, bail)
            self.after(pc, changed)
        return body

    def after(self, pc: int, changed: str = "false") -> None:
        """Straight on to pc + 1: within a block directly; at a label the stack model
        goes through its dispatch (an entry may pop there), ITS rejoins its scheduler
        when another path waits at pc + 1 or schedules are seeded."""
        self.stall_update(changed)
        if self.sched == "stack":
            self.stack_after(pc)
        else:
            self.its_after(pc)

    # ---- the lowerings the ISA rows name for values: pure instructions, special registers ----------
    def lower_special(self, ins):
        if not isinstance(ins.srcs[0], Special):
            return None
        self_special = ins.srcs[0].name
        base = self_special.rpartition(".")[0]
        if self_special not in ("SR_LANEID", "SR_WARPSIZE") and base not in ID_NAMES:
            return None
        return self.effect(lambda i, on, ob, bail: self.write(i.dsts[0], self.special(self_special), on, 32) or "false")

    def lower_pure(self, ins):
        if ops.supported(ins):
            return self.effect(self.emit_pure)
        return None

    def emit_pure(self, ins, on: str, on_bits: str, bail: str) -> str:
        widths = semantics.source_widths(ins)
        srcs = [self.read(s, w) for s, w in zip(ins.srcs, widths)]
        if ins.op in DIVISIONS:
            self.division_check(ins, srcs, on, bail)
        value = ops.emit_pure(self.e, ins, srcs)
        self.write(ins.dsts[0], value, on, semantics.result_width(ins))
        return "false"

    def division_check(self, ins, srcs: list[str], on: str, bail: str) -> None:
        """Hand a division to the interpreter where it has more to do than divide
        (Interpreter.check_division): in host code a zero divisor or INT_MIN / -1
        (SIGFPE), in device code a zero divisor under --tool memcheck."""
        W = self.W
        bits, signed = semantics.int_type(ins)
        t = f"<{W} x i{bits}>"
        bad = self.op(f"icmp eq {t} {srcs[1]}, zeroinitializer")
        host = self.code.fn.kind == "host"
        if host and signed:
            is_min = self.op(f"icmp eq {t} {srcs[0]}, {self.e.splat(bits, 1 << (bits - 1))}")
            minus_one = self.op(f"icmp eq {t} {srcs[1]}, {self.e.splat(bits, -1)}")
            bad = self.op(f"or <{W} x i1> {bad}, {self.op(f'and <{W} x i1> {is_min}, {minus_one}')}")
        hit = self.op(f"icmp ne i32 {self.bits(self.op(f'and <{W} x i1> {bad}, {on}'))}, 0")
        if not host:
            tools = self.ctx_field(L.TOOLS)
            hit = self.op(f"and i1 {hit}, {self.op(f'icmp ne i64 {tools}, 0')}")
        fine = self.lbl("divides")
        self.cbr(hit, bail, fine)
        self.label(fine)

    # ---- leaving -------------------------------------------------------------------------------
    def exits(self) -> None:
        for name, status in (("finish", L.DONE), ("at_bar", L.AT_BAR), ("bail", L.BAIL)):
            self.label(name)
            # a kernel's warp that is done is never read again: the next block starts over it
            self.save_state(rows=not (name == "finish" and self.kernel))
            self.line(f"ret i32 {status}")

    def save_state(self, rows: bool = True) -> None:
        if rows:
            self.store_rows()
        self.store_local("inst", self.op(f"sub i64 {self.load_local('steps')}, {self.load_local('steps0')}"))
        for name, index in ((L.INST, "inst"), (L.THREAD, "thr"), (L.PRED_ON, "pon"), (L.BRANCH, "br"),
                            (L.DIVERGENT, "div"), (L.BARRIERS, "bars"), (L.WRITES, "wr")):
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
                            ("check", CHECK), ("sampled", SAMPLED)):
            self.line(f"store i64 {self.load_local(name)}, ptr {self.word_ptr(index)}")
        self.store_flag_bits(1, self.i32("exb"))
        self.store_flag_bits(2, self.i32("abb"))
        p = self.op(f"getelementptr i64, ptr %ctx, i64 {L.BAIL_PC}")
        self.line(f"store i64 {self.load_local('bailpc')}, ptr {p}")

"""The JIT's independent thread scheduling (sm_70 and later): paths chosen as the interpreter does.

Each thread has its own pc (`%pcs`) and convergence wait (`%wait`).  The scheduler
block (`sched`) picks a path exactly as `Interpreter.step_its` does: round-robin
over the distinct pcs of the runnable threads, or the seeded xorshift64* choice;
with nothing runnable it reports a barrier, releases every convergence barrier, or
finishes.  The chosen group (`grp`) then runs straight on, with its pcs left
behind, until an event (branch, exit, barrier, BSYNC, WARPSYNC, YIELD) or until it
reaches `nstop`, the lowest pc of another path, where the two merge.  BSSY records
a convergence barrier's members; BSYNC and WARPSYNC wait at it, and
`release_bsync` opens it once every member has arrived or exited.

Invariants: the group's pcs are written (`its_materialize`) before anything that
leaves straight-line code, and `cur` holds the pc the round-robin continues from,
so the state the interpreter reads is the one it would have.
"""
from __future__ import annotations

from minicuda.vm.jit.lanes import LaneCode
from minicuda.vm.state import WARPSYNC_BARRIER

INT64_MAX = (1 << 63) - 1


class ITSScheduling(LaneCode):
    """The ITS scheduler, convergence barriers, and ITS's halves of the control lowerings,
    for FunctionCodegen."""

    # ---- the lowerings the ISA rows name: convergence (no-ops under the stack model) ----------
    def lower_yield(self, ins):
        return self.do_yield

    def lower_bssy(self, ins):
        return self.do_bssy

    def lower_bsync(self, ins):
        return self.do_bsync

    def lower_break_barrier(self, ins):
        return self.do_break_barrier

    def lower_warpsync(self, ins):
        return self.do_warpsync

    # ---- the scheduler -------------------------------------------------------------------------
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

    def its_fresh_start(self) -> None:
        """A kernel's warp as its block starts (`%fresh`: its state is the template's): every
        thread at pc 0, none waiting or at a barrier, the exited ones those past the block's
        end, CURRENT 0.  The scheduler would find one path, the threads not exited at pc 0,
        and choose it: so it is chosen here without reading the pcs and waits (their first
        loads after the block's start were a fifth of a small warp's time)."""
        self.label("sched.fresh")
        r = self.op(f"xor i32 {self.i32('exb')}, -1")
        if self.W < 32:
            r = self.op(f"and i32 {r}, {(1 << self.W) - 1}")
        self.cbr(self.op(f"icmp eq i32 {r}, 0"), "sched", "sched.freshgo")
        self.label("sched.freshgo")
        maxp = self.load_local("maxp")
        self.store_local("maxp", self.op(f"select i1 {self.op(f'icmp sgt i64 1, {maxp}')}, i64 1, i64 {maxp}"))
        self.store_local("cur", 0)
        self.set32("grp", r)
        self.set32("oth", "0")
        self.store_local("nstop", INT64_MAX)
        self.br("I0")

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

    # ---- convergence barriers and yields --------------------------------------------------------
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

    def do_break_barrier(self, ins, on, on_bits, group, bail, pc):
        """The threads leave barrier n (the interpreter's "break" event); waiters it completes go
        on; the scheduler picks the next path as after any non-branch event (cur stays pc)."""
        if self.sched == "stack":
            self.after(pc)
            return
        n = int(ins.srcs[0].name[1:])
        self.its_materialize(pc + 1)
        bm = self.op(f"load i64, ptr {self.gep('%bmask', n * 8)}")
        keep = self.op(f"xor i64 {self.op(f'zext i32 {on_bits} to i64')}, -1")
        self.line(f"store i64 {self.op(f'and i64 {bm}, {keep}')}, ptr {self.gep('%bmask', n * 8)}")
        self.release_bsync()
        self.stall_update("false")
        self.store_local("cur", pc)
        self.br("sched")

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

    # ---- ITS's part of straight runs and control instructions ------------------------------------
    def its_after(self, pc: int) -> None:
        """Straight on to pc + 1, unless another path waits there or schedules are seeded:
        then the two merge through the scheduler (merge.common)."""
        nxt = pc + 1
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

    def its_exit(self, pc: int) -> None:
        """The group's threads exit; when they were the warp's last (none left, none at a
        barrier), the scheduler would find nothing runnable and nothing waiting, and
        finish: the warp finishes here, without reading its pcs and waits back (the
        scheduler's pass after a small kernel's EXIT was a sixth of its warp's time)."""
        self.its_materialize(pc + 1)
        self.release_bsync()
        self.stall_update("false")
        self.store_local("cur", pc)
        full = (1 << self.W) - 1 if self.W < 32 else -1
        ex, ab = self.i32("exb"), self.i32("abb")
        gone = self.op(f"icmp eq i32 {self.op(f'and i32 {ex}, {full}')}, {full}")
        idle = self.op(f"and i1 {gone}, {self.op(f'icmp eq i32 {ab}, 0')}")
        self.cbr(idle, "finish", "sched")

    def its_bar(self, pc: int, on_bits: str) -> None:
        """The group's active threads wait at the barrier; the scheduler runs the others."""
        ab = self.load_local("abb")
        self.store_local("abb", self.op(f"or i64 {ab}, {self.op(f'zext i32 {on_bits} to i64')}"))
        self.its_materialize(pc + 1)
        self.stall_update("false")
        self.store_local("cur", pc)
        self.br("sched")

    def its_branch(self, pc: int, target: int, on: str, on_bits: str, rest: str, both: str) -> None:
        """The taken threads' pcs go to the target; the scheduler picks the next path."""
        W, code = self.W, self.code
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


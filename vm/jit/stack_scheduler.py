"""The JIT's stack scheduling model (before sm_70): the reconvergence stack in native code.

The stack lives in the block state (`%stack`, 24 bytes an entry: pc, mask, rpc;
`depth` counts entries).  The dispatch block (`sched`) pops entries that reached
their rpc, whose threads all exited or that ran off the end, and jumps to the top
entry's pc; straight-line code then runs with the entry's mask.  A divergent
branch sets the top entry's pc to the join (the branch block's rpc, from the
printed SSY/BSSY markers) and pushes the fall-through and the taken path; a
uniform branch jumps directly, unless its target is the entry's rpc.

Invariants: the top entry's pc is written back (`set_top_pc`) before any jump to
the dispatch or any exit, so the state the interpreter reads is the one it would
have; the depth never exceeds MAXD (the driver bails before a push that would).
"""
from __future__ import annotations

from minicuda.vm.jit.lanes import LaneCode


class StackScheduling(LaneCode):
    """The stack model's dispatch and its halves of the control lowerings, for FunctionCodegen."""


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

    def goto_label(self, pc: int) -> None:
        """Stack model: on to the label at pc with the same top entry, unless the entry
        ends there (pc is its rpc): then through the dispatch, which pops it.  The host
        thread (one lane) never diverges: its one entry's rpc is the end (start_warp), so
        it goes straight on."""
        if self.W == 1:
            self.br(f"I{pc}")
            return
        here = self.op(f"icmp eq i64 {self.load_local('rpc')}, {pc}")
        pop, go = self.lbl("pop"), self.lbl("on")
        self.cbr(here, pop, go)
        self.label(pop)
        self.set_top_pc(pc)
        self.br("sched")
        self.label(go)
        self.br(f"I{pc}")

    # ---- the stack model's part of straight runs and control instructions ----------------------
    def stack_after(self, pc: int) -> None:
        """Straight on to pc + 1: within a block directly; at a label through goto_label
        (the entry may end there); past the end, through the dispatch."""
        nxt = pc + 1
        if nxt >= self.code.end:
            self.set_top_pc(nxt)
            self.br("sched")
        elif nxt in self.block_starts:
            self.goto_label(nxt)
        else:
            self.br(f"I{nxt}")

    def stack_exit(self, pc: int, on_bits: str) -> None:
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

    def stack_bar(self, pc: int, on_bits: str) -> None:
        """The warp waits at the barrier (the driver bailed if it was divergent); its threads
        that arrived are marked, as the interpreter marks them (synccheck and a BAR.RED's
        results read them as the barrier opens)."""
        ab = self.load_local("abb")
        self.store_local("abb", self.op(f"or i64 {ab}, {self.op(f'zext i32 {on_bits} to i64')}"))
        self.set_top_pc(pc + 1)
        self.br("at_bar")

    def stack_uniform_branch(self, pc: int, target: int, on_bits: str) -> None:
        """The host thread's branch (one lane): to the target or on, as a plain branch."""
        self.stall_update("false")
        taken, on = self.lbl("taken"), self.lbl("nottaken")
        self.cbr(self.op(f"icmp ne i32 {on_bits}, 0"), taken, on)
        self.label(taken)
        self.goto_label(target)
        self.label(on)
        if pc + 1 < self.code.end:
            self.goto_label(pc + 1)
        else:
            self.set_top_pc(pc + 1)
            self.br("sched")

    def stack_branch(self, pc: int, target: int, on_bits: str, rest: str, both: str) -> None:
        """Divergent: the entry goes on at the join, the fall-through and the taken path
        are pushed (taken on top); uniform: straight to the one side."""
        code = self.code
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


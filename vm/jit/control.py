"""The JIT's control instructions: branch, exit, barrier, trap, and the no-ops.

Each lowering does the part both scheduling models share (counters, the exited
lanes, the branch's taken and not-taken masks) and hands the rest to the model's
half (`stack_<x>` in stack_scheduler.py, `its_<x>` in its_scheduler.py).

Invariants: branch, exit and barrier end a straight run (ENDS_STRAIGHT_RUN in
function.py), so the pc after one is an entry point; trap and the no-ops go
straight on.  Every path out of a lowering ends in a branch (to the next
instruction, the scheduler, the barrier exit or the bail block).
"""
from __future__ import annotations

from minicuda.vm.jit.lanes import LaneCode


class ControlLowering(LaneCode):
    """Lowerings of BRA, EXIT/RET, BAR, TRAP and the no-ops, for FunctionCodegen."""

    # ---- the lowerings the ISA rows name ------------------------------------------------------
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

    # ---- their emitters ---------------------------------------------------------------------------
    def do_nothing(self, ins, on, on_bits, group, bail, pc):
        self.after(pc)

    def do_exit(self, ins, on, on_bits, group, bail, pc):
        if ins.op == "RET" and self.W != 1:   # ncu counts RET as a branch (EXIT it does not)
            self.add_local("br", 1)
        ex = self.load_local("exb")
        self.store_local("exb", self.op(f"or i64 {ex}, {self.op(f'zext i32 {on_bits} to i64')}"))
        if self.sched == "stack":
            self.stack_exit(pc, on_bits)
        else:
            self.its_exit(pc)

    def do_trap(self, ins, on, on_bits, group, bail, pc):
        """A thread that traps goes to the interpreter, which reports the failed launch."""
        go = self.lbl("notrap")
        self.cbr(self.op(f"icmp eq i32 {on_bits}, 0"), go, bail)
        self.label(go)
        self.after(pc)

    def do_bar(self, ins, on, on_bits, group, bail, pc):
        self.add_local("bars", 1)
        if self.sched == "stack":
            self.stack_bar(pc, on_bits)
        else:
            self.its_bar(pc, on_bits)

    def do_branch(self, ins, on, on_bits, group, bail, pc):
        """Counts the branch (and whether it diverges); `rest` are the group's threads
        that do not take it."""
        target = self.code.label_pc[ins.target]
        if self.W == 1:   # the host thread: one lane never diverges, and host code's metrics are not kept
            self.stack_uniform_branch(pc, target, on_bits)
            return
        self.add_local("br", 1)
        rest = self.op(f"and i32 {group}, {self.op(f'xor i32 {on_bits}, -1')}")
        both = self.op(f"and i1 {self.op(f'icmp ne i32 {on_bits}, 0')}, {self.op(f'icmp ne i32 {rest}, 0')}")
        d = self.load_local("div")
        self.store_local("div", self.op(f"add i64 {d}, {self.op(f'zext i1 {both} to i64')}"))
        if self.sched == "stack":
            self.stack_branch(pc, target, on_bits, rest, both)
        else:
            self.its_branch(pc, target, on, on_bits, rest, both)

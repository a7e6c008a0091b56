"""Reconvergence markers at every branch that may still diverge.

Stack architectures (sm_2x..sm_6x): `SSY .Lj` before the branch names the
reconvergence point, the branch's immediate post-dominator, where a `SYNC` opens
the join block.  Volta and newer: `BSSY Bn, .Lj` before the branch records the
threads that must meet at `BSYNC Bn`, the first instruction of the join block.
On stack architectures a branch that heads a loop gets its SSY in the loop's
preheader, so it is set once per loop and not once per iteration.  On Volta and
newer a divergent loop exit gets no convergence barrier: a thread that leaves
the loop early must not wait for threads still spinning in it, which is what lets
an intra-warp lock complete under independent thread scheduling (threads at the
same pc run together again anyway).  At -O0 (`g_shape`), as nvcc -G, a branch inside a
loop whose paths meet again inside it (an if in the loop's body) gets its BSSY/BSYNC;
only the loop's exits go without; where they meet at a for loop's increment block that a
`continue` jumps to, the BSYNC has a block of its own before it.  A branch whose paths only meet at the exit
needs no marker: threads wait for exit there.  The markers follow the scheduling
model the program is compiled for (`Options.stack_arch`: the arch's, or the one
`--sched` forces), and the VM reads the joins back from them (minicuda/ir.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import Block, Function, Instr, Label, Reg
from minicuda.passes.cfg import EXIT, conditional_branch, strongly_connected


@dataclass(frozen=True)
class Reconverge:
    stack_arch: bool = False
    g_shape: bool = False     # -O0: nvcc -G's markers also for a branch that joins inside its loop
    name: str = "reconverge"

    def run(self, fn: Function, analyses) -> bool:
        branches = [(b, branch) for b in fn.blocks if (branch := conditional_branch(b)) is not None]
        if not branches:
            return False
        cfg, ipdom, divergence = analyses.get("cfg"), analyses.get("ipdom"), analyses.get("divergence")
        cycles = _cycles(cfg)
        plans = []
        for b, branch in branches:
            if divergence.branch_is_uniform(b.label):
                continue
            join = ipdom.get(b.label)
            if join is None or join == EXIT or (self.g_shape and _only_exit(fn.block(join))):
                continue
            if not self.stack_arch and _in_loop(cfg, cycles, b.label) and not (self.g_shape and join in cycles[b.label]):
                continue
            plans.append((b.label, branch, join, self.marker_block(cfg, cycles, b.label)))
        split: dict[str, str] = {}   # a latch -> the join block made before it
        retargeted: dict[int, Instr] = {}   # a planned branch -> the one retargeted in its place
        for n, (label, branch, join, where) in enumerate(plans):
            barrier = Reg(f"B{n % 16}")
            if join in split:
                join = split[join]
            elif self.g_shape and join in fn.continue_targets and _latch(fn, cycles, join):
                join = split[join] = _join_block_before(fn, cfg, label, join, retargeted)
            while id(branch) in retargeted:
                branch = retargeted[id(branch)]
            if self.stack_arch:
                open_, close = Instr("SSY", srcs=(Label(join),), loc=branch.loc), Instr("SYNC", loc=branch.loc)
            else:
                open_ = Instr("BSSY", srcs=(barrier, Label(join)), loc=branch.loc)
                close = Instr("BSYNC", srcs=(barrier,), loc=branch.loc)
            block = fn.block(where)
            at = block.instrs.index(branch) if where == label else _before_jump(block)
            block.instrs.insert(at, open_)
            fn.block(join).instrs.insert(0, close)
        return bool(plans)

    @staticmethod
    def marker_block(cfg, cycles, label: str) -> str:
        """Where the opening marker goes: the preheader for a loop's branch, else the branch's block."""
        if _loop_header(cfg, cycles, label):
            pre = _preheader(cfg, cycles, label)
            if pre is not None:
                return pre
        return label


def _latch(fn: Function, cycles, label: str) -> bool:
    """The block ends its loop's iteration: its last instruction jumps back (an unguarded BRA
    to a block of its cycle laid out before it), as a `for`'s increment block does."""
    block = fn.block(label)
    last = block.instrs[-1] if block.instrs else None
    if last is None or last.op != "BRA" or last.guard is not None:
        return False
    target = last.srcs[0].name
    order = {b.label: k for k, b in enumerate(fn.blocks)}
    return target in cycles[label] and order.get(target, len(order)) <= order[label]


def _join_block_before(fn: Function, cfg, branch: str, latch: str, retargeted: dict) -> str:
    """nvcc -G's join of an if whose paths meet at the for loop's increment block that a
    `continue` jumps to (`if (c) continue;`): the BSYNC in a block of its own, ending in a BRA
    to the increment block (loop_continue's SASS: `08a0 BSYNC B0` ... `08d0 BRA 0x8e0`; an
    if-else whose join is a while loop's last block keeps its BSYNC there, while_data_dependent's
    `0cd0 BSYNC B1` ... `0d60 BRA 0x400`).  The branch's paths to
    the latch go there; a `continue` from outside the if still goes to the latch."""
    reached, todo = {branch}, [branch]
    while todo:
        for s in cfg.succs(todo.pop()):
            if s != latch and s not in reached and s in {b.label for b in fn.blocks}:
                reached.add(s)
                todo.append(s)
    label = _fresh_label(fn)
    loc = fn.block(latch).instrs[0].loc if fn.block(latch).instrs else None
    old = Label(latch)
    for b in fn.blocks:
        if b.label in reached:
            for k, i in enumerate(b.instrs):
                if i.op == "BRA" and old in i.srcs:
                    b.instrs[k] = replace(i, srcs=tuple(Label(label) if o == old else o for o in i.srcs))
                    retargeted[id(i)] = b.instrs[k]
    fn.blocks.insert(fn.blocks.index(fn.block(latch)), Block(label, [Instr("BRA", srcs=(old,), loc=loc)]))
    return label


def _fresh_label(fn: Function) -> str:
    labels = {b.label for b in fn.blocks}
    n = 0
    while f".LJ{n}" in labels:
        n += 1
    return f".LJ{n}"


def _only_exit(block) -> bool:
    """The block is a bare EXIT (-O0's one exit block, passes/g_shape.py): as good as the exit."""
    return [(i.op, i.guard) for i in block.instrs] == [("EXIT", None)]


def _before_jump(block) -> int:
    n = len(block.instrs)
    while n and block.instrs[n - 1].op == "BRA":
        n -= 1
    return n


def _cycles(cfg) -> dict[str, set[str]]:
    """Each block's strongly connected component: the blocks it reaches and is reached from."""
    return strongly_connected(cfg)


def _loop_header(cfg, cycles, label: str) -> bool:
    """A predecessor is reachable from the block: it closes a cycle through it."""
    return any(p in cycles[label] for p in cfg.preds(label))


def _in_loop(cfg, cycles, label: str) -> bool:
    """The block lies on a cycle: its branch may be a loop's exit or back edge."""
    return any(s in cycles[label] for s in cfg.succs(label))


def _preheader(cfg, cycles, label: str) -> str | None:
    outside = [p for p in cfg.preds(label) if p not in cycles[label]]
    return outside[0] if len(outside) == 1 and len(cfg.succs(outside[0])) == 1 else None

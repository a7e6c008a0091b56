"""hoist-sink: hoisting and sinking of instructions common to both arms of an if-else.

As LLVM's SimplifyCFG does: when both arms of a hammock begin with the same
computation (the same loads of A[t] and B[t]), one copy moves above the branch; when
both end with a store to the same address, one store moves below the join, its
value merged.  The arms that remain are what if-conversion counts.

Only registers private to an arm (written there and read nowhere outside it) are
renamed, so values that live across the join are never disturbed.

Hoisting also takes a branch whose two successors are not a hammock's arms (each has
the branch's block as its only predecessor, but they lead on into larger regions), as
LLVM's HoistThenElseCodeToIf looks only at the two successors: bitonic_step's `if ((i &
k) == 0)` opens both sides with the loads of a[i] and a[ixj], which ptxas's SASS loads
once above the branch.  There a register one side computes may be read further into its
region, so the other side's copy is renamed in every block it dominates, when each of the
two is written once in the function and read only where its side dominates.

The pass moves no branch or other terminator, so the CFG it starts from (and its dominator
tree) holds to the end: both are built once per run, the dominator tree only when a
branch's two sides first share a computation, and "dominated by" is a test of two
numbers (a walk of the tree), so a chain of n branches (a switch) costs O(n), not n
CFGs and n dominator trees.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import Function, Instr, Mem, Reg
from minicuda.passes.cfg import EXIT, conditional_branch, immediate_dominators
from minicuda.passes.hammock import Hammock, body, find_hammock

_MOVABLE_KINDS = ("alu", "conv", "mem")


def _readers_outside(fn: Function, reg: Reg, inside: str) -> bool:
    for b in fn.blocks:
        if b.label == inside:
            continue
        for ins in b.instrs:
            if reg in ins.uses() or reg in ins.dsts:
                return True
    return reg in fn.rets


def _rename(instrs: list[Instr], old: Reg, new: Reg) -> None:
    def sub(o):
        if o == old:
            return new
        if isinstance(o, Mem) and o.base == old:
            return replace(o, base=new)
        return o
    for i, ins in enumerate(instrs):
        instrs[i] = replace(ins, dsts=tuple(sub(d) for d in ins.dsts), srcs=tuple(sub(s) for s in ins.srcs),
                            guard=sub(ins.guard) if ins.guard is not None else None)


def _independent(arm: list[Instr], i: int, branch) -> bool:
    """arm[i] could run before the arm: it reads nothing the arm computed before it,
    does not clash with earlier reads or writes, and (a load) passes no store."""
    x = arm[i]
    if x.info.kind not in _MOVABLE_KINDS or x.info.side_effects or len(x.dsts) != 1 or x.guard is not None:
        return False
    if branch is not None and branch.guard in x.dsts:
        return False
    earlier = arm[:i]
    written = {d for e in earlier for d in e.dsts}
    read = {r for e in earlier for r in e.uses()}
    if set(x.uses()) & written or x.dsts[0] in written | read:
        return False
    return not (x.info.kind == "mem" and any(e.info.store or e.info.side_effects for e in earlier))


def _same_computation(x: Instr, y: Instr) -> bool:
    return (x.op, x.mods, x.srcs, x.guard, x.guard_neg) == (y.op, y.mods, y.srcs, y.guard, y.guard_neg) \
        and len(x.dsts) == len(y.dsts) == 1


def _shared_computation(first: list[Instr], second: list[Instr], branch) -> tuple[Instr, Instr] | None:
    """A computation both lists make, each copy free to run before its list's start."""
    return next(((x, y) for i, x in enumerate(first) if _independent(first, i, branch)
                 for j, y in enumerate(second) if _independent(second, j, branch) and _same_computation(x, y)), None)


@dataclass(frozen=True)
class HoistSink:
    name: str = "hoist-sink"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        cfg = analyses.get("cfg")      # valid throughout: the moves leave every terminator in place
        dominance: list[_Dominance] = []
        for head in [b.label for b in fn.blocks]:
            hammock = find_hammock(fn, cfg, head)
            if hammock is None:
                changed |= self.hoist_into_regions(fn, cfg, head, dominance)
                continue
            if hammock.other is None:
                continue
            changed |= self.hoist(fn, hammock)
            changed |= self.sink(fn, cfg, hammock)
        return changed

    def hoist(self, fn: Function, h: Hammock) -> bool:
        """Move computations both arms make, wherever they stand in the arms, above the branch."""
        head = fn.block(h.head)
        branch = conditional_branch(head)
        moved = False
        while True:
            pair = _shared_computation(body(fn, h.then), body(fn, h.other), branch)
            if pair is None:
                return moved
            x, y = pair
            dx, dy = x.dsts[0], y.dsts[0]
            if dx != dy and (_readers_outside(fn, dy, h.other) or _readers_outside(fn, dx, h.then)):
                return moved
            fn.block(h.then).instrs.remove(x)
            other = fn.block(h.other).instrs
            other.remove(y)
            if dx != dy:
                _rename(other, dy, dx)
            head.instrs.insert(head.instrs.index(branch), x)
            moved = True

    def hoist_into_regions(self, fn: Function, cfg, head: str, dominance: list[_Dominance]) -> bool:
        """Hoist what both successors of a branch that is no hammock compute first
        (`dominance`: the run's dominator tree once built, else empty)."""
        branch = conditional_branch(fn.block(head))
        succs = cfg.succs(head)
        if branch is None or len(succs) != 2 or EXIT in succs or succs[0] == succs[1] \
                or any(cfg.preds(s) != [head] for s in succs):
            return False
        moved = False
        while True:
            pair = _shared_computation(body(fn, succs[0]), body(fn, succs[1]), branch)
            if pair is None:
                return moved
            x, y = pair
            dx, dy = x.dsts[0], y.dsts[0]
            if dx != dy:
                if not dominance:
                    dominance.append(_Dominance(cfg))
                dom = dominance[0]
                if not (_confined(fn, dx, succs[0], dom) and _confined(fn, dy, succs[1], dom)):
                    return moved
            fn.block(succs[0]).instrs.remove(x)
            fn.block(succs[1]).instrs.remove(y)
            if dx != dy:
                for label in dom.region(succs[1]):
                    _rename(fn.block(label).instrs, dy, dx)
            head_block = fn.block(head)
            head_block.instrs.insert(head_block.instrs.index(branch), x)
            moved = True

    def sink(self, fn: Function, cfg, h: Hammock) -> bool:
        join = fn.block(h.join)
        if sorted(cfg.preds(h.join)) != sorted([h.then, h.other]):
            return False
        moved = False
        while True:
            tb, ob = body(fn, h.then), body(fn, h.other)
            if not tb or not ob:
                return moved
            x, y = tb[-1], ob[-1]
            if not (x.info.store and x.op == y.op and x.mods == y.mods and x.guard is None and y.guard is None
                    and x.info.kind == "mem" and x.srcs[0] == y.srcs[0]):
                return moved
            vx, vy = x.srcs[1], y.srcs[1]
            if vx != vy:
                if not (isinstance(vx, Reg) and isinstance(vy, Reg)) or _readers_outside(fn, vy, h.other) \
                        or _readers_outside(fn, vx, h.then):
                    return moved
                _rename(fn.block(h.other).instrs, vy, vx)
            fn.block(h.then).instrs.remove(x)
            fn.block(h.other).instrs.remove(fn.block(h.other).instrs[len(body(fn, h.other)) - 1])
            join.instrs.insert(0, x)
            moved = True



class _Dominance:
    """The dominator tree of a CFG, numbered by a depth-first walk: a block dominates
    another when the other's number falls in its subtree's range (a block the entry does
    not reach dominates nothing and is dominated by nothing; the virtual exit is no block)."""

    def __init__(self, cfg):
        idom = immediate_dominators(cfg.entry, cfg.succs, cfg.preds)
        children: dict[str, list[str]] = {}
        for label, parent in idom.items():
            if label != parent:
                children.setdefault(parent, []).append(label)
        self.children = children
        self.first: dict[str, int] = {}     # block -> its number
        self.last: dict[str, int] = {}      # block -> the highest number in its subtree
        stack = [(cfg.entry, False)]
        while stack:
            label, done = stack.pop()
            if done:
                self.last[label] = len(self.first) - 1
                continue
            self.first[label] = len(self.first)
            stack.append((label, True))
            stack.extend((child, False) for child in children.get(label, ()))

    def dominates(self, top: str, label: str) -> bool:
        n = self.first.get(label)
        return n is not None and top in self.first and self.first[top] <= n <= self.last[top]

    def region(self, top: str) -> list[str]:
        """The blocks `top` dominates (itself included)."""
        out, stack = [], [top] if top in self.first else []
        while stack:
            label = stack.pop()
            if label != EXIT:
                out.append(label)
            stack.extend(self.children.get(label, ()))
        return out


def _confined(fn: Function, reg: Reg, top: str, dom: _Dominance) -> bool:
    """reg is a virtual register written once in the function, and read only in blocks `top` dominates."""
    if not reg.is_virtual or reg in fn.rets:
        return False
    writes = 0
    for b in fn.blocks:
        for ins in b.instrs:
            writes += ins.dsts.count(reg)
            if reg in ins.uses() and not dom.dominates(top, b.label):
                return False
    return writes == 1

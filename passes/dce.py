"""dce (dead code): remove blocks no path reaches, then pure instructions whose results
nothing reads.

An instruction is dead when no later instruction on any path reads what it writes
(liveness, passes/liveness.py); a guarded write does not end a life.  Removing one
can make what it read dead too: blocks are swept after their successors, so one
sweep finishes a function without loops; where an edge closes a cycle the sweep
reads the liveness analysis (through the pass manager) for the successor not swept
yet, and repeats on fresh liveness until a sweep removes nothing.  The result is
that of sweeping every block on fresh liveness until nothing is dead.  Only
virtual registers and the constants RZ and PT can be dead (passes/rewrite.py says
why); an instruction with side effects is never removed.  A block a kept block
names (a BSSY/SSY label) or falls through into is kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from minicuda.ir import Function, Instr, Label
from minicuda.passes.cfg import CFG, EXIT
from minicuda.passes.liveness import read_names, return_names
from minicuda.passes.rewrite import CONSTANT_REGS, unconditional_end
from minicuda.semantics import is_pure


@dataclass(frozen=True)
class DeadCode:
    """Remove blocks unreachable from the entry, then pure instructions (guarded or
    not) whose destinations no later instruction on any path reads."""
    name: ClassVar[str] = "dce"

    def run(self, fn: Function, analyses) -> bool:
        changed = remove_unreachable_blocks(fn, analyses.get("cfg"))
        if changed:
            analyses.invalidate()
        cfg = analyses.get("cfg")
        while True:
            removed, exact = _sweep(fn, cfg, lambda: analyses.get("liveness").live_in)
            if not removed:
                return changed
            changed = True
            analyses.invalidate("liveness")   # removing non-branches keeps the CFG as it is
            if exact:
                return changed


def remove_unreachable_blocks(fn: Function, cfg: CFG) -> bool:
    """Drop blocks no path from the entry reaches, except those a kept block still
    names (a BSSY/SSY label) or falls through into."""
    keep = set(cfg.reachable())
    if all(b.label in keep for b in fn.blocks):
        return False
    index = {b.label: i for i, b in enumerate(fn.blocks)}
    work = [index[label] for label in keep if label in index]
    while work:
        i = work.pop()
        block = fn.blocks[i]
        wanted = [s.name for ins in block.instrs for s in ins.srcs if isinstance(s, Label)]
        if not unconditional_end(block) and i + 1 < len(fn.blocks):
            wanted.append(fn.blocks[i + 1].label)
        for label in wanted:
            if label not in keep:
                keep.add(label)
                if label in index:
                    work.append(index[label])
    before = len(fn.blocks)
    fn.blocks = [b for b in fn.blocks if b.label in keep]
    return len(fn.blocks) != before


def _sweep(fn: Function, cfg: CFG, stale_live_in: Callable[[], dict[str, frozenset[str]]]) -> tuple[bool, bool]:
    """Remove the dead instructions of every block, each block after its successors
    where no cycle runs through them, so that a removal also frees what it read in
    the blocks before it.  A successor not swept yet (the edge closes a cycle) is
    taken as `stale_live_in` gives it, which may hold more than the sweep leaves.
    Returns (whether any was removed, whether every successor was swept first: then
    no instruction is dead any more)."""
    rets = return_names(fn)
    blocks = {b.label: b for b in fn.blocks}
    live_in: dict[str, set[str]] = {EXIT: set(rets)}
    removed, exact = False, True
    stale = None
    for label in _postorder(fn, cfg):
        live: set[str] = set()
        for s in cfg.succ[label]:
            entry = live_in.get(s)
            if entry is None and s in blocks:
                exact = False
                stale = stale if stale is not None else stale_live_in()
                entry = stale[s]
            live.update(entry or ())
        block = blocks[label]
        kept: list[Instr] = []
        for ins in reversed(block.instrs):
            if _dead(ins, live):
                continue
            if ins.guard is None:
                for d in ins.dsts:
                    live.discard(d.name)
            live.update(read_names(ins, rets))
            kept.append(ins)
        if len(kept) != len(block.instrs):
            block.instrs = kept[::-1]
            removed = True
        live_in[label] = live
    return removed, exact


def _postorder(fn: Function, cfg: CFG) -> list[str]:
    """Every block, each after the successors a depth-first walk finishes first: the
    walk from the entry, then from each block not reached yet, in layout order."""
    order: list[str] = []
    seen: set[str] = set()
    for b in fn.blocks:
        if b.label in seen:
            continue
        seen.add(b.label)
        stack = [(b.label, iter(cfg.succ[b.label]))]
        while stack:
            label, rest = stack[-1]
            for s in rest:
                if s not in seen and s in cfg.succ:
                    seen.add(s)
                    stack.append((s, iter(cfg.succ[s])))
                    break
            else:
                stack.pop()
                order.append(label)
    return order


def _dead(ins: Instr, live: set[str]) -> bool:
    """ins is pure and writes only dead virtual registers or the constants."""
    for d in ins.dsts:
        if d.name in live or (d.name[:1] != "%" and d.name not in CONSTANT_REGS):
            return False
    return bool(ins.dsts) and is_pure(ins)

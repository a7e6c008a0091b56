"""dce (dead code): remove blocks no path reaches, then pure instructions whose results
nothing reads.

Liveness (passes/liveness.py, through the pass manager) says what a later
instruction on some path may read; a guarded write does not end a life.  Only
virtual registers and the constants RZ and PT can be dead (passes/rewrite.py says
why); an instruction with side effects is never removed.  A block a kept block
names (a BSSY/SSY label) or falls through into is kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from minicuda.ir import Function, Instr, Label, Reg
from minicuda.passes.cfg import CFG
from minicuda.passes.liveness import kills, reads
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
        while _sweep(fn, analyses.get("liveness").live_out):
            analyses.invalidate("liveness")   # removing non-branches keeps the CFG as it is
            changed = True
        return changed


def remove_unreachable_blocks(fn: Function, cfg: CFG) -> bool:
    """Drop blocks no path from the entry reaches, except those a kept block still
    names (a BSSY/SSY label) or falls through into."""
    keep = set(cfg.reachable())
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


def _sweep(fn: Function, live_out: dict[str, frozenset[Reg]]) -> bool:
    removed = False
    for block in fn.blocks:
        live = set(live_out[block.label])
        kept: list[Instr] = []
        for ins in reversed(block.instrs):
            if _dead(ins, live):
                removed = True
                continue
            live -= kills(ins)
            live |= reads(ins, fn)
            kept.append(ins)
        block.instrs = kept[::-1]
    return removed


def _dead(ins: Instr, live: set[Reg]) -> bool:
    if not ins.dsts or not is_pure(ins):
        return False
    return all(d.name in CONSTANT_REGS or (d.is_virtual and d not in live) for d in ins.dsts)

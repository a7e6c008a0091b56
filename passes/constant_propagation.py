"""constant-propagation: a register that holds the same constant on every path into a
block is read as that constant there, across blocks (LLVM's SCCP, without its pruning of
branches).

copy-propagation and constant-fold see one block at a time; a fully unrolled loop keeps its
counter in a register that each copy of the body increments (`MOV %r10, 0` before the
first copy, `IADD %r19, %r10, 1; MOV %r10, %r19` between copies), so the counter is a
known constant in every copy only when the facts flow from block to block.  LLVM's full
unrolling leaves constants there, and ptxas's code for box_filter_tile's taps reads them
(`[R2.64+0x44]`, `ISETP.GT.OR P6, PT, R0, 0xe, P3`).

The facts are forward dataflow over the CFG: at a block's entry, the registers every
predecessor seen so far leaves with the same immediate (optimistic: a predecessor not yet
visited adds nothing, and a loop's back edge takes a fact away when it brings another
value, so a fact only ever shrinks and the iteration ends).  Through a block, an unguarded
`MOV r, imm` makes one, an instruction whose sources are all known folds to one
(constant_fold.fold), and any other write, guarded or not, ends r's.  Only virtual
registers of 32 or 64 bits are tracked; where an immediate may replace a register read is
copy-propagation's rule (value operands of pure instructions, at the register's width).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr
from minicuda.passes.cfg import EXIT, postorder
from minicuda.passes.constant_fold import fold
from minicuda.passes.copy_propagation import copy_source, propagate

Facts = dict[str, Imm]


@dataclass(frozen=True)
class ConstantPropagation:
    name: ClassVar[str] = "constant-propagation"

    def run(self, fn: Function, analyses) -> bool:
        cfg = analyses.get("cfg")
        entry_facts = _entry_facts(fn, cfg)
        changed = False
        for block in fn.blocks:
            facts = dict(entry_facts.get(block.label, {}))
            if not facts:
                continue   # within a block, copy-propagation and constant-fold see the same
            for i, ins in enumerate(block.instrs):
                rewritten = propagate(ins, facts)
                if rewritten is not ins:
                    block.instrs[i] = rewritten
                    changed = True
                _step(rewritten, facts)
        return changed


def _step(ins: Instr, facts: Facts) -> None:
    """The facts after ins, given those before it (ins already reads the known constants)."""
    known = copy_source(ins)
    if not isinstance(known, Imm):
        folded = fold(ins) if ins.guard is None else None
        known = copy_source(folded) if folded is not None else None
    for d in ins.dsts:
        facts.pop(d.name, None)
    if isinstance(known, Imm) and ins.dsts[0].is_virtual and not ins.dsts[0].is_pred:
        facts[ins.dsts[0].name] = known


def _through(instrs: list[Instr], facts: Facts) -> Facts:
    facts = dict(facts)
    for ins in instrs:
        _step(propagate(ins, facts), facts)
    return facts


def _entry_facts(fn: Function, cfg) -> dict[str, Facts]:
    """block label -> the constants every path into it agrees on.

    A block's entry is the meet of its predecessors' exits, taken when the block is next
    visited (not once per predecessor that changed); the worklist visits blocks in reverse
    postorder, so an acyclic stretch is visited once, after all its predecessors: a join of
    n arms (a switch's) meets n exits once, not once per arm."""
    blocks = {b.label: b for b in fn.blocks}
    entry = fn.blocks[0].label
    rank = {label: i for i, label in enumerate(reversed(postorder(entry, cfg.succs)))}
    into: dict[str, Facts] = {}
    out: dict[str, Facts] = {}
    work, queued = [(0, entry)], {entry}
    while work:
        _, label = heapq.heappop(work)
        queued.discard(label)
        seen = [out[p] for p in cfg.preds(label) if p in out] if label != entry else []
        merged = {r: v for r, v in seen[0].items() if all(f.get(r) == v for f in seen[1:])} if seen else {}
        if into.get(label) == merged and label in out:
            continue
        into[label] = merged
        after = _through(blocks[label].instrs, merged)
        if out.get(label) == after:
            continue
        out[label] = after
        for s in cfg.succs(label):
            if s != EXIT and s in blocks and s not in queued:
                queued.add(s)
                heapq.heappush(work, (rank[s], s))
    return into

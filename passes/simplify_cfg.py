"""simplify-cfg: fewer jumps and blocks, the same paths.

Drops branches to the next block, threads branches through blocks that only jump,
merges a block into its single predecessor, and drops unreachable blocks that are
empty or only jump.  A label a BSSY/SSY marker names is referenced, so its block is
never merged away or dropped; a merge that moves a block away from its fall-through
successor adds the jump it needs.  Each step restarts on a fresh CFG.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Function, Instr, Label
from minicuda.passes.cfg import CFG
from minicuda.passes.rewrite import unconditional_end


@dataclass(frozen=True)
class SimplifyCFG:
    """Drop branches to the next block, thread branches through blocks that only jump,
    merge a block into its single predecessor, drop unreachable empty or jump-only
    blocks.  Labels a BSSY/SSY marker names are kept."""
    name: ClassVar[str] = "simplify-cfg"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        while (_drop_jumps_to_next(fn) or _thread_jumps(fn) or _merge_into_predecessor(fn, analyses.get("cfg"))
               or _drop_unreachable_trivial(fn, analyses.get("cfg"))):
            analyses.invalidate()
            changed = True
        return changed


def _label_refs(fn: Function) -> dict[str, int]:
    refs: dict[str, int] = {}
    for ins in fn.instructions():
        for s in ins.srcs:
            if isinstance(s, Label):
                refs[s.name] = refs.get(s.name, 0) + 1
    return refs


def _drop_jumps_to_next(fn: Function) -> bool:
    changed = False
    for block, nxt in zip(fn.blocks, fn.blocks[1:]):
        ins = block.instrs
        if ins and ins[-1].op == "BRA" and ins[-1].target == nxt.label:
            del ins[-1]                                  # `BRA next` or `@p BRA next`: both fall through
            changed = True
        elif len(ins) >= 2 and ins[-1].op == "BRA" and ins[-2].op == "BRA" and ins[-2].target == ins[-1].target:
            del ins[-2]                                  # `@p BRA T; BRA T`
            changed = True
    return changed


def _jump_only_target(fn: Function, i: int) -> str | None:
    """Where block i sends every thread when it does nothing else."""
    block = fn.blocks[i]
    if not block.instrs:
        return fn.blocks[i + 1].label if i + 1 < len(fn.blocks) else None
    if len(block.instrs) == 1 and block.instrs[0].op == "BRA" and block.instrs[0].guard is None:
        return block.instrs[0].target
    return None


def _thread_jumps(fn: Function) -> bool:
    forward = {b.label: t for i, b in enumerate(fn.blocks) if (t := _jump_only_target(fn, i)) not in (None, b.label)}

    def final(label: str) -> str:
        seen = [label]
        while label in forward:
            label = forward[label]
            if label in seen:
                return seen[0]                           # a cycle of jumps: leave it alone
            seen.append(label)
        return label

    changed = False
    for block in fn.blocks:
        for i, ins in enumerate(block.instrs):
            if ins.op == "BRA" and final(ins.target) != ins.target:
                block.instrs[i] = replace(ins, srcs=(Label(final(ins.target)),))
                changed = True
    return changed


def _merge_into_predecessor(fn: Function, cfg: CFG) -> bool:
    refs = _label_refs(fn)
    index = {b.label: i for i, b in enumerate(fn.blocks)}
    for j, block in enumerate(fn.blocks):
        preds = cfg.preds(block.label)
        if block.label == cfg.entry or len(preds) != 1 or preds[0] == block.label:
            continue
        pred = fn.blocks[index[preds[0]]]
        if cfg.succs(pred.label) != [block.label] or any(x.op == "BRA" for x in pred.instrs[:-1]):
            continue
        jumps = bool(pred.instrs) and pred.instrs[-1].op == "BRA"
        if refs.get(block.label, 0) != int(jumps) or (jumps and pred.instrs[-1].guard is not None):
            continue                                     # named elsewhere (a marker), or odd shape
        body = pred.instrs[:-1] if jumps else list(pred.instrs)
        tail: list[Instr] = []
        if index[pred.label] + 1 != j and not unconditional_end(block):
            last = block.instrs[-1] if block.instrs else None
            if last is not None and last.info.terminator and last.op != "BRA":
                continue                                 # a guarded EXIT cannot be followed by a BRA
            loc = last.loc if last is not None else pred.instrs[-1].loc
            tail = [Instr("BRA", (), (), (Label(fn.blocks[j + 1].label),), loc=loc)]
        pred.instrs = body + block.instrs + tail
        del fn.blocks[j]
        return True
    return False


def _drop_unreachable_trivial(fn: Function, cfg: CFG) -> bool:
    reachable = cfg.reachable()
    refs = _label_refs(fn)
    for i, block in enumerate(fn.blocks):
        if block.label in reachable or refs.get(block.label):
            continue
        jump_only = len(block.instrs) == 1 and block.instrs[0].op == "BRA" and block.instrs[0].guard is None
        falls_in = i > 0 and not unconditional_end(fn.blocks[i - 1])
        if (not block.instrs and i + 1 < len(fn.blocks)) or (jump_only and not falls_in):
            del fn.blocks[i]
            return True
    return False

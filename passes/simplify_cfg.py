"""simplify-cfg: fewer jumps and blocks, the same paths.

Drops branches to the next block, threads branches through blocks that only jump,
merges a block into its single predecessor, and drops unreachable blocks that are
empty or only jump.  A label a BSSY/SSY marker names is referenced, so its block is
never merged away or dropped; a merge that moves a block away from its fall-through
successor adds the jump it needs.  Each step restarts on a fresh CFG, except that
merges go on while none of them lets an earlier step apply (the order and the result
are those of one merge per restart).
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
    """Merge blocks into their single predecessors, first in layout order first, as long
    as no merge lets an earlier step (a dropped or threaded jump) apply; the CFG and the
    label counts are kept up to date between merges, and the scan goes back only as
    far as the blocks a merge touched."""
    refs = _label_refs(fn)
    succs = {b.label: cfg.succs(b.label) for b in fn.blocks}
    preds = {b.label: cfg.preds(b.label) for b in fn.blocks}
    index = {b.label: i for i, b in enumerate(fn.blocks)}
    merged = False
    j = 0
    while j < len(fn.blocks):
        block = fn.blocks[j]
        pred_labels = preds[block.label]
        if block.label == cfg.entry or len(pred_labels) != 1 or pred_labels[0] == block.label:
            j += 1
            continue
        pred = fn.blocks[index[pred_labels[0]]]
        if succs[pred.label] != [block.label] or any(x.op == "BRA" for x in pred.instrs[:-1]):
            j += 1
            continue
        jumps = bool(pred.instrs) and pred.instrs[-1].op == "BRA"
        if refs.get(block.label, 0) != int(jumps) or (jumps and pred.instrs[-1].guard is not None):
            j += 1
            continue                                     # named elsewhere (a marker), or odd shape
        body = pred.instrs[:-1] if jumps else list(pred.instrs)
        tail: list[Instr] = []
        if index[pred.label] + 1 != j and not unconditional_end(block):
            last = block.instrs[-1] if block.instrs else None
            if last is not None and last.info.terminator and last.op != "BRA":
                j += 1
                continue                                 # a guarded EXIT cannot be followed by a BRA
            loc = last.loc if last is not None else pred.instrs[-1].loc
            tail = [Instr("BRA", (), (), (Label(fn.blocks[j + 1].label),), loc=loc)]
        touched_before = _jump_only_or_empty(pred) or _jump_only_or_empty(block) or \
            (j > 0 and _jump_only_or_empty(fn.blocks[j - 1]))
        pred.instrs = body + block.instrs + tail
        del fn.blocks[j]
        merged = True
        if touched_before or _jump_only_or_empty(pred) or _jumps_to_next(fn, index[pred.label]) or \
                (j > 0 and _jumps_to_next(fn, j - 1)):
            return True                                  # an earlier step may apply now: start again
        if tail:
            refs[tail[0].target] = refs.get(tail[0].target, 0) + 1
        succs[pred.label] = succs.pop(block.label)
        for s in succs[pred.label]:
            if s in preds:
                preds[s] = list(dict.fromkeys(pred.label if p == block.label else p for p in preds[s]))
        del preds[block.label]
        index = {b.label: i for i, b in enumerate(fn.blocks)}
        j = min([j, index[pred.label]] + [index[s] for s in succs[pred.label] if s in index])
    return merged


def _jump_only_or_empty(block) -> bool:
    return not block.instrs or (len(block.instrs) == 1 and block.instrs[0].op == "BRA" and block.instrs[0].guard is None)


def _jumps_to_next(fn: Function, i: int) -> bool:
    """Whether block i ends in what `_drop_jumps_to_next` drops."""
    ins = fn.blocks[i].instrs
    nxt = fn.blocks[i + 1] if i + 1 < len(fn.blocks) else None
    return bool(ins) and ins[-1].op == "BRA" and (
        (nxt is not None and ins[-1].target == nxt.label)
        or (len(ins) >= 2 and ins[-2].op == "BRA" and ins[-2].target == ins[-1].target))


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

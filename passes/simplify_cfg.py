"""simplify-cfg: fewer jumps and blocks, the same paths.

Drops branches to the next block, threads branches through blocks that only jump,
inverts a conditional branch over a fall-through block that only jumps (`@p BRA A;
BRA C; A:` is `@!p BRA C; A:`, as block placement lays it out: one branch on either
path, as in ptxas's unrolled searches, one compare and branch to the common exit per
copy), merges a block into its single predecessor, and drops unreachable blocks that are
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
        while (_drop_jumps_to_next(fn) or _thread_jumps(fn) or _invert_over_jumps(fn)
               or _merge_into_predecessor(fn, analyses.get("cfg"))
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
    final = _final_targets(forward)
    changed = False
    for block in fn.blocks:
        for i, ins in enumerate(block.instrs):
            if ins.op == "BRA" and final.get(ins.target, ins.target) != ins.target:
                block.instrs[i] = replace(ins, srcs=(Label(final[ins.target]),))
                changed = True
    return changed


def _invert_over_jumps(fn: Function) -> bool:
    """`@p BRA A` falling through to a block that is only `BRA C` (nothing else reaches it)
    and is followed by A: branch `@!p BRA C` and fall through to A."""
    refs, changed, gone = None, False, set()
    for block, jump, after in zip(fn.blocks, fn.blocks[1:], fn.blocks[2:]):
        last = block.instrs[-1] if block.instrs else None
        if (last is None or last.op != "BRA" or last.guard is None or last.target != after.label
                or block.label in gone or len(jump.instrs) != 1):
            continue
        refs = refs if refs is not None else _label_refs(fn)     # (only where a candidate is)
        if refs.get(jump.label, 0):
            continue
        only = jump.instrs[0]
        if only.op != "BRA" or only.guard is not None or only.target == jump.label:
            continue
        block.instrs[-1] = replace(last, srcs=(Label(only.target),), guard_neg=not last.guard_neg)
        gone.add(jump.label)
        changed = True
    if changed:
        fn.blocks = [b for b in fn.blocks if b.label not in gone]
        fn.block_index = {}
    return changed


def _final_targets(forward: dict[str, str]) -> dict[str, str]:
    """Where a jump to each label of `forward` ends when every jump-only block is
    followed; a label whose chain runs into a cycle of jumps stays itself.  Each label
    is followed once: the labels on one chain share its outcome."""
    final: dict[str, str] = {}
    in_cycle = set()                                     # labels whose chain runs into a cycle
    for start in forward:
        path, on_path, label = [], set(), start
        while label in forward and label not in final and label not in on_path:
            path.append(label)
            on_path.add(label)
            label = forward[label]
        cycle = label in on_path or label in in_cycle
        end = final.get(label, label)
        for x in path:
            final[x] = x if cycle else end
            if cycle:
                in_cycle.add(x)
    return final


def _merge_into_predecessor(fn: Function, cfg: CFG) -> bool:
    """Merge blocks into their single predecessors, first in layout order first, as long
    as no merge lets an earlier step (a dropped or threaded jump) apply; the CFG and the
    label counts are kept up to date between merges, and the scan goes back only as
    far as the blocks a merge touched.  Blocks keep their first layout position (a
    merged one is unlinked from the layout's chain), so a merge costs the blocks it
    touches, not the function's length."""
    layout = _Layout(fn.blocks)
    refs = _label_refs(fn)
    succs = {b.label: cfg.succs(b.label) for b in fn.blocks}
    preds = {b.label: cfg.preds(b.label) for b in fn.blocks}
    early_jumps: dict[str, bool] = {}     # per block: whether a BRA comes before its last instruction
    merged = False
    unsure = False              # whether an earlier step may apply unnoticed: then restart on every hint
    j = 0
    while j is not None:
        block = layout.blocks[j]
        pred_labels = preds[block.label]
        if block.label == cfg.entry or len(pred_labels) != 1 or pred_labels[0] == block.label:
            j = layout.after(j)
            continue
        p = layout.position[pred_labels[0]]
        pred = layout.blocks[p]
        if succs[pred.label] != [block.label] or _jumps_early(pred, early_jumps):
            j = layout.after(j)
            continue
        jumps = bool(pred.instrs) and pred.instrs[-1].op == "BRA"
        if refs.get(block.label, 0) != int(jumps) or (jumps and pred.instrs[-1].guard is not None):
            j = layout.after(j)
            continue                                     # named elsewhere (a marker), or odd shape
        tail: list[Instr] = []
        if layout.after(p) != j and not unconditional_end(block):
            last = block.instrs[-1] if block.instrs else None
            if last is not None and last.info.terminator and last.op != "BRA":
                j = layout.after(j)
                continue                                 # a guarded EXIT cannot be followed by a BRA
            loc = last.loc if last is not None else pred.instrs[-1].loc
            tail = [Instr("BRA", (), (), (Label(layout.blocks[layout.after(j)].label),), loc=loc)]
        before = layout.before(j)
        tail_block = layout.blocks[layout.after(j)] if tail else None
        # with no earlier step applicable before it, a merge makes one applicable only
        # through the predecessor (jump-only or empty before or after, or now ending in
        # a jump to its next block), the block before the merged one (now followed by
        # another) or a new jump landing on a jump-only block; `hinted` are the cases
        # restarted on before, kept once that may not hold (the same merges either way)
        hinted = _jump_only_or_empty(block) or (before is not None and _jump_only_or_empty(layout.blocks[before]))
        unsure |= tail_block is not None and _jump_only_or_empty(tail_block)
        touched_before = _jump_only_or_empty(pred) or (unsure and hinted)
        if jumps:
            del pred.instrs[-1]
        pred.instrs.extend(block.instrs + tail)          # in place: a merge costs the merged block only
        early_jumps[pred.label] = any(x.op == "BRA" for x in (block.instrs if tail else block.instrs[:-1]))
        layout.unlink(j)
        merged = True
        checked = layout.after(p) if p > j else p       # the block at the predecessor's old index
        if touched_before or _jump_only_or_empty(pred) or (checked is not None and layout.jumps_to_next(checked)) \
                or (before is not None and layout.jumps_to_next(before)):
            fn.blocks = layout.linked()
            return True                                  # an earlier step may apply now: start again
        unsure |= p > j and layout.jumps_to_next(p)
        if tail:
            refs[tail[0].target] = refs.get(tail[0].target, 0) + 1
        succs[pred.label] = succs.pop(block.label)
        for s in succs[pred.label]:
            if s in preds:
                preds[s] = list(dict.fromkeys(pred.label if q == block.label else q for q in preds[s]))
        del preds[block.label]
        j = min([k for k in [layout.after(j), p] + [layout.position.get(s) for s in succs[pred.label]]
                 if k is not None])
    fn.blocks = layout.linked()
    return merged


def _jumps_early(block, known: dict[str, bool]) -> bool:
    """Whether a BRA comes before the block's last instruction (remembered per label:
    a merge updates it from the merged block alone)."""
    if block.label not in known:
        known[block.label] = any(x.op == "BRA" for x in block.instrs[:-1])
    return known[block.label]


class _Layout:
    """The blocks in layout order as a chain over their first positions: unlinking one
    keeps every other block's position, so positions still compare as the order does."""

    def __init__(self, blocks):
        self.blocks = list(blocks)
        self.position = {b.label: i for i, b in enumerate(self.blocks)}
        self.next = list(range(1, len(self.blocks))) + [None]
        self.prev = [None] + list(range(len(self.blocks) - 1))

    def after(self, i: int):
        return self.next[i]

    def before(self, i: int):
        return self.prev[i]

    def unlink(self, i: int) -> None:
        before, after = self.prev[i], self.next[i]
        if before is not None:
            self.next[before] = after
        if after is not None:
            self.prev[after] = before
        del self.position[self.blocks[i].label]

    def linked(self) -> list:
        return [b for b in self.blocks if b.label in self.position]

    def jumps_to_next(self, i: int) -> bool:
        """Whether block i ends in what `_drop_jumps_to_next` drops."""
        after = self.next[i]
        return _ends_in_jump_to(self.blocks[i].instrs, self.blocks[after] if after is not None else None)


def _jump_only_or_empty(block) -> bool:
    return not block.instrs or (len(block.instrs) == 1 and block.instrs[0].op == "BRA" and block.instrs[0].guard is None)


def _ends_in_jump_to(ins: list[Instr], nxt) -> bool:
    """Whether a block of instructions `ins` followed by block `nxt` ends in what
    `_drop_jumps_to_next` drops."""
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

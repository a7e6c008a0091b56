"""Cleanup passes: constant folding, copy propagation, common subexpressions, dead
code and CFG simplification.

The IR is not in SSA form: a register may be written many times, and a guarded
write may or may not happen.  So every fact these passes keep ("%r3 is a copy of
%r1", "%r4 holds %r1 + %r2") lives inside one block and dies at the first write,
guarded or not, to any register it mentions.  Facts are kept only about virtual
registers (`%rN %rdN %pN`) and the constants RZ and PT: after register allocation a
64-bit value spans a pair of physical registers, so a write to `R4` may clobber
`R5`, and the passes leave physical registers alone.  Values are computed by
`minicuda.semantics`; an instruction with side effects is never removed or moved.
Every pass keeps `verify` happy and returns whether it changed the function.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Block, Function, Imm, Instr, Label, Mem, Reg, Special, Sym
from minicuda.passes.cfg import CFG
from minicuda.passes.liveness import kills, reads
from minicuda.semantics import (FLOAT_TYPES, INT_TYPES, UnsupportedOp, conversion_types, evaluate, family,
                                int_type, is_pure, operand_value, source_widths)

CONSTANT_REGS = ("RZ", "PT")


def _width_class(reg: Reg) -> str | None:
    """'p', 'rd' or 'r' for a virtual register, None for anything else."""
    if not reg.is_virtual:
        return None
    return "p" if reg.is_pred else ("rd" if reg.is_wide else "r")


def _unconditional_end(block: Block) -> bool:
    """The block never falls through to the next one."""
    last = block.instrs[-1] if block.instrs else None
    return last is not None and last.info.terminator and last.guard is None


def _label_refs(fn: Function) -> dict[str, int]:
    refs: dict[str, int] = {}
    for ins in fn.instructions():
        for s in ins.srcs:
            if isinstance(s, Label):
                refs[s.name] = refs.get(s.name, 0) + 1
    return refs


# ---- constant folding -------------------------------------------------------------------
@dataclass(frozen=True)
class ConstantFold:
    """A pure instruction whose sources are all immediates becomes a MOV of its value;
    a predicate result becomes `MOV %p, PT` (true) or `PNOT %p, PT` (false)."""
    name: ClassVar[str] = "constant-fold"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        for block in fn.blocks:
            for i, ins in enumerate(block.instrs):
                folded = fold(ins)
                if folded is not None:
                    block.instrs[i] = folded
                    changed = True
        return changed


def fold(ins: Instr) -> Instr | None:
    """The MOV (or predicate constant) ins amounts to, or None when it cannot fold."""
    if ins.op in ("MOV", "S2R") or not ins.srcs or len(ins.dsts) != 1 or not is_pure(ins):
        return None
    if not all(isinstance(s, Imm) for s in ins.srcs):
        return None
    try:
        values = [operand_value(s, w) for s, w in zip(ins.srcs, source_widths(ins))]
        result = evaluate(ins, values)
    except UnsupportedOp:
        return None
    dst = ins.dsts[0]
    if result.dtype == bool:
        if not dst.is_pred:
            return None
        op, srcs = ("MOV", (Reg("PT"),)) if bool(result) else ("PNOT", (Reg("PT"),))
        return Instr(op, (), (dst,), srcs, ins.guard, ins.guard_neg, ins.loc)
    width = result.dtype.itemsize * 8
    mov_width = 64 if dst.is_virtual and dst.is_wide else 32
    if dst.is_pred or (width != mov_width and dst.name != "RZ"):
        return None   # the MOV would read its immediate at another width
    return Instr("MOV", (), (dst,), (_immediate(ins, result, width),), ins.guard, ins.guard_neg, ins.loc)


def _immediate(ins: Instr, bits, width: int) -> Imm:
    """The immediate a MOV reads back as these bits: a float for float results that
    round-trip through the text form, else the integer (signed unless unsigned)."""
    raw = int(bits)
    if _float_result(ins):
        value = struct.unpack("<f" if width == 32 else "<d", raw.to_bytes(width // 8, "little"))[0]
        if value == value:   # a NaN would lose its bits in the text form
            return Imm(value)
        return Imm(raw)
    if _signed_result(ins) and raw >> (width - 1):
        return Imm(raw - (1 << width))
    return Imm(raw)


def _float_result(ins: Instr) -> bool:
    kind = family(ins)
    return kind in ("float", "mufu") or kind == "convert" and conversion_types(ins)[0] in FLOAT_TYPES


def _signed_result(ins: Instr) -> bool:
    if ins.op in ("F2I", "I2I"):
        return INT_TYPES[conversion_types(ins)[0]][1]
    if ins.op in ("SEL", "P2R", "POPC", "FLO"):
        return True
    return int_type(ins)[1]


# ---- copy propagation -------------------------------------------------------------------
@dataclass(frozen=True)
class CopyPropagation:
    """Within a block, a use of r after an unguarded `MOV r, x` (x a register or an
    immediate) reads x instead, until r or x is written again."""
    name: ClassVar[str] = "copy-propagation"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        for block in fn.blocks:
            copies: dict[str, Reg | Imm] = {}
            for i, ins in enumerate(block.instrs):
                rewritten = _propagate(ins, copies)
                if rewritten != ins:
                    block.instrs[i] = ins = rewritten
                    changed = True
                for d in ins.dsts:
                    _forget(copies, d.name)
                source = _copy_source(ins)
                if source is not None:
                    copies[ins.dsts[0].name] = source
        return changed


def _copy_source(ins: Instr) -> Reg | Imm | None:
    """x when ins is an unguarded `MOV r, x` that makes r a plain copy of x."""
    if ins.op != "MOV" or ins.guard is not None or set(ins.mods) - {"64"}:
        return None
    dst, src = ins.dsts[0], ins.srcs[0]
    kind = _width_class(dst)
    if kind is None:
        return None
    if isinstance(src, Imm):
        return src if kind != "p" else None
    if isinstance(src, Reg) and src != dst:
        if src.name in CONSTANT_REGS:
            return src if (src.name == "PT") == (kind == "p") else None
        return src if _width_class(src) == kind else None
    return None


def _forget(copies: dict[str, Reg | Imm], name: str) -> None:
    copies.pop(name, None)
    for r in [r for r, x in copies.items() if isinstance(x, Reg) and x.name == name]:
        del copies[r]


def _propagate(ins: Instr, copies: dict[str, Reg | Imm]) -> Instr:
    """ins reading the originals of its registers: anywhere for a register, only in
    value operands of pure ops for an immediate, only virtual registers in an address
    or a guard."""
    def virtual_copy(reg: Reg) -> Reg | None:
        x = copies.get(reg.name)
        return x if isinstance(x, Reg) and x.is_virtual else None

    srcs = []
    for k, s in enumerate(ins.srcs):
        if isinstance(s, Reg) and s.name in copies:
            x = copies[s.name]
            if isinstance(x, Reg) or _takes_immediate(ins, k, s):
                s = x
        elif isinstance(s, Mem) and isinstance(s.base, Reg) and virtual_copy(s.base):
            s = Mem(virtual_copy(s.base), s.offset)
        srcs.append(s)
    guard = ins.guard
    if guard is not None and virtual_copy(guard) is not None:
        guard = virtual_copy(guard)
    return replace(ins, srcs=tuple(srcs), guard=guard)


def _takes_immediate(ins: Instr, k: int, reg: Reg) -> bool:
    """An immediate may replace register operand k only where semantics.evaluate reads
    it, at the register's own width (so the immediate keeps its bits)."""
    if not is_pure(ins) or ins.op == "S2R":
        return False
    try:
        width = source_widths(ins)[k]
    except UnsupportedOp:
        return False
    return width == (64 if reg.is_wide else 32) and not reg.is_pred


# ---- common subexpressions --------------------------------------------------------------
@dataclass(frozen=True)
class CommonSubexpressions:
    """Within a block, an unguarded pure instruction that repeats an earlier one (same
    op, modifiers and sources, none redefined since, the earlier destination intact)
    becomes `MOV d, earlier_d`."""
    name: ClassVar[str] = "cse"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        for block in fn.blocks:
            available: dict[tuple, Reg] = {}
            out: list[Instr] = []
            for ins in block.instrs:
                key = _expression(ins)
                earlier = available.get(key) if key is not None else None
                if earlier is not None:
                    changed = True
                    if earlier == ins.dsts[0]:
                        continue                     # the register already holds the value
                    ins = Instr("MOV", (), ins.dsts, (earlier,), None, False, ins.loc)
                out.append(ins)
                for d in ins.dsts:
                    _invalidate(available, d.name)
                if key is not None and earlier is None and ins.dsts[0] not in ins.srcs:
                    available[key] = ins.dsts[0]
            block.instrs = out
        return changed


def _operand_key(s) -> tuple | None:
    if isinstance(s, Imm):   # 1 and 1.0, 0.0 and -0.0 are different immediates
        v = s.value
        return ("imm", "f", struct.pack("<d", v)) if isinstance(v, float) else ("imm", "i", v)
    if isinstance(s, Reg):
        return ("reg", s.name) if s.is_virtual or s.name in CONSTANT_REGS else None
    if isinstance(s, Sym):
        return ("sym", s.name, s.offset)
    if isinstance(s, Special):
        return ("sr", s.name)
    return None


def _expression(ins: Instr) -> tuple | None:
    """What an instruction computes, as a hashable key; None if it may not be reused."""
    if ins.op == "MOV" or ins.guard is not None or len(ins.dsts) != 1 or not is_pure(ins):
        return None
    kind = _width_class(ins.dsts[0])
    srcs = tuple(_operand_key(s) for s in ins.srcs)
    if kind is None or None in srcs:
        return None
    return (ins.op, ins.mods, srcs, kind)


def _invalidate(available: dict[tuple, Reg], name: str) -> None:
    for key in [k for k, d in available.items() if d.name == name or ("reg", name) in k[2]]:
        del available[key]


# ---- dead code --------------------------------------------------------------------------
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
    growing = True
    while growing:
        growing = False
        for i, block in enumerate(fn.blocks):
            if block.label not in keep:
                continue
            wanted = {s.name for ins in block.instrs for s in ins.srcs if isinstance(s, Label)}
            if not _unconditional_end(block) and i + 1 < len(fn.blocks):
                wanted.add(fn.blocks[i + 1].label)
            if not wanted <= keep:
                keep |= wanted
                growing = True
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


# ---- CFG simplification -----------------------------------------------------------------
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
        if index[pred.label] + 1 != j and not _unconditional_end(block):
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
        falls_in = i > 0 and not _unconditional_end(fn.blocks[i - 1])
        if (not block.instrs and i + 1 < len(fn.blocks)) or (jump_only and not falls_in):
            del fn.blocks[i]
            return True
    return False


CLEANUP_PASSES = {p.name: p for p in (ConstantFold(), CopyPropagation(), CommonSubexpressions(), DeadCode(),
                                      SimplifyCFG())}

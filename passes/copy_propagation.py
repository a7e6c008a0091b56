"""copy-propagation: within a block, a use of r after an unguarded `MOV r, x` reads x.

A copy is a fact of one block (passes/rewrite.py says why): it dies when r or x is
written again, guarded or not.  A register copy replaces r anywhere it is read; an
immediate only in value operands of pure ops, at the register's own width; in an
address or a guard only a virtual register replaces r.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr, Mem, Reg
from minicuda.passes.rewrite import CONSTANT_REGS, width_class
from minicuda.semantics import UnsupportedOp, is_pure, source_widths


@dataclass(frozen=True)
class CopyPropagation:
    """Within a block, a use of r after an unguarded `MOV r, x` (x a register or an
    immediate) reads x instead, until r or x is written again."""
    name: ClassVar[str] = "copy-propagation"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        for block in fn.blocks:
            copies: dict[str, Reg | Imm] = {}
            copied_from: dict[str, list[str]] = {}   # register x -> the registers made copies of x
            for i, ins in enumerate(block.instrs):
                rewritten = propagate(ins, copies)
                if rewritten is not ins:
                    block.instrs[i] = ins = rewritten
                    changed = True
                for d in ins.dsts:
                    _forget(copies, copied_from, d.name)
                source = copy_source(ins)
                if source is not None:
                    copies[ins.dsts[0].name] = source
                    if isinstance(source, Reg):
                        copied_from.setdefault(source.name, []).append(ins.dsts[0].name)
        return changed


def copy_source(ins: Instr) -> Reg | Imm | None:
    """x when ins is an unguarded `MOV r, x` that makes r a plain copy of x."""
    if ins.op != "MOV" or ins.guard is not None or set(ins.mods) - {"64"}:
        return None
    dst, src = ins.dsts[0], ins.srcs[0]
    kind = width_class(dst)
    if kind is None:
        return None
    if isinstance(src, Imm):
        return src if kind != "p" else None
    if isinstance(src, Reg) and src != dst:
        if src.name in CONSTANT_REGS:
            return src if (src.name == "PT") == (kind == "p") else None
        return src if width_class(src) == kind else None
    return None


def _forget(copies: dict[str, Reg | Imm], copied_from: dict[str, list[str]], name: str) -> None:
    """`name` is written: it is no copy, and no register is a copy of it any more (those
    `copied_from` lists for it, checked, as a copy may have been replaced since)."""
    copies.pop(name, None)
    for r in copied_from.pop(name, ()):
        x = copies.get(r)
        if isinstance(x, Reg) and x.name == name:
            del copies[r]


def propagate(ins: Instr, copies: dict[str, Reg | Imm]) -> Instr:
    """ins reading the originals of its registers: anywhere for a register, only in
    value operands of pure ops for an immediate, only virtual registers in an address
    or a guard (ins itself when no operand changes)."""
    if not copies:
        return ins
    srcs = list(ins.srcs)
    changed = False
    for k, s in enumerate(srcs):
        if isinstance(s, Reg):
            x = copies.get(s.name)
            if x is not None and (isinstance(x, Reg) or _takes_immediate(ins, k, s)):
                srcs[k] = x
                changed = True
        elif isinstance(s, Mem) and isinstance(s.base, Reg):
            x = _virtual_copy(s.base, copies)
            if x is not None:
                srcs[k] = replace(s, base=x)   # the 32-bit shared window too
                changed = True
    guard = ins.guard
    if guard is not None and _virtual_copy(guard, copies) is not None:
        guard = _virtual_copy(guard, copies)
        changed = True
    return replace(ins, srcs=tuple(srcs), guard=guard) if changed else ins


def _virtual_copy(reg: Reg, copies: dict[str, Reg | Imm]) -> Reg | None:
    x = copies.get(reg.name)
    return x if isinstance(x, Reg) and x.is_virtual else None


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

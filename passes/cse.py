"""cse (common subexpressions): within a block, an unguarded pure instruction that
repeats an earlier one becomes a MOV of the earlier result.

An available expression is a fact of one block (passes/rewrite.py says why): it dies
when its destination or any register it reads is written again.  Immediates are
compared by their bits and kind, so 1 and 1.0, 0.0 and -0.0 stay apart.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr, Reg, Special, Sym
from minicuda.passes.rewrite import CONSTANT_REGS, width_class
from minicuda.semantics import is_pure


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
            mentions: dict[str, list[tuple]] = {}   # register -> the keys added naming it
            out: list[Instr] = []
            for ins in block.instrs:
                key = expression(ins)
                earlier = available.get(key) if key is not None else None
                if earlier is not None:
                    changed = True
                    if earlier == ins.dsts[0]:
                        continue                     # the register already holds the value
                    ins = Instr("MOV", (), ins.dsts, (earlier,), None, False, ins.loc)
                out.append(ins)
                for d in ins.dsts:
                    _invalidate(available, mentions, d.name)
                if key is not None and earlier is None and ("reg", ins.dsts[0].name) not in key[2]:
                    available[key] = ins.dsts[0]                # (an instruction reading its own result is not)
                    mentions.setdefault(ins.dsts[0].name, []).append(key)
                    for k in key[2]:
                        if k[0] == "reg":
                            mentions.setdefault(k[1], []).append(key)
            block.instrs = out
        return changed


def operand_key(s) -> tuple | None:
    if isinstance(s, Reg):
        return ("reg", s.name) if s.name[:1] == "%" or s.name in CONSTANT_REGS else None
    if isinstance(s, Imm):   # 1 and 1.0, 0.0 and -0.0 are different immediates
        v = s.value
        return ("imm", "f", struct.pack("<d", v)) if isinstance(v, float) else ("imm", "i", v)
    if isinstance(s, Sym):
        return ("sym", s.name, s.offset)
    if isinstance(s, Special):
        return ("sr", s.name)
    return None


def expression(ins: Instr, key_of=operand_key) -> tuple | None:
    """What an instruction computes, as a hashable key (each source's by `key_of`); None if
    it may not be reused."""
    if ins.op == "MOV" or ins.guard is not None or len(ins.dsts) != 1:
        return None
    kind = width_class(ins.dsts[0])
    if kind is None or not is_pure(ins):
        return None
    srcs = []
    for s in ins.srcs:
        key = key_of(s)
        if key is None:
            return None
        srcs.append(key)
    return (ins.op, ins.mods, tuple(srcs), kind)


def _invalidate(available: dict[tuple, Reg], mentions: dict[str, list[tuple]], name: str) -> None:
    """Drop the expressions that write or read `name`: those `mentions` lists for it
    (checked, as an expression may have gone and come back since)."""
    for key in mentions.pop(name, ()):
        d = available.get(key)
        if d is not None and (d.name == name or ("reg", name) in key[2]):
            del available[key]

"""reassociate: constants in integer sums and products move outward, as LLVM's InstCombine
and Reassociate leave them before ptxas sees the code.

Within a block, for 32- or 64-bit integer IADD and IMUL of the same type modifiers, where
the operand's unguarded definition is in the block and nothing it read was written since:

- `x + 0` and `x * 1` are `x` (a MOV);
- `(x + C1) + C2` is `x + (C1 + C2)`;
- `(x + C) + y` is `(x + y) + C`;
- `(x + C1) * C2` is `x * C2 + C1 * C2` (InstCombine: `(X + C1) * C2 --> X * C2 + C1 * C2`).

Integer sums and products wrap modulo 2^width, so each form computes the same bits as
the source's, signed or not.  A fully unrolled tap's `(y + 1) * 16 + x + 2` becomes
`(y * 16 + x) + 18`, which fuse-imad makes one IMAD and an add: ptxas's one IMAD.WIDE for
every tap and a constant offset per tap (box_filter_tile's `[R2.64+0x44]`).  The
instructions that computed the old form stay where something reads them (dce removes
the rest).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr, Reg
from minicuda.passes.rewrite import FreshRegisters, width_class
from minicuda.semantics import int_type


@dataclass(frozen=True)
class Reassociate:
    name: ClassVar[str] = "reassociate"

    def run(self, fn: Function, analyses) -> bool:
        fresh = FreshRegisters(fn)
        changed = False
        for block in fn.blocks:
            out: list[Instr] = []
            defs: dict[Reg, int] = {}
            for ins in block.instrs:
                for new in _rewritten(ins, out, defs, fresh):
                    if new is not ins:
                        changed = True
                    out.append(new)
                    for d in new.dsts:
                        defs[d] = len(out) - 1
            block.instrs = out
        return changed


def _int(operand) -> int | None:
    return operand.value if isinstance(operand, Imm) and isinstance(operand.value, int) else None


def _wrap(value: int, ins: Instr) -> Imm:
    bits, signed = int_type(ins)
    value &= (1 << bits) - 1
    return Imm(value - (1 << bits) if signed and value >> (bits - 1) else value)


def _plus_constant(out, defs, reg, like: Instr) -> tuple[Reg, int] | None:
    """(x, C) when reg holds `x + C` (an IADD of like's modifiers, still valid here)."""
    if not isinstance(reg, Reg) or reg not in defs:
        return None
    k = defs[reg]
    ins = out[k]
    if ins.op != "IADD" or ins.mods != like.mods or ins.guard is not None or len(ins.dsts) != 1:
        return None
    x, c = ins.srcs
    if _int(c) is None:
        x, c = c, x
    if not isinstance(x, Reg) or _int(c) is None or x.name in ("RZ",):
        return None
    if any(x in later.dsts for later in out[k + 1:]):
        return None
    return x, _int(c)


_PLAIN = {"S32", "U32", "S64", "U64", "64"}   # type modifiers only (no high half, no carry)


def _rewritten(ins: Instr, out, defs, fresh) -> list[Instr]:
    if ins.op not in ("IADD", "IMUL") or ins.guard is not None or len(ins.dsts) != 1 or len(ins.srcs) != 2 \
            or not set(ins.mods) <= _PLAIN \
            or not ins.dsts[0].is_virtual or width_class(ins.dsts[0]) not in ("r", "rd"):
        return [ins]
    a, b = ins.srcs
    if _int(a) is not None:
        a, b = b, a
    neutral = 0 if ins.op == "IADD" else 1
    if _int(b) == neutral and isinstance(a, Reg):
        return [Instr("MOV", ("64",) if ins.dsts[0].is_wide else (), ins.dsts, (a,), loc=ins.loc)]
    inner = _plus_constant(out, defs, a, ins)
    if inner is None:
        return [ins]
    x, c1 = inner
    if ins.op == "IADD" and _int(b) is not None:
        return [replace(ins, srcs=(x, _wrap(c1 + _int(b), ins)))]
    temp = fresh.new(width_class(ins.dsts[0]))
    if ins.op == "IADD" and isinstance(b, Reg):
        return [replace(ins, dsts=(temp,), srcs=(x, b)), replace(ins, srcs=(temp, _wrap(c1, ins)))]
    if ins.op == "IMUL" and _int(b) is not None:
        return [replace(ins, dsts=(temp,), srcs=(x, b)),
                replace(ins, op="IADD", srcs=(temp, _wrap(c1 * _int(b), ins)))]
    return [ins]

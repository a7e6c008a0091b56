"""constant-fold: a pure instruction whose sources are all immediates becomes a MOV of
its value, computed by `minicuda.semantics` exactly as the VM would compute it.

The MOV's immediate must read back as the same bits: a float result is written as a
float when it round-trips through the text form (a NaN does not, and stays an
integer), an integer result as signed unless its type is unsigned.  A result whose
width differs from the MOV's is left alone.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr, Reg
from minicuda.passes.rewrite import replace_each
from minicuda.semantics import (FLOAT_TYPES, INT_TYPES, UnsupportedOp, conversion_types, evaluate, family,
                                int_type, is_pure, operand_value, source_widths)


@dataclass(frozen=True)
class ConstantFold:
    """A pure instruction whose sources are all immediates becomes a MOV of its value;
    a predicate result becomes `MOV %p, PT` (true) or `PNOT %p, PT` (false)."""
    name: ClassVar[str] = "constant-fold"

    def run(self, fn: Function, analyses) -> bool:
        return replace_each(fn, fold)


def fold(ins: Instr) -> Instr | None:
    """The MOV (or predicate constant) ins amounts to, or None when it cannot fold."""
    if ins.op in ("MOV", "S2R") or not ins.srcs or len(ins.dsts) != 1 or not is_pure(ins):
        return None
    if not all(isinstance(s, Imm) for s in ins.srcs):
        return None
    try:
        values = [operand_value(s, w) for s, w in zip(ins.srcs, source_widths(ins))]
        if _traps(ins, values):
            return None
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


def _traps(ins: Instr, values) -> bool:
    """A division by zero or of the most negative value by -1: host code traps there
    (SIGFPE) and device code gives the GPU's value at run time, so it is left to run."""
    if ins.op not in ("IDIV", "IREM"):
        return False
    bits, signed = int_type(ins)
    a, b = (int(v) for v in values)
    return b == 0 or signed and a == 1 << (bits - 1) and b == (1 << bits) - 1


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

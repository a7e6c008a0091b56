"""strength-reduce: a multiply or an unsigned divide by a power of two as a shift or a mask.

`IMUL d, x, 2^k` (the immediate on either side) becomes `SHL d, x, k`, `IDIV.U* d, x, 2^k`
becomes `SHR.U* d, x, k` and `IREM.U* d, x, 2^k` becomes `LOP.AND.U* d, x, 2^k - 1`: the
same bits for every x, since a product wraps modulo 2^width as the shift does and an
unsigned quotient and remainder are the shifted value and the low bits.  A signed divide
stays: C rounds its quotient toward zero, a shift toward minus infinity.  Guards, type
modifiers and source locations are kept.

nvcc emits these forms; the pass is registered but in no -O pipeline (the shape of -O3
code is measured against ptxas on its own), so `minicudac f.ir --passes=strength-reduce`
runs it and the predication thresholds can be studied with and without it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Function, Imm, Instr
from minicuda.passes.rewrite import replace_each
from minicuda.semantics import int_type


@dataclass(frozen=True)
class StrengthReduce:
    """IMUL by 2^k as SHL; unsigned IDIV / IREM by 2^k as SHR / LOP.AND."""
    name: ClassVar[str] = "strength-reduce"

    def run(self, fn: Function, analyses) -> bool:
        return replace_each(fn, _reduced)


def _reduced(ins: Instr) -> Instr | None:
    if ins.op not in ("IMUL", "IDIV", "IREM"):
        return None
    bits, signed = int_type(ins)
    if ins.op == "IMUL":
        for x, c in (ins.srcs, reversed(ins.srcs)):
            k = _log2(c, bits)
            if k is not None:
                return replace(ins, op="SHL", srcs=(x, Imm(k)))
        return None
    k = _log2(ins.srcs[1], bits)
    if k is None or signed:
        return None
    if ins.op == "IDIV":
        return replace(ins, op="SHR", srcs=(ins.srcs[0], Imm(k)))
    return replace(ins, op="LOP", mods=("AND",) + ins.mods, srcs=(ins.srcs[0], Imm((1 << k) - 1)))


def _log2(operand, bits: int) -> int | None:
    """k when the operand is the immediate 2^k (read at `bits`), else None."""
    if not isinstance(operand, Imm) or not isinstance(operand.value, int):
        return None
    value = operand.value & ((1 << bits) - 1)
    if value == 0 or value & (value - 1):
        return None
    return value.bit_length() - 1

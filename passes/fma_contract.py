"""fma-contract: a float multiply and a dependent add or subtract as one FFMA (double: DFMA).

nvcc's default `--fmad=true` lets ptxas contract PTX's `mul.f32` + `add.f32` / `sub.f32`
(the forms without a rounding modifier) into `FFMA`, which rounds once: device results
then differ in the last bits from a multiply and an add rounded apart.  Measured on an
H100 with nvcc 13 (tests/data/groundtruth/fma/): at -O3 `a*b - c`, `c - a*b` and
`-(a*b) + c` are fused; under -G nothing is.  So the pass runs at -O1..-O3 (not -O0,
minicuda's -G), only in device code (host code is the host compiler's, which does not
contract), and not under `--fmad=false` (PTX `mul.rn` / `add.rn`).  `__fmul_rn`,
`__fadd_rn` and `__fsub_rn` (and the double ones) carry `.RN` and are never fused.

Within a block (or a block whose only predecessor it is, which a product computed before
an `if` reaches in both arms), `FADD d, t, c` (either order) whose `t` an unguarded (or identically
guarded) `FMUL t, a, b` of the same width wrote earlier, with `a`, `b`, `t` and the
guard unchanged in between, becomes `FFMA d, a, b, c`; `FSUB d, t, c` becomes
`FFMA.NEGC` (a*b - c) and `FSUB d, c, t` `FFMA.NEGP` (c - a*b).  An `FNEG n, x` feeding
the add flips the sign of the operand it negates (-(a*b) + c is `FFMA.NEGP`).  A copy
of a product (MOV) is looked through.  The product stays when something else reads it (dce removes it otherwise): each add is
fused on its own, as ptxas does (measured: tests/vm/test_cycles.py's Mandelbrot, whose
H100 result needs the loop condition's x*x + y*y fused while x*x and y*y stay for the
next iteration's x*x - y*y, which is not).  The negations
are exact, so `FFMA.NEGP d, a, b, c` rounds -(a*b) + c once, as SASS's `FFMA d, -a, b, c`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import Function, Instr, Reg

# per width: the multiply, add, subtract, negate and fused opcodes
_FAMILIES = {"F": ("FMUL", "FADD", "FSUB", "FNEG", "FFMA"), "D": ("DMUL", "DADD", "DSUB", "DNEG", "DFMA")}
_ADDS = {"FADD": "F", "FSUB": "F", "DADD": "D", "DSUB": "D"}


@dataclass(frozen=True)
class FmaContract:
    """FMUL + dependent FADD/FSUB as FFMA (DMUL + DADD/DSUB as DFMA), as ptxas under --fmad=true."""
    name: ClassVar[str] = "fma-contract"
    enabled: bool = True          # --fmad=false: False

    def run(self, fn: Function, analyses) -> bool:
        if not self.enabled or fn.kind == "host":
            return False
        changed = False
        cfg = analyses.get("cfg")
        leaving: dict[str, dict[Reg, Instr]] = {}   # block label -> its facts at its end
        for block in fn.blocks:
            preds = cfg.preds(block.label)
            # register -> the FMUL/DMUL or FNEG/DNEG that wrote it (from the single predecessor too)
            facts: dict[Reg, Instr] = dict(leaving[preds[0]]) if len(preds) == 1 and preds[0] in leaving else {}
            for i, ins in enumerate(block.instrs):
                fused = _contracted(ins, facts)
                if fused is not None:
                    block.instrs[i] = ins = fused
                    changed = True
                written = set(ins.dsts)
                for reg in list(facts):
                    fact = facts[reg]
                    if reg in written or written.intersection(fact.srcs) or (fact.guard in written):
                        del facts[reg]
                if _recordable(ins):
                    facts[ins.dsts[0]] = ins
                elif _copy(ins) and ins.srcs[0] in facts:     # a copy of a product is the product
                    facts[ins.dsts[0]] = facts[ins.srcs[0]]
            leaving[block.label] = facts
        return changed


def _virtual(ins: Instr) -> bool:
    """Facts are kept about virtual registers only (passes/rewrite.py: a write to a physical
    register may clobber its pair's other half)."""
    return all(o.is_virtual for o in ins.dsts + ins.srcs if isinstance(o, Reg))


# the modifiers of a multiply, add or negation the pass fuses: none, or -ftz's FTZ (on both)
_PLAIN = ((), ("FTZ",))


def _recordable(ins: Instr) -> bool:
    family = ins.op[:1]
    ops = _FAMILIES.get(family)
    return (ops is not None and ins.op in (ops[0], ops[3]) and ins.mods in _PLAIN and len(ins.dsts) == 1
            and ins.dsts[0] not in ins.srcs and _virtual(ins))


def _copy(ins: Instr) -> bool:
    return (ins.op == "MOV" and not ins.mods and ins.guard is None and len(ins.dsts) == 1
            and isinstance(ins.srcs[0], Reg) and ins.dsts[0] != ins.srcs[0] and _virtual(ins))


def _same_guard(a: Instr, b: Instr) -> bool:
    return a.guard is None or (a.guard == b.guard and a.guard_neg == b.guard_neg)


def _signed(operand, negated: bool, facts: dict, neg_op: str):
    """(operand, negated) looking through a negation the block wrote."""
    fact = facts.get(operand) if isinstance(operand, Reg) else None
    if fact is not None and fact.op == neg_op:
        return fact.srcs[0], not negated
    return operand, negated


def _contracted(ins: Instr, facts: dict) -> Instr | None:
    family = _ADDS.get(ins.op)
    if family is None or ins.mods not in _PLAIN:
        return None
    mul_op, _, sub_op, neg_op, fma_op = _FAMILIES[family]
    signs = (False, ins.op == sub_op)
    for k in (0, 1):
        product, negp = _signed(ins.srcs[k], signs[k], facts, neg_op)
        mul = facts.get(product) if isinstance(product, Reg) else None
        if mul is None or mul.op != mul_op or mul.mods != ins.mods or not _same_guard(mul, ins):
            continue
        if isinstance(product, Reg) and product != ins.srcs[k] and not _same_guard(facts[ins.srcs[k]], ins):
            continue
        addend, negc = _signed(ins.srcs[1 - k], signs[1 - k], facts, neg_op)
        if addend != ins.srcs[1 - k] and not _same_guard(facts[ins.srcs[1 - k]], ins):
            addend, negc = ins.srcs[1 - k], signs[1 - k]
        mods = ins.mods + ("NEGP",) * negp + ("NEGC",) * negc   # (FTZ, when both flush: FFMA.FTZ)
        return replace(ins, op=fma_op, mods=mods, srcs=(mul.srcs[0], mul.srcs[1], addend))
    return None

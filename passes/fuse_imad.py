"""fuse-imad: an integer multiply whose only reader is an add becomes one IMAD.

SASS has no separate integer multiply and add for `a * b + c`: ptxas selects one
`IMAD` (`blockIdx.x * blockDim.x + threadIdx.x` is `IMAD R5, R7, R0, R8`), so an
arm holding one counts one instruction, as ptxas's does.  Integer arithmetic wraps,
so the fused form computes the same bits.  (Float FMUL + FADD stays two: contracting
them into FFMA rounds once instead of twice, and would change results.)

Taken: `IMUL d, a, b` then, later in the same block, `IADD e, d, c` (or `c, d`), same
type modifiers, d a virtual register with that one definition and that one reader,
a and b not written between the two.  A register written more than once (the copies of
a fully unrolled loop's body share theirs) is taken too where the add is the only reader
of that product: nothing else in the block reads it before it is written again, and it is
not live out of the block unless written again there.

Before that, a multiply of a negated value by a constant multiplies the value by the
negated constant, as LLVM's InstCombine does (visitMul: `-X * C --> X * -C`): `-v * 3`
is `IMAD R7, R2, -0x3, RZ` in SASS, one instruction where the source reads two.  Taken:
`INEG t, x` then, later in the same block, `IMUL d, t, C` (or `C, t`), same type
modifiers, t and x not written between the two; the negation stays for other readers
(dead-code removes it when none is left).  The product wraps modulo 2^width either way.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from minicuda.ir import Function, Imm, Instr, Reg
from minicuda.semantics import int_type


@dataclass(frozen=True)
class FuseImad:
    name: str = "fuse-imad"

    def run(self, fn: Function, analyses) -> bool:
        reads: Counter = Counter(r for ins in fn.instructions() for r in ins.uses())
        reads.update(fn.rets)
        writes: Counter = Counter(d for ins in fn.instructions() for d in ins.dsts)
        changed = _fold_negations(fn)
        live_out = analyses.get("liveness").live_out if not changed else None
        for block in fn.blocks:
            instrs = block.instrs
            last: dict[Reg, Instr | None] = {}   # register -> its last writer before i (None: look)
            i = 0
            while i < len(instrs):
                ins = instrs[i]
                fused = _fused(instrs, i, ins, reads, writes, last) if ins.op == "IADD" and ins.guard is None else None
                if fused is None and ins.op == "IADD" and ins.guard is None and live_out is not None:
                    fused = _fused_local(instrs, i, ins, live_out[block.label], last)
                if fused is not None:
                    k, instrs[i] = fused
                    last.update((d, None) for d in instrs[k].dsts)
                    last.update((d, instrs[i]) for d in instrs[i].dsts)
                    del instrs[k]      # before i: the add, now the IMAD, moves up one
                    changed = True
                    continue
                last.update((d, ins) for d in ins.dsts)
                i += 1
        return changed


_NO_WRITE = object()


def _may_be_product(add: Instr, d: Reg, last: dict) -> bool:
    """d's last write before the add (as `last` knows it) may be a multiply to fuse: the
    walks back through the block run only then (not for every add of a long block)."""
    mul = last.get(d, _NO_WRITE)
    if mul is _NO_WRITE:
        return False
    return mul is None or (mul.op == "IMUL" and mul.guard is None and mul.mods == add.mods and len(mul.dsts) == 1)


def _fused(instrs: list[Instr], i: int, add: Instr, reads: Counter, writes: Counter,
           last: dict) -> tuple[int, Instr] | None:
    for pos in (0, 1):
        d, c = add.srcs[pos], add.srcs[1 - pos]
        if not (isinstance(d, Reg) and d.is_virtual and reads[d] == 1 and writes[d] == 1) or d == c \
                or not _may_be_product(add, d, last):
            continue
        for k in range(i - 1, -1, -1):
            mul = instrs[k]
            if d not in mul.dsts:
                continue
            if mul.op != "IMUL" or mul.guard is not None or mul.mods != add.mods or len(mul.dsts) != 1:
                break
            operands = {r for r in mul.srcs if isinstance(r, Reg)}
            if any(operands & set(between.dsts) for between in instrs[k + 1:i]):
                break
            return k, replace(add, op="IMAD", srcs=(mul.srcs[0], mul.srcs[1], c))
    return None


def _fold_negations(fn: Function) -> bool:
    """`INEG t, x; ...; IMUL d, t, C` as `IMUL d, x, -C` (InstCombine's `-X * C --> X * -C`)."""
    changed = False
    for block in fn.blocks:
        negated: dict[Reg, Instr] = {}     # t -> the unguarded INEG that wrote it, while t and x are unchanged
        for i, ins in enumerate(block.instrs):
            if ins.op == "IMUL" and ins.guard is None:
                folded = _without_negation(ins, negated)
                if folded is not None:
                    block.instrs[i] = ins = folded
                    changed = True
            for d in ins.dsts:
                for t in [t for t, neg in negated.items() if d == t or d in neg.srcs]:
                    del negated[t]
            if ins.op == "INEG" and ins.guard is None and isinstance(ins.srcs[0], Reg) and ins.srcs[0] != ins.dsts[0]:
                negated[ins.dsts[0]] = ins
    return changed


def _without_negation(mul: Instr, negated: dict[Reg, Instr]) -> Instr | None:
    for pos in (0, 1):
        t, c = mul.srcs[pos], mul.srcs[1 - pos]
        neg = negated.get(t) if isinstance(t, Reg) else None
        if neg is None or neg.mods != mul.mods or not isinstance(c, Imm) or not isinstance(c.value, int):
            continue
        bits, signed = int_type(mul)
        value = -c.value & ((1 << bits) - 1)
        if signed and value >= 1 << (bits - 1):
            value -= 1 << bits
        return replace(mul, srcs=(neg.srcs[0], Imm(value)))
    return None


def _fused_local(instrs: list[Instr], i: int, add: Instr, live_out: frozenset[str],
                 last: dict) -> tuple[int, Instr] | None:
    """_fused for a product register written elsewhere too: the add is its only reader in
    this block between the multiply and its next write, and it is dead at the block's end
    when nothing writes it again here."""
    for pos in (0, 1):
        d, c = add.srcs[pos], add.srcs[1 - pos]
        if not (isinstance(d, Reg) and d.is_virtual) or d == c or not _may_be_product(add, d, last):
            continue
        k = next((k for k in range(i - 1, -1, -1) if d in instrs[k].dsts), None)
        if k is None:
            continue
        mul = instrs[k]
        if mul.op != "IMUL" or mul.guard is not None or mul.mods != add.mods or len(mul.dsts) != 1:
            continue
        operands = {r for r in mul.srcs if isinstance(r, Reg)}
        if any(operands & set(between.dsts) or d in between.uses() for between in instrs[k + 1:i]):
            continue
        if _dead_after(instrs, i, d, live_out):
            return k, replace(add, op="IMAD", srcs=(mul.srcs[0], mul.srcs[1], c))
    return None


def _dead_after(instrs: list[Instr], i: int, reg: Reg, live_out: frozenset[str]) -> bool:
    """No instruction after instrs[i] reads reg before an unguarded write of it (instrs[i]'s
    own write included), and reg is not live out of the block when nothing here writes it."""
    if reg in instrs[i].dsts:
        return True
    for later in instrs[i + 1:]:
        if reg in later.uses():
            return False
        if reg in later.dsts and later.guard is None:
            return True
    return reg.name not in live_out

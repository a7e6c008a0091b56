"""sink-select: an if-else whose arms compute the same instruction, differing in one
operand, becomes a select of that operand and one copy of the instruction.

As LLVM's SimplifyCFG sinks a common instruction into the join (building a phi of
the operand that differs, which becomes a select): `if (c) x = x + 1.0f; else x =
x - 1.0f;` is `FSEL %f, 1.0, -1.0, c` and one `FADD x, x, %f`, with no branch left,
as nvcc -O3 builds it.  A subtraction of a float constant is first read as the
addition of the negated constant (LLVM's canonical form: `x - C` is `x + -C`, bit
for bit, signed zeros and NaNs included), so `x + 1` and `x - 1` match.

The shape taken: a hammock with two arms, each one pure instruction, optionally
followed by a copy of its result into the register both arms assign; the
instruction's result register, when copied, is read nowhere else.  The select
is placed above the branch, the instruction in the join; both arms are left
empty and the branch is removed (simplify-cfg and dce drop the empty arms).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import Function, Imm, Instr, Reg
from minicuda.passes.cfg import build_cfg, conditional_branch
from minicuda.passes.hammock import Hammock, body, find_hammock
from minicuda.passes.rewrite import FreshRegisters
from minicuda.semantics import source_widths

_SINKABLE_FAMILIES = ("int", "float")
_NEGATED_FORM = {"FSUB": "FADD", "DSUB": "DADD"}


def canonical(ins: Instr) -> Instr:
    """`FSUB d, a, C` as `FADD d, a, -C` (and DSUB so): LLVM's form of a subtraction of a constant."""
    if ins.op in _NEGATED_FORM and len(ins.srcs) == 2 and isinstance(ins.srcs[1], Imm) \
            and isinstance(ins.srcs[1].value, float):
        return replace(ins, op=_NEGATED_FORM[ins.op], srcs=(ins.srcs[0], Imm(-ins.srcs[1].value)))
    return ins


def _arm_shape(fn: Function, label: str) -> tuple[Instr, Reg] | None:
    """(the arm's instruction, the register the arm assigns) or None for another shape."""
    arm = body(fn, label)
    if not arm or len(arm) > 2:
        return None
    ins = arm[0]
    row = ins.info
    if row.eval not in _SINKABLE_FAMILIES or ins.guard is not None or len(ins.dsts) != 1:
        return None
    if len(arm) == 1:
        return ins, ins.dsts[0]
    copy = arm[1]
    if copy.op != "MOV" or copy.guard is not None or copy.srcs != (ins.dsts[0],) or copy.mods:
        return None
    temp = ins.dsts[0]
    if temp in ins.uses() or temp.is_wide or _read_elsewhere(fn, temp, copy):
        return None
    return ins, copy.dsts[0]


def _read_elsewhere(fn: Function, reg: Reg, reader: Instr) -> bool:
    return reg in fn.rets or any(reg in ins.uses() for ins in fn.instructions() if ins is not reader)


def _one_difference(x: Instr, y: Instr) -> int | None:
    """The index of the only source operand in which x and y differ."""
    if (x.op, x.mods, len(x.srcs)) != (y.op, y.mods, len(y.srcs)):
        return None
    differ = [i for i, (a, b) in enumerate(zip(x.srcs, y.srcs)) if a != b]
    if len(differ) != 1 or not all(isinstance(s, (Reg, Imm)) for s in (x.srcs[differ[0]], y.srcs[differ[0]])):
        return None
    return differ[0]


@dataclass(frozen=True)
class SinkSelect:
    name: str = "sink-select"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        for head in [b.label for b in fn.blocks]:
            cfg = analyses.get("cfg") if not changed else build_cfg(fn)
            hammock = find_hammock(fn, cfg, head)
            if hammock is not None and hammock.other is not None \
                    and sorted(cfg.preds(hammock.join)) == sorted([hammock.then, hammock.other]):
                changed |= self.sink(fn, hammock)
        return changed

    def sink(self, fn: Function, h: Hammock) -> bool:
        shapes = _arm_shape(fn, h.then), _arm_shape(fn, h.other)
        if None in shapes:
            return False
        (x, assigned), (y, other_assigned) = shapes
        x, y = canonical(x), canonical(y)
        k = _one_difference(x, y)
        if k is None or assigned != other_assigned or not assigned.is_virtual or any(
                not s.is_virtual for s in (x.srcs[k], y.srcs[k]) if isinstance(s, Reg)):
            return False
        head = fn.block(h.head)
        branch = conditional_branch(head)
        taken_first = (h.then == branch.target) != branch.guard_neg   # `then` runs when the guard holds
        when_true, when_false = (x.srcs[k], y.srcs[k]) if taken_first else (y.srcs[k], x.srcs[k])
        width = source_widths(x)[k]
        chosen = FreshRegisters(fn).new("rd" if width == 64 else "r")
        select = Instr("FSEL" if x.info.eval == "float" and width == 32 else "SEL", ("64",) if width == 64 else (),
                       (chosen,), (when_true, when_false, branch.guard), loc=branch.loc)
        srcs = list(x.srcs)
        srcs[k] = chosen
        head.instrs[head.instrs.index(branch)] = select
        for label in (h.then, h.other):
            block = fn.block(label)
            block.instrs = block.instrs[len(body(fn, label)):]
        fn.block(h.join).instrs.insert(0, replace(x, dsts=(assigned,), srcs=tuple(srcs)))
        return True

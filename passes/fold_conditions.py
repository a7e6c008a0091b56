"""fold-conditions: a short-circuit condition whose later operand is cheap and does not
load becomes one predicate, as LLVM's SimplifyCFG folds it (FoldBranchToCommonDest)
before ptxas sees the code.

The shape: a block B whose only predecessor P ends in a conditional branch to B and
to D, where B's own conditional branch also leads to D (`a && b`: both go to the
else side when false; `a || b`: both go to the then side when true).  B's code
before its branch is at most two instructions, pure arithmetic or comparisons (no
load, no division, nothing with side effects), writing registers that no path from D
reads before writing them (LLVM clones such "bonus" instructions into P whatever else
reads them; here a register may be written more than once, as in an unrolled loop, so
what matters is that P -> D does not carry it), so running it on every path changes
nothing.  B's code moves into P, the
two conditions are combined with PLOP.AND (PNOT where a side is negated), and P
branches once.  `(t % 3 == 0 && v > 0) || v < -5` is one predicate and one branch,
which if-conversion then weighs as one if-else (the GPU's `ISETP.GT.AND`,
`ISETP.EQ.AND P0, ..., P0`, `ISETP.LT.OR`: no branch).  An operand that loads keeps
its branch (`t > 10 && in[t] > 0`: the GPU's `@!P0 BRA`).

Loops are left alone (a loop's tests are loop-unroll's), and so is a head on a
cycle.  The folded branch gets a BranchDecision saying into which branch it went.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from minicuda.ir import BranchDecision, Function, Instr, Label, Reg
from minicuda.passes.cfg import EXIT, conditional_branch, strongly_connected
from minicuda.passes.rewrite import FreshRegisters

MAX_OPERAND_INSTRUCTIONS = 2          # LLVM's bonus-instruction allowance, with the compare
_EXPENSIVE = frozenset({"IDIV", "IREM", "MUFU", "DDIV", "FDIV"})


def _speculatable(ins: Instr) -> bool:
    row = ins.info
    return (row.kind in ("alu", "cmp") and not row.side_effects and not row.store and ins.guard is None
            and ins.op not in _EXPENSIVE and all(d.is_virtual for d in ins.dsts))


def _dead_on_entry(fn: Function, analyses, label: str, regs: set[str]) -> bool:
    """No path from block `label`'s entry reads one of `regs` before writing it (so running
    their writes on the way there changes nothing), and none is returned or physical."""
    if any(r.name in regs for r in fn.rets) or any(r[:1] != "%" for r in regs):
        return False
    return not regs & analyses.get("liveness").live_in[label]


def _goes_to(branch: Instr, target: str) -> tuple[Reg, bool]:
    """(predicate, negated) that holds exactly when the block ending in `branch` goes to target."""
    return (branch.guard, branch.guard_neg) if branch.target == target else (branch.guard, not branch.guard_neg)


@dataclass(frozen=True)
class FoldConditions:
    name: ClassVar[str] = "fold-conditions"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        while True:
            cfg = analyses.get("cfg")
            cycles = strongly_connected(cfg)   # a successor in the branch's component leads back to it
            for block in fn.blocks:
                if self.fold(fn, cfg, cycles, analyses, block.label):
                    analyses.invalidate()
                    changed = True
                    break
            else:
                break
        return changed

    def fold(self, fn: Function, cfg, cycles: dict[str, set[str]], analyses, p_label: str) -> bool:
        p = fn.block(p_label)
        p_branch = conditional_branch(p)
        p_succs = cfg.succs(p_label)
        if p_branch is None or len(p_succs) != 2 or EXIT in p_succs or any(s in cycles[p_label] for s in p_succs):
            return False
        for b_label in p_succs:
            d_label = p_succs[0] if b_label == p_succs[1] else p_succs[1]
            if b_label == d_label or cfg.preds(b_label) != [p_label]:
                continue
            b = fn.block(b_label)
            b_branch = conditional_branch(b)
            b_succs = cfg.succs(b_label)
            if b_branch is None or len(b_succs) != 2 or d_label not in b_succs or EXIT in b_succs:
                continue
            cut = b.instrs.index(b_branch)
            operand = b.instrs[:cut]
            if len(operand) > MAX_OPERAND_INSTRUCTIONS or not all(_speculatable(i) for i in operand):
                continue
            written = {d.name for i in operand for d in i.dsts}
            if p_branch.guard.name in written or not _dead_on_entry(fn, analyses, d_label, written):
                continue
            e_label = b_succs[0] if b_succs[1] == d_label else b_succs[1]
            uniform = analyses.get("divergence").branch_is_uniform(b_label)
            self.rewrite(fn, p, p_branch, b, b_branch, operand, d_label, e_label, uniform)
            return True
        return False

    def rewrite(self, fn, p, p_branch, b, b_branch, operand, d_label, e_label, uniform: bool) -> None:
        fresh = FreshRegisters(fn)
        loc = p_branch.loc
        code: list[Instr] = list(operand)

        def positive(pred: Reg, neg: bool) -> Reg:
            if not neg:
                return pred
            out = fresh.new("p")
            code.append(Instr("PNOT", (), (out,), (pred,), loc=loc))
            return out

        to_b = positive(*_goes_to(p_branch, b.label))
        to_e = positive(*_goes_to(b_branch, e_label))
        both = fresh.new("p")
        code.append(Instr("PLOP", ("AND",), (both,), (to_b, to_e), loc=loc))
        cut = p.instrs.index(p_branch)
        order = [blk.label for blk in fn.blocks]
        fn.blocks.remove(b)
        order.remove(b.label)
        after = order[order.index(p.label) + 1] if order.index(p.label) + 1 < len(order) else None
        if after == e_label:
            tail = [Instr("BRA", srcs=(Label(d_label),), guard=both, guard_neg=True, loc=loc)]
        else:
            tail = [Instr("BRA", srcs=(Label(e_label),), guard=both, loc=loc)]
            if after != d_label:
                tail.append(Instr("BRA", srcs=(Label(d_label),), loc=loc))
        p.instrs = p.instrs[:cut] + code + tail
        bl = b_branch.loc
        here = f"{loc.line}:{loc.col}" if loc else "?"
        fn.branch_decisions = fn.branch_decisions + [BranchDecision(
            bl.file if bl else "<unknown>", bl.line if bl else 0, fn.name, uniform, len(operand), 0, True,
            f"predicated: folded into the branch at {here} (a short-circuit operand of "
            f"{len(operand)} instruction{'s' if len(operand) != 1 else ''} that does not load: one predicate, PLOP)",
            bl.col if bl else 0)]

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

from minicuda.ir import BranchDecision, Function, Imm, Instr, Label, Reg
from minicuda.passes.cfg import EXIT, conditional_branch, strongly_connected
from minicuda.passes.hammock import body
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


# ---- two compares of one value with constants: one range check ------------------------------
_BITS = 32
_DOMAIN = {"S32": (-(1 << 31), 1 << 31), "U32": (0, 1 << 32)}


def _interval(cmp: str, c: int, kind: str, negated: bool) -> list[tuple[int, int]]:
    """The values x of the type `kind` for which `x CMP c` holds (fails, when negated), as
    half-open intervals."""
    low, high = _DOMAIN[kind]
    cut = {"LT": [(low, c)], "LE": [(low, c + 1)], "GT": [(c + 1, high)], "GE": [(c, high)],
           "EQ": [(c, c + 1)], "NE": [(low, c), (c + 1, high)]}[cmp]
    cut = [(max(a, low), min(b, high)) for a, b in cut if max(a, low) < min(b, high)]
    return _complement(cut, kind) if negated else cut


def _complement(parts: list[tuple[int, int]], kind: str) -> list[tuple[int, int]]:
    low, high = _DOMAIN[kind]
    out, at = [], low
    for a, b in sorted(parts):
        if a > at:
            out.append((at, a))
        at = max(at, b)
    return out + ([(at, high)] if at < high else [])


def _intersect(x: list[tuple[int, int]], y: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(max(a, c), min(b, d)) for a, b in x for c, d in y if max(a, c) < min(b, d)]


def _compare_of(block_instrs: list[Instr], pred: Reg):
    """(value, CMP, constant, type) of the last ISETP writing `pred` in the list, with the value
    read through the list's register copies; None for another writer."""
    writer = next((i for i in reversed(block_instrs) if pred in i.dsts), None)
    if writer is None or writer.op != "ISETP" or writer.guard is not None or len(writer.mods) != 2:
        return None
    cmp, kind = writer.mods
    value, c = writer.srcs
    if kind not in _DOMAIN or not isinstance(value, Reg) or not isinstance(c, Imm) or not isinstance(c.value, int):
        return None
    at = block_instrs.index(writer)
    if any(value in i.dsts for i in block_instrs[at + 1:]):
        return None
    return _copied_from(block_instrs[:at], value), cmp, c.value, kind


def _copied_from(instrs: list[Instr], reg: Reg) -> Reg:
    """The register `reg` is an unguarded copy of (through the list's MOVs), itself otherwise."""
    for k in range(len(instrs) - 1, -1, -1):
        ins = instrs[k]
        if reg in ins.dsts:
            src = ins.srcs[0] if ins.op == "MOV" and not ins.mods and ins.guard is None else None
            if isinstance(src, Reg) and not any(src in i.dsts for i in instrs[k + 1:]):
                return _copied_from(instrs[:k], src)
            return reg
    return reg


def _range_check(p, p_branch: Instr, to_b: tuple[Reg, bool], operand: list[Instr], b_branch: Instr,
                 to_e: tuple[Reg, bool], both: Reg, fresh, loc) -> list[Instr] | None:
    """`x >= 10 && x < 20` (and `x < 10 || x >= 20`, and every pair of compares of one value
    with constants whose values form one interval or the complement of one) as one unsigned
    compare of `x - 10` with 10, as LLVM's InstCombine folds two compares into a range check
    (foldAndOrOfICmpsUsingRanges: the GPU's `VIADD R4, R0, -0x28; ISETP.GE.U32 P0, PT, R4, 0xa`)
    before SimplifyCFG weighs the operand (one add and one compare: within the bonus allowance).
    None when the two compares are not of that shape."""
    first = _compare_of(p.instrs[:p.instrs.index(p_branch)], to_b[0])
    second = _compare_of(operand, to_e[0])
    if first is None or second is None or first[3] != second[3]:
        return None
    x, kind = first[0], first[3]
    if _copied_from(p.instrs[:p.instrs.index(p_branch)], second[0]) != x or any(x in i.dsts for i in operand):
        return None
    inside = _intersect(_interval(first[1], first[2], kind, to_b[1]), _interval(second[1], second[2], kind, to_e[1]))
    low, high = _DOMAIN[kind]
    outside = _complement(inside, kind)
    for parts, cmp_in, cmp_out in ((inside, "LT", "GE"), (outside, "GE", "LT")):
        if len(parts) != 1 or not inside or not outside:
            continue
        a, b = parts[0]
        if a == low:
            return [Instr("ISETP", (cmp_in, kind), (both,), (x, Imm(b)), loc=loc)]
        if b == high:
            return [Instr("ISETP", (cmp_out, kind), (both,), (x, Imm(a)), loc=loc)]
        if b - a >= 1 << 31:
            return None
        shifted = fresh.new("r")
        offset = ((-a + (1 << 31)) % (1 << _BITS)) - (1 << 31)
        return [Instr("IADD", ("S32",), (shifted,), (x, Imm(offset)), loc=loc),
                Instr("ISETP", (cmp_in, "U32"), (both,), (shifted, Imm(b - a)), loc=loc)]
    return None


@dataclass(frozen=True)
class FoldConditions:
    name: ClassVar[str] = "fold-conditions"

    def run(self, fn: Function, analyses) -> bool:
        changed = False
        while True:
            cfg = analyses.get("cfg")
            cycles = strongly_connected(cfg)   # a successor in the branch's component leads back to it
            for block in fn.blocks:
                if self.fold(fn, cfg, cycles, analyses, block.label) \
                        or speculate_into_select(fn, cfg, cycles, analyses, block.label):
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

        both = fresh.new("p")
        check = _range_check(p, p_branch, _goes_to(p_branch, b.label), operand, b_branch,
                             _goes_to(b_branch, e_label), both, fresh, loc)
        if check is not None:   # the two compares, read by the branches only, are replaced
            for pred, instrs in ((_goes_to(b_branch, e_label)[0], code), (_goes_to(p_branch, b.label)[0], p.instrs)):
                if sum(pred in i.uses() for i in fn.instructions()) == 1 and pred not in fn.rets:
                    instrs.remove(next(i for i in reversed(instrs) if pred in i.dsts))
            code += check
        else:
            to_b = positive(*_goes_to(p_branch, b.label))
            to_e = positive(*_goes_to(b_branch, e_label))
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


# ---- a block of one cheap instruction that two branches share: a select -----------------------
MAX_SPECULATED = 1    # SpeculativelyExecuteBB: one instruction besides the phis' copies


def speculate_into_select(fn: Function, cfg, cycles: dict[str, set[str]], analyses, b_label: str) -> bool:
    """B ends in a conditional branch to T and J, where T goes on to J and holds only copies
    (LLVM's phi operands) or, where T has other predecessors (no if-then arm of B), at most one
    cheap instruction that does not load besides them: B computes T's instruction into a fresh register
    and selects each register T writes (SEL), then jumps to J.  LLVM's SpeculativelyExecuteBB
    does this before ptxas sees the code: `if (x < 5 || in[i + 1] > 40) k = 1;` leaves the
    branch of the first term, whose arm (the load, the compare and a SEL of 1) ptxas predicates
    (the GPU's `@P1 LDG`, `@P1 ISETP`, `@P1 SEL R7, RZ, 0x1, !P0`: no branch)."""
    b = fn.block(b_label)
    branch = conditional_branch(b)
    succs = cfg.succs(b_label)
    if branch is None or len(succs) != 2 or EXIT in succs or any(s in cycles[b_label] for s in succs):
        return False
    for t_label in succs:
        j_label = succs[0] if t_label == succs[1] else succs[1]
        if t_label == j_label or cfg.succs(t_label) != [j_label]:
            continue
        t_body = body(fn, t_label)
        if not t_body or any(not _speculatable(i) or len(i.dsts) != 1 or i.dsts[0].is_pred for i in t_body):
            continue
        work = [i for i in t_body if not (i.op == "MOV" and not i.mods)]
        if work and cfg.preds(t_label) == [b_label]:
            continue   # an if-then of its own: if-conversion predicates it (a SEL would add an instruction)
        if len(work) > MAX_SPECULATED or branch.guard in {d for i in t_body for d in i.dsts}:
            continue
        written = [i.dsts[0] for i in t_body]
        if len(set(written)) != len(written) or any(r in i.uses() for i in t_body for r in written):
            continue   # one value per register, none read by T after it is written
        _select_in(fn, b, branch, t_label, t_body, j_label, analyses)
        return True
    return False


def _select_in(fn: Function, b, branch: Instr, t_label: str, t_body: list[Instr], j_label: str, analyses) -> None:
    fresh = FreshRegisters(fn)
    loc = branch.loc
    to_t, neg = _goes_to(branch, t_label)
    code: list[Instr] = []
    for ins in t_body:
        d = ins.dsts[0]
        if ins.op == "MOV" and not ins.mods:
            value = ins.srcs[0]
        else:
            value = fresh.new("rd" if d.is_wide else "r")
            code.append(replace(ins, dsts=(value,)))
        chosen, other = (d, value) if neg else (value, d)
        code.append(Instr("SEL", ("64",) if d.is_wide else (), (d,), (chosen, other, to_t), loc=ins.loc))
    cut = b.instrs.index(branch)
    b.instrs = b.instrs[:cut] + code + [Instr("BRA", srcs=(Label(j_label),), loc=loc)]
    here = f"{loc.line}:{loc.col}" if loc else "?"
    fn.branch_decisions = fn.branch_decisions + [BranchDecision(
        loc.file if loc else "<unknown>", loc.line if loc else 0, fn.name,
        analyses.get("divergence").branch_is_uniform(b.label), len(code), 0, True,
        f"predicated: a select at {here} (the branch's target holds one cheap instruction other branches share: "
        f"it runs here and SEL picks the value, as LLVM's SpeculativelyExecuteBB)", loc.col if loc else 0)]

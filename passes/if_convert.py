"""if-convert: short hammocks become predicated straight-line code.

The rule, after the seed notes on nvcc: a branch guaranteed not to diverge (its
condition is uniform) is predicated when its arms together hold fewer than 4
instructions; one that may diverge when they hold fewer than 7 (both thresholds are
options; `--predication-rule=guide` reads them as <= 4 and <= 7).  Arms are counted
after cleanup, without the branch and jumps themselves.

A hammock is an if-then or if-then-else with one entry and one exit, or an if-then
whose arm leaves the function (`if (t >= n) return;`, which becomes `@P EXIT`).  It
is not converted when an arm holds a barrier or warp-synchronous instruction, a
call, an instruction already predicated, or writes its own condition.  Stores and
loads are guarded, never speculated, so no access runs that would not have run.

Every conditional branch gets a `BranchDecision`, the record users and tests read.
Conversion takes the first convertible branch in layout order, again and again; a
branch decided and kept is decided again only when a conversion touched what its
decision reads (its neighbourhood or its uniformity), so a sweep is not repeated
over the whole function after each conversion.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import BranchDecision, Function, Instr, Label
from minicuda.passes.cfg import conditional_branch
from minicuda.passes.hammock import body, hammock_arms
from minicuda.passes.loops import as_loop_exit, instructions, natural_loops

_BLOCKERS = {"sync": "a barrier", "MEMBAR": "a memory fence", "warp": "a warp-synchronous instruction", "call": "a call",
             "marker": "a reconvergence marker"}


def _blocker(instrs: list[Instr], guard) -> str | None:
    for ins in instrs:
        kind = "MEMBAR" if ins.op == "MEMBAR" else ins.info.kind
        if kind in _BLOCKERS:
            return f"{_BLOCKERS[kind]} ({ins.opcode}) in an arm blocks conversion"
        if ins.op == "BRA":
            return "an arm holds a branch"
        if ins.guard is not None:
            return "an arm holds an instruction that is already predicated"
        if guard in ins.dsts:
            return "an arm redefines the branch condition"
    return None


def _forget_touched(kept: dict[str, bool], analyses, head: str, join: str) -> None:
    """After converting the hammock at `head`, drop the kept decisions its conversion may
    change: a decision reads its branch's uniformity, its block's successors and their
    predecessors, successors and code, so it is stale where the uniformity changed or a
    successor is the head (whose code changed) or the join (whose predecessors did)."""
    cfg, divergence = analyses.get("cfg"), analyses.get("divergence")
    for label in [head, *cfg.preds(head), *cfg.preds(join)]:
        kept.pop(label, None)
    for label, uniform in list(kept.items()):
        if divergence.branch_is_uniform(label) != uniform:
            del kept[label]


@dataclass(frozen=True)
class IfConvert:
    options: object = None
    name: str = "if-convert"

    def run(self, fn: Function, analyses) -> bool:
        decisions: dict[int, BranchDecision] = {}
        kept: dict[str, bool] = {}   # head -> its branch's uniformity, for a branch decided and kept
        changed_any = False
        while True:
            converted = False
            for head in [b.label for b in fn.blocks]:
                if head in kept:
                    continue
                branch = conditional_branch(fn.block(head))
                if branch is None:
                    continue
                cfg, divergence = analyses.get("cfg"), analyses.get("divergence")   # (none without a branch)
                decision, plan = self.decide(fn, cfg, divergence, head, branch)
                decisions[id(branch)] = (branch, decision)  # the branch is kept alive with its record
                if plan is None:
                    kept[head] = decision.uniform
                    continue
                self.convert(fn, head, branch, *plan)
                analyses.invalidate()
                if kept:
                    _forget_touched(kept, analyses, head, plan[1])
                converted = changed_any = True
                break
            if not converted:
                break
        if any(not d.predicated for _, d in decisions.values()):
            self.mark_loop_exits(fn, analyses.get("cfg"), decisions)
        loops = {(d.file, d.line, d.column) for d in fn.branch_decisions if d.loop}   # (loop-unroll's records)
        fn.branch_decisions = fn.branch_decisions + [d for _, d in decisions.values()
                                                     if (d.file, d.line, d.column) not in loops]
        return changed_any

    def mark_loop_exits(self, fn: Function, cfg, decisions: dict) -> None:
        """The kept branches that leave a loop get a loop's record (once, after the sweeps)."""
        heads = {id(conditional_branch(b)): b.label for b in fn.blocks if conditional_branch(b) is not None}
        loops = natural_loops(cfg)
        for key, (branch, decision) in decisions.items():
            if not decision.predicated and id(branch) in heads:
                decisions[key] = (branch, as_loop_exit(fn, cfg, loops, heads[id(branch)], branch, decision))

    def decide(self, fn: Function, cfg, divergence, head: str, branch: Instr):
        uniform = divergence.branch_is_uniform(head)
        loc = branch.loc
        record = lambda count, threshold, ok, reason: BranchDecision(
            loc.file if loc else "<unknown>", loc.line if loc else 0, fn.name, uniform, count, threshold, ok, reason,
            loc.col if loc else 0)
        shape = hammock_arms(fn, cfg, head)
        _, threshold = self.options.predicates(0, uniform)
        if shape is None:
            return record(0, threshold, False, "kept: not an if-then or if-then-else hammock (a larger region)"), None
        arms, join, negated_arm = shape
        instrs = [i for arm in arms for i in body(fn, arm)]
        count = len(instrs)
        ok, threshold = self.options.predicates(count, uniform)
        kind = "uniform" if uniform else "divergent"
        blocker = _blocker(instrs, branch.guard)
        if blocker:
            return record(count, threshold, False, f"kept: {blocker}"), None
        if not ok:
            sign = ">" if self.options.rule == "guide" else ">="
            return record(count, threshold, False,
                          f"kept: {instructions(count)} {sign} {threshold} ({kind} threshold)"), None
        sign = "<=" if self.options.rule == "guide" else "<"
        return record(count, threshold, True, f"predicated: {instructions(count)} {sign} {threshold} ({kind} threshold)"), \
            (arms, join, negated_arm)

    def convert(self, fn: Function, head_label: str, branch: Instr, arms: list[str], join: str, _unused) -> None:
        head = fn.block(head_label)
        taken = branch.target
        idx = head.instrs.index(branch)
        tail = head.instrs[idx + 1:]
        head.instrs = head.instrs[:idx]
        for arm in arms:
            runs_when_taken = arm == taken
            neg = branch.guard_neg if runs_when_taken else not branch.guard_neg
            instrs = body(fn, arm)  # without its closing jump; an exit arm keeps its EXIT
            for ins in instrs:
                head.instrs.append(replace(ins, guard=branch.guard, guard_neg=neg))
            fn.blocks.remove(fn.block(arm))
        del tail  # the jumps the branch needed are gone with it
        order = [b.label for b in fn.blocks]
        if order.index(head_label) + 1 >= len(order) or order[order.index(head_label) + 1] != join:
            head.instrs.append(Instr("BRA", srcs=(Label(join),), loc=branch.loc))


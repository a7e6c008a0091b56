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

ptxas never branches to a block that only exits: a conditional branch to one is a
predicated EXIT, whatever the other side holds.  So a branch whose one target only exits
is `@P EXIT`, the other target running next, before its arms are weighed: `if (i < n)
{ ...the rest of the kernel... }` is `@!P0 EXIT` on the GPU (a bounds check around an
if-else, bitonic_step's `if (ixj > i)` and its swaps, `if (tid == 0) out[b] = s[0];`
after a reduction).  Once the branches are decided, a jump to such a block is an EXIT
of its own (ptxas duplicates the exit into the blocks that jump to it: bitonic_step's
swap ends `STG; STG; EXIT`, not `BRA` to a shared exit).

Every conditional branch gets a `BranchDecision`, the record users and tests read.
Conversion takes the first convertible branch in layout order, again and again; a
branch decided and kept is decided again only when a conversion touched what its
decision reads (its neighbourhood or its uniformity), so a sweep is not repeated
over the whole function after each conversion.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from minicuda.ir import BranchDecision, Function, Instr, Label
from minicuda.passes.cfg import EXIT, build_cfg, conditional_branch, immediate_dominators
from minicuda.passes.hammock import body, hammock_arms
from minicuda.passes.rewrite import FreshRegisters
from minicuda.passes.loops import as_loop_exit, instructions, natural_loops, reaches

_BLOCKERS = {"sync": "a barrier", "MEMBAR": "a memory fence", "warp": "a warp-synchronous instruction", "call": "a call",
             "marker": "a reconvergence marker"}


def _blocker(instrs: list[Instr], guard, switch: bool = False) -> str | None:
    nested = any(ins.guard is not None for ins in instrs)
    if nested and switch:
        return "a switch's comparison around predicated code (a switch is a compare tree, only its last test is if-converted)"
    for ins in instrs:
        kind = "MEMBAR" if ins.op == "MEMBAR" else ins.info.kind
        if kind in _BLOCKERS:
            return f"{_BLOCKERS[kind]} ({ins.opcode}) in an arm blocks conversion"
        if ins.op == "BRA":
            return "an arm holds a branch"
        if nested and (ins.info.kind in ("mem", "atomic") or ins.info.store):
            return "an arm holds predicated code and a memory access (ptxas keeps such a nest's outer branch)"
        if guard in ins.dsts:
            return "an arm redefines the branch condition"
    return None


_GUARD_LOGIC = ("PLOP", "PNOT")   # not counted: SASS folds them into the ISETP that sets one operand


def _guarded(instrs: list[Instr], guard, neg: bool, fresh, loc) -> list[Instr]:
    """`instrs` run only when `guard` (negated if `neg`) holds.  An instruction already
    predicated (an inner hammock converted before) runs under both conditions: a PLOP.AND of
    the two (PNOT of a negated side), computed where it is needed and reused until the inner
    predicate is written again."""
    out: list[Instr] = []
    outer = None
    combined: dict[tuple[str, bool], object] = {}
    for ins in instrs:
        if ins.guard is None:
            out.append(replace(ins, guard=guard, guard_neg=neg))
        else:
            key = (ins.guard.name, ins.guard_neg)
            if key not in combined:
                if outer is None:
                    outer = guard
                    if neg:
                        outer = fresh.new("p")
                        out.insert(0, Instr("PNOT", (), (outer,), (guard,), loc=loc))
                inner = ins.guard
                if ins.guard_neg:
                    inner = fresh.new("p")
                    out.append(Instr("PNOT", (), (inner,), (ins.guard,), loc=loc))
                both = fresh.new("p")
                out.append(Instr("PLOP", ("AND",), (both,), (outer, inner), loc=loc))
                combined[key] = both
            out.append(replace(ins, guard=combined[key], guard_neg=False))
        for d in ins.dsts:
            for key in [k for k in combined if k[0] == d.name]:
                del combined[key]
    return out


def _coalesce_copies(fn: Function, label: str) -> None:
    """`X t, ...; MOV r, t` as `X r, ...` where t is written by X and read by the copy only
    (register allocation would coalesce them; the arm is counted without the copy)."""
    instrs = fn.block(label).instrs
    i = 0
    while i + 1 < len(instrs):
        x, copy = instrs[i], instrs[i + 1]
        if copy.op == "MOV" and copy.guard is None and x.guard is None and len(x.dsts) == 1 \
                and copy.srcs == x.dsts and x.dsts[0].is_virtual and copy.dsts[0].is_virtual \
                and not x.dsts[0].is_pred and not copy.dsts[0].is_pred and x.dsts[0].is_wide == copy.dsts[0].is_wide \
                and x.info.kind in ("alu", "conv") and _only_here(fn, x.dsts[0], x, copy):
            instrs[i:i + 2] = [replace(x, dsts=copy.dsts)]
        else:
            i += 1


def _only_here(fn: Function, reg, writer: Instr, reader: Instr) -> bool:
    if reg in fn.rets:
        return False
    for ins in fn.instructions():
        if ins is writer or ins is reader:
            continue
        if reg in ins.dsts or reg in ins.uses():
            return False
    return True


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
                join = plan[1]
                analyses.invalidate()
                if kept:
                    _forget_touched(kept, analyses, head, join)
                converted = changed_any = True
                break
            if not converted:
                break
        changed_any |= _exits_for_jumps(fn)
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
        decision, plan = self.weigh(fn, cfg, divergence, head, branch)
        target = _exit_only_target(fn, cfg, head)
        if target is not None and (not isinstance(plan, tuple) or plan[0] != [target]):
            if decision.predicated:
                why = f"its arms would be predicated: {decision.reason.removeprefix('predicated: ')}"
            else:
                why = f"as a branch it was kept: {decision.reason.removeprefix('kept: ')}"
            return replace(decision, predicated=True, reason=f"predicated EXIT: the branch's target only exits "
                                                              f"(ptxas's @P EXIT; {why})"), ("exit", target)
        return decision, (None if plan == "size" else plan)

    def weigh(self, fn: Function, cfg, divergence, head: str, branch: Instr):
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
        if len(arms) == 1 and negated_arm is None and _loads_anew(fn, head, arms[0]) \
                and _short_circuit_target(cfg, head, arms[0], join):
            return record(0, threshold, False, "kept: an if-then arm that loads, whose join the branches of earlier "
                                               "operands also reach (a short-circuit's shared target: ptxas keeps "
                                               "its branch)"), None
        for arm in arms:
            _coalesce_copies(fn, arm)
        instrs = [i for arm in arms for i in body(fn, arm)]
        count = sum(1 for i in instrs if i.op not in _GUARD_LOGIC)
        ok, threshold = self.options.predicates(count, uniform)
        kind = "uniform" if uniform else "divergent"
        switch = loc is not None and (loc.file, loc.line, loc.col) in fn.switch_cases
        blocker = _blocker(instrs, branch.guard, switch)
        if switch and uniform and not blocker:
            blocker = "a uniform switch's comparison (ptxas keeps a switch's compare tree where it cannot diverge)"
        if blocker:
            return record(count, threshold, False, f"kept: {blocker}"), None
        if not ok:
            sign = ">" if self.options.rule == "guide" else ">="
            return record(count, threshold, False,
                          f"kept: {instructions(count)} {sign} {threshold} ({kind} threshold)"), "size"
        sign = "<=" if self.options.rule == "guide" else "<"
        return record(count, threshold, True, f"predicated: {instructions(count)} {sign} {threshold} ({kind} threshold)"), \
            (arms, join, negated_arm)

    def convert(self, fn: Function, head_label: str, branch: Instr, *plan) -> None:
        if plan[0] == "exit":
            self.exit_instead(fn, head_label, branch, plan[1])
            return
        arms, join, _ = plan
        head = fn.block(head_label)
        taken = branch.target
        idx = head.instrs.index(branch)
        tail = head.instrs[idx + 1:]
        head.instrs = head.instrs[:idx]
        fresh = FreshRegisters(fn)
        for arm in arms:
            runs_when_taken = arm == taken
            neg = branch.guard_neg if runs_when_taken else not branch.guard_neg
            instrs = body(fn, arm)  # without its closing jump; an exit arm keeps its EXIT
            head.instrs += _guarded(instrs, branch.guard, neg, fresh, branch.loc)
            fn.blocks.remove(fn.block(arm))
        del tail  # the jumps the branch needed are gone with it
        order = [b.label for b in fn.blocks]
        if order.index(head_label) + 1 >= len(order) or order[order.index(head_label) + 1] != join:
            head.instrs.append(Instr("BRA", srcs=(Label(join),), loc=branch.loc))


    def exit_instead(self, fn: Function, head_label: str, branch: Instr, target: str) -> None:
        """The branch to `target`, a block that only exits, as a guarded EXIT; the other
        successor runs next (a jump to it where it is not the next block)."""
        head = fn.block(head_label)
        others = [s for s in build_cfg(fn).succs(head_label) if s != target]
        idx = head.instrs.index(branch)
        neg = branch.guard_neg if branch.target == target else not branch.guard_neg
        head.instrs = head.instrs[:idx] + [Instr("EXIT", guard=branch.guard, guard_neg=neg, loc=branch.loc),
                                           Instr("BRA", srcs=(Label(others[0]),), loc=branch.loc)]


def _loads_anew(fn: Function, head: str, arm: str) -> bool:
    """The arm reads memory at an address the head did not just read (a reload of the head's
    load is the value LLVM's GVN reuses: no load in the PTX)."""
    seen = {ins.srcs[0] for ins in fn.block(head).instrs if ins.info.kind == "mem" and not ins.info.store and ins.srcs}
    return any(ins.info.kind == "mem" and not ins.info.store and ins.srcs and ins.srcs[0] not in seen
               for ins in body(fn, arm))


def _short_circuit_target(cfg, head: str, arm: str, join: str) -> bool:
    """The if-then's join has predecessors besides the head and the arm, each of them a block
    that dominates the head: `a && b && in[i] > x` whose failing operands all branch to the one
    join (LLVM's land.end).  ptxas keeps such a branch around an arm that loads (the SASS of the
    probes cond_and_load3 and band_filter_logic: `@!P1 BRA` over the last operand's load and
    SEL); the same arm whose join only its own branch reaches is predicated (cond_and_load2), and
    so is an arm of arithmetic (and_cond's `@P0 LEA` after the load of `in[t] > 0`)."""
    others = set(cfg.preds(join)) - {head, arm}
    if not others:
        return False
    idom = immediate_dominators(cfg.entry, cfg.succs, cfg.preds)
    above, label = set(), head
    while label in idom and idom[label] != label:
        label = idom[label]
        above.add(label)
    return others <= above


def _exit_only_target(fn: Function, cfg, head: str) -> str | None:
    """The successor of `head`'s conditional branch that holds only an unguarded EXIT, where
    `head` is on no cycle (ptxas branches to an exit as a predicated EXIT)."""
    succs = cfg.succs(head)
    if len(succs) != 2 or EXIT in succs:
        return None
    target = next((s for s in succs if _only_exits(fn.block(s).instrs)), None)
    # the walks for a cycle (each as long as the function) only where a target only exits
    if target is None or any(reaches(cfg, s, head) for s in succs):
        return None
    return target


def _only_exits(instrs: list[Instr]) -> bool:
    return len(instrs) == 1 and instrs[0].op == "EXIT" and instrs[0].guard is None


def _exits_for_jumps(fn: Function) -> bool:
    """Every unguarded jump to a block that holds only an unguarded EXIT as an EXIT of its
    own; the block stays for the fall-through into it (dead-code removes it when none is left)."""
    exits = {b.label for b in fn.blocks if _only_exits(b.instrs)}
    changed = False
    for block in fn.blocks:
        last = block.instrs[-1] if block.instrs else None
        if last is not None and last.op == "BRA" and last.guard is None and last.target in exits:
            block.instrs[-1] = Instr("EXIT", loc=last.loc)
            changed = True
    return changed

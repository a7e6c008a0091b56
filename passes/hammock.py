"""Hammocks: the if-then and if-then-else regions that hoist-sink and if-conversion
rewrite, and that keep-branches measures.

A hammock hangs off the conditional branch that ends its head block: each arm has
the head as its only predecessor and one successor, the join (an if-then's join is
its other successor).  An exit arm is the other shape if-conversion takes: an
if-then whose arm leaves the function (`if (t >= n) return;`), from a head on no
cycle: a branch that leaves a loop is a loop exit, never an arm (nvcc keeps it a
branch; predicating it would move the code after the loop into the loop's body).  An arm's body is its
instructions without its closing jump.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.ir import Function, Instr
from minicuda.passes.cfg import EXIT, conditional_branch
from minicuda.passes.loops import reaches


@dataclass(frozen=True)
class Hammock:
    head: str
    then: str
    other: str | None     # the else arm, None for if-then
    join: str


def find_hammock(fn: Function, cfg, head_label: str) -> Hammock | None:
    """The if-then / if-then-else hammock whose conditional branch ends `head_label`."""
    succs = cfg.succs(head_label)
    if len(succs) != 2:
        return None
    a, b = succs
    for then, other in ((a, b), (b, a)):
        if _single_entry_exit(cfg, then, head_label):
            join = cfg.succs(then)[0]
            if join == "EXIT":  # arms that leave the function have no join to merge at
                continue
            if join == other:
                return Hammock(head_label, then, None, join)
            if _single_entry_exit(cfg, other, head_label) and cfg.succs(other)[0] == join:
                return Hammock(head_label, then, other, join)
    return None


def _single_entry_exit(cfg, label: str, head: str) -> bool:
    return label != "EXIT" and cfg.preds(label) == [head] and len(cfg.succs(label)) == 1 and cfg.succs(label)[0] != head


def body(fn: Function, label: str) -> list[Instr]:
    """The arm's instructions without its closing jump."""
    instrs = fn.block(label).instrs
    return instrs[:-1] if instrs and instrs[-1].op == "BRA" and instrs[-1].guard is None else list(instrs)


def exit_arm(fn: Function, cfg, head: str):
    """(arm, join) for `if (c) return;` (or `__trap()`): an arm whose only successor is the exit."""
    succs = cfg.succs(head)
    if len(succs) != 2:
        return None
    pairs = sorted((succs, succs[::-1]), key=lambda p: len(fn.block(p[0]).instrs) if p[0] != EXIT else 1 << 30)
    for arm, join in pairs:  # the shorter arm first: `if (c) return;` leaves the rest in place
        if arm != EXIT and cfg.preds(arm) == [head] and cfg.succs(arm) == [EXIT] and join != EXIT:
            instrs = fn.block(arm).instrs
            if instrs and instrs[-1].info.terminator and not instrs[-1].is_branch and instrs[-1].guard is None:
                return None if reaches(cfg, join, head) else (arm, join)
    return None


def hammock_arms(fn: Function, cfg, head: str):
    """(arms, join, which arm runs when the guard is false) of the branch ending `head`:
    an exit arm or a hammock's arms; None for any other shape."""
    branch = conditional_branch(fn.block(head))
    taken = branch.target
    arm_to_exit = exit_arm(fn, cfg, head)
    if arm_to_exit is not None:
        arm, join = arm_to_exit
        return [arm], join, arm != taken
    h = find_hammock(fn, cfg, head)
    if h is None:
        return None
    arms = [h.then] if h.other is None else [h.then, h.other]
    return arms, h.join, None

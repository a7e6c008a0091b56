"""keep-branches: the -O0 pipeline's record of every conditional branch, all kept.

Like nvcc -G, -O0 predicates nothing; each conditional branch still gets a
`BranchDecision` with the count and threshold if-conversion would have used (its
hammock's arms, passes/hammock.py), so `--report=predication` reads the same at
every level.
"""
from __future__ import annotations

from dataclasses import dataclass

from minicuda.ir import BranchDecision, Function
from minicuda.passes.cfg import conditional_branch
from minicuda.passes.hammock import body, hammock_arms
from minicuda.passes.loops import as_loop_exit, natural_loops


@dataclass(frozen=True)
class KeepBranches:
    """-O0 (like nvcc -G): every branch is kept; the records say so."""
    options: object = None
    name: str = "keep-branches"

    def run(self, fn: Function, analyses) -> bool:
        cfg, divergence = analyses.get("cfg"), analyses.get("divergence")
        out = []
        loops = natural_loops(cfg) if any(conditional_branch(b) is not None for b in fn.blocks) else []
        for b in fn.blocks:
            branch = conditional_branch(b)
            if branch is None:
                continue
            uniform = divergence.branch_is_uniform(b.label)
            shape = hammock_arms(fn, cfg, b.label)
            count = len([i for arm in shape[0] for i in body(fn, arm)]) if shape else 0
            _, threshold = self.options.predicates(count, uniform)
            loc = branch.loc
            record = BranchDecision(loc.file if loc else "<unknown>", loc.line if loc else 0, fn.name,
                                    uniform, count, threshold, False, "kept: -O0 keeps every branch", loc.col if loc else 0)
            out.append(as_loop_exit(fn, cfg, loops, b.label, branch, record))
        fn.branch_decisions = out
        return False

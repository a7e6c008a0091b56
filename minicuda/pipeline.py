"""The pass manager: analyses cached per function, passes by name, -O levels.

A pass is a frozen dataclass with a kebab-case `name` and `run(fn, analyses) ->
changed`.  Analyses (cfg, ipdom, divergence) are computed on demand through
`Analyses.get` and dropped whenever a pass reports a change; passes never compute
them by hand.  `run_pipeline` verifies the IR after every pass when asked, and
prints the function after the passes named in `print_after`.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

from minicuda.diagnostics import InternalError
from minicuda.ir import Function, Module, format_function, verify


def _analysis_table() -> dict[str, Callable]:
    from minicuda.passes.cfg import build_cfg
    from minicuda.passes.divergence import analyze_divergence
    from minicuda.passes.postdom import ipdom
    return {"cfg": build_cfg, "ipdom": ipdom, "divergence": analyze_divergence}


@dataclass
class Analyses:
    fn: Function
    module: Module | None = None
    cache: dict[str, object] = field(default_factory=dict)

    def get(self, name: str):
        if name not in self.cache:
            self.cache[name] = _analysis_table()[name](self.fn, self)
        return self.cache[name]

    def invalidate(self) -> None:
        self.cache.clear()


@dataclass
class Options:
    arch: int = 70                     # sm number
    opt: int = 3
    uniform_threshold: int = 4         # predicate a uniform branch when instructions < this
    divergent_threshold: int = 7       # ... a possibly divergent one when < this
    rule: str = "seed"                 # seed: < thresholds; guide: <= 4 / <= 7
    verify_each: bool = False
    print_after: tuple[str, ...] = ()
    out: object = None                 # stream for --print-after
    sched: str | None = None           # stack or its: place the markers for this model, not the arch's

    @property
    def stack_arch(self) -> bool:
        return self.sched == "stack" if self.sched else self.arch < 70

    def predicates(self, count: int, uniform: bool) -> tuple[bool, int]:
        """(predicate this branch?, threshold used) under the selected rule."""
        if self.rule == "guide":
            limit = 4 if uniform else 7
            return count <= limit, limit
        limit = self.uniform_threshold if uniform else self.divergent_threshold
        return count < limit, limit


def run_passes(fn: Function, passes: list, options: Options, module: Module | None = None,
               analyses: Analyses | None = None) -> Analyses:
    analyses = analyses or Analyses(fn, module)
    for p in passes:
        try:
            changed = p.run(fn, analyses)
        except InternalError:
            raise
        except Exception as e:
            raise InternalError(p.name, f"{fn.name}: {type(e).__name__}: {e}") from e
        if changed:
            analyses.invalidate()
        if options.verify_each:
            verify(fn, p.name)
        if p.name in options.print_after or "all" in options.print_after:
            out = options.out or sys.stderr
            print(f"// *** IR after {p.name} ***", file=out)
            print(format_function(fn), file=out)
    return analyses

"""The pass manager: the pass registry, the -O pipelines, analyses cached per function.

A pass is a frozen dataclass with a kebab-case `name` and `run(fn, analyses) ->
changed`.  PASSES registers every pass under its name with a one-line
description; the pipelines of the -O levels are lists of those names, and
`--print-after`, the CLI's help and the README's pass list all read PASSES (a
test holds the README to it).  Analyses (cfg, ipdom, divergence, liveness) are
computed on demand through `Analyses.get` and dropped whenever a pass reports a
change; passes never compute them by hand (an analysis may keep per-instruction
facts across changes in `Analyses.memo`).  A cleanup pass (CLEANUP) reads nothing
but the function's code, so once it has run without changing anything it is
skipped until another pass changes the function: the -O3 pipeline repeats the
cleanup, and most repeats find nothing to do.  `run_passes` verifies the IR after
every pass when asked, and prints the function after the passes named in
`print_after`.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

from minicuda.arch import uses_stack
from minicuda.diagnostics import InternalError
from minicuda.ir import Function, Module, format_function, verify
from minicuda.passes.cfg import build_cfg
from minicuda.passes.constant_fold import ConstantFold
from minicuda.passes.constant_propagation import ConstantPropagation
from minicuda.passes.copy_propagation import CopyPropagation
from minicuda.passes.cse import CommonSubexpressions
from minicuda.passes.dce import DeadCode
from minicuda.passes.fma_contract import FmaContract
from minicuda.passes.divergence import analyze_divergence
from minicuda.passes.fold_conditions import FoldConditions
from minicuda.passes.hoist_sink import HoistSink
from minicuda.passes.if_convert import IfConvert
from minicuda.passes.keep_branches import KeepBranches
from minicuda.passes.liveness import analyze_liveness
from minicuda.passes.postdom import ipdom
from minicuda.passes.reconverge import Reconverge
from minicuda.passes.regalloc import RegisterAllocation
from minicuda.passes.sroa import ScalarReplacement
from minicuda.timing import TIMES
from minicuda.passes.simplify_cfg import SimplifyCFG
from minicuda.passes.sink_select import SinkSelect
from minicuda.passes.fuse_address import FuseAddress
from minicuda.passes.fuse_imad import FuseImad
from minicuda.passes.g_shape import GShape
from minicuda.passes.gvn import GVN
from minicuda.passes.reassociate import Reassociate
from minicuda.passes.strength_reduce import StrengthReduce
from minicuda.passes.loop_unroll import LoopUnroll

ANALYSES: dict[str, Callable] = {"cfg": build_cfg, "ipdom": ipdom, "divergence": analyze_divergence,
                                 "liveness": analyze_liveness}


@dataclass
class Analyses:
    fn: Function
    module: Module | None = None
    cache: dict[str, object] = field(default_factory=dict)
    changes: int = 0                                          # pass runs that changed the function
    quiet: dict[str, int] = field(default_factory=dict)       # cleanup pass -> `changes` when it last changed nothing
    memos: dict[str, dict] = field(default_factory=dict)      # kept across changes: see `memo`

    def get(self, name: str):
        if name not in self.cache:
            self.cache[name] = ANALYSES[name](self.fn, self)
        return self.cache[name]

    def memo(self, name: str) -> dict:
        """The table `name` that an analysis keeps across changes of the function, for
        facts about one instruction (what it reads and writes): keyed by the
        instruction's id, each entry holding the instruction, so a fact is only
        reused for the same object (passes replace an instruction, never edit it)."""
        return self.memos.setdefault(name, {})

    def invalidate(self, *names: str) -> None:
        """Drop the named analyses, or every one when none is named."""
        for name in names or list(self.cache):
            self.cache.pop(name, None)

    def settled(self, pass_name: str) -> bool:
        """A cleanup pass that would change nothing: it changed nothing when it last ran,
        and no pass has changed the function since."""
        return self.quiet.get(pass_name, -1) == self.changes

    def ran(self, pass_name: str, changed: bool) -> None:
        """Note a pass's run: a change drops every analysis."""
        if changed:
            self.invalidate()
            self.changes += 1
        elif pass_name in CLEANUP:
            self.quiet[pass_name] = self.changes


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
    bracket_depth: int = 256           # -fbracket-depth: how deep (), [] and {} may nest (each kind)
    rdc: bool = False                  # -rdc=true: relocatable device code (kernel launches in device code)
    fast_math: bool = False            # -use_fast_math: device float math as the fast intrinsics
    ftz: bool | None = None            # -ftz=true/false: f32 denormals flushed in device code (None: as fast_math)

    @property
    def flush_denormals(self) -> bool:
        """nvcc's -ftz: given, or implied by -use_fast_math."""
        return self.fast_math if self.ftz is None else self.ftz
    fmad: bool = True                  # --fmad=false: never contract a multiply and an add (fma-contract)

    @property
    def stack_arch(self) -> bool:
        return self.sched == "stack" if self.sched else uses_stack(self.arch)

    def predicates(self, count: int, uniform: bool) -> tuple[bool, int]:
        """(predicate this branch?, threshold used) under the selected rule."""
        if self.rule == "guide":
            limit = 4 if uniform else 7
            return count <= limit, limit
        limit = self.uniform_threshold if uniform else self.divergent_threshold
        return count < limit, limit


# ---- the registry and the pipelines -------------------------------------------------------
@dataclass(frozen=True)
class RegisteredPass:
    cls: type
    description: str
    settings: Callable[[Options], dict] = lambda options: {}   # the pass's fields from the options

    @property
    def name(self) -> str:
        return self.cls.name

    def build(self, options: Options):
        return self.cls(**self.settings(options))


def _registry(*entries: RegisteredPass) -> dict[str, RegisteredPass]:
    return {e.name: e for e in entries}


PASSES = _registry(
    RegisteredPass(ConstantFold, "turn a pure instruction whose sources are all immediates into a MOV of its value"),
    RegisteredPass(ConstantPropagation, "read a register as the constant every path into the block leaves in it"),
    RegisteredPass(Reassociate, "move constants out of integer sums and products: (x + C1) * C2 as x * C2 + C1 * C2"),
    RegisteredPass(CopyPropagation, "within a block, read the source of a copy instead of the copy"),
    RegisteredPass(CommonSubexpressions, "within a block, reuse the result of an identical earlier instruction"),
    RegisteredPass(DeadCode, "remove unreachable blocks and pure instructions whose results nothing reads"),
    RegisteredPass(SimplifyCFG, "drop and thread jumps, merge blocks into their single predecessor"),
    RegisteredPass(ScalarReplacement, "keep a struct or vector local whose address never escapes in registers"),
    RegisteredPass(FoldConditions, "a short-circuit operand that is cheap and does not load: one predicate, one branch"),
    RegisteredPass(HoistSink, "move the instructions both arms of a branch share out of the arms"),
    RegisteredPass(SinkSelect, "an if-else whose arms differ in one operand: select the operand, run the instruction once"),
    RegisteredPass(FuseAddress, "address arithmetic as SASS forms it: IMAD.WIDE of a widened index, [R+imm], [$symbol]"),
    RegisteredPass(FuseImad, "an integer multiply whose only reader is an add: one IMAD, as SASS computes it"),
    RegisteredPass(GVN, "reuse the result of an identical pure instruction in a dominating block"),
    RegisteredPass(IfConvert, "predicate short hammocks under the branch thresholds, record every decision",
                   lambda options: {"options": options}),
    RegisteredPass(KeepBranches, "keep every branch and record why (-O0, like nvcc -G)",
                   lambda options: {"options": options}),
    RegisteredPass(GShape, "nvcc -G's blocks: one exit, a BRA ending every block, ptxas's signed division (-O0)"),
    RegisteredPass(Reconverge, "mark the reconvergence point of every divergent branch (SSY/SYNC or BSSY/BSYNC)",
                   lambda options: {"stack_arch": options.stack_arch, "g_shape": options.opt == 0}),
    RegisteredPass(RegisterAllocation, "assign physical registers by colouring the interference graph"),
    RegisteredPass(LoopUnroll, "unroll loops as nvcc does (constant trips fully, others by 4), rotate the rest"),
    RegisteredPass(FmaContract, "a float multiply and a dependent add as one FFMA/DFMA, as ptxas (not with --fmad=false)",
                   lambda options: {"enabled": options.fmad}),
    RegisteredPass(StrengthReduce, "multiply and unsigned divide by a power of two as shifts and masks"),
)

CLEANUP = ["constant-fold", "copy-propagation", "cse", "dce", "simplify-cfg"]
PIPELINES = {
    0: ["keep-branches", "g-shape", "reconverge", "regalloc"],
    3: CLEANUP + ["sroa"] + CLEANUP + ["loop-unroll", "constant-propagation", "reassociate"] + CLEANUP
    + ["sroa"] + CLEANUP   # LLVM's SROA after full unrolling: a local array read at an unrolled index
    + ["fold-conditions"] + CLEANUP + ["hoist-sink", "sink-select", "fuse-address", "fuse-imad", "gvn"]
    + CLEANUP + ["if-convert", "fma-contract"] + CLEANUP + ["reconverge", "regalloc"],
}


def pipeline(options: Options) -> list:
    """The passes of options.opt (-O1 and -O2 run -O3's), built from the registry."""
    return [PASSES[name].build(options) for name in PIPELINES[0 if options.opt == 0 else 3]]


def check_pass_names(names) -> None:
    """ValueError naming the registered passes when a name is neither one of them nor 'all'."""
    for name in names:
        if name not in PASSES and name != "all":
            raise ValueError(f"unknown pass '{name}' for --print-after (passes: {', '.join(PASSES)})")


def passes_named(names, options: Options) -> list:
    """The passes `names` lists, in order, built from the registry (minicudac --passes);
    ValueError naming the registered passes when a name is not one of them."""
    for name in names:
        if name not in PASSES:
            raise ValueError(f"unknown pass '{name}' for --passes (passes: {', '.join(PASSES)})")
    return [PASSES[name].build(options) for name in names]


def run_passes(fn: Function, passes: list, options: Options, module: Module | None = None,
               analyses: Analyses | None = None) -> Analyses:
    analyses = analyses or Analyses(fn, module)
    for p in passes:
        if analyses.settled(p.name):
            changed = False
        else:
            try:
                if TIMES.on:
                    with TIMES.phase(f"compile: pass {p.name}"):
                        changed = p.run(fn, analyses)
                else:
                    changed = p.run(fn, analyses)
            except InternalError:
                raise
            except Exception as e:
                raise InternalError(p.name, f"{fn.name}: {type(e).__name__}: {e}") from e
            analyses.ran(p.name, changed)
        if options.verify_each:
            verify(fn, p.name)
        if p.name in options.print_after or "all" in options.print_after:
            out = options.out or sys.stderr
            print(f"// *** IR after {p.name} ***", file=out)
            print(format_function(fn), file=out)
    return analyses

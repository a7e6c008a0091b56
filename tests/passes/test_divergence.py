"""Divergence analysis through the pass manager's cache, and what it answers for a block
without a conditional branch.  Its results on IR text (the seed kernels, loads, atomics,
loops, sync dependence, host and device functions, register pairs) are FileCheck tests:
tests/passes/filecheck/divergence/."""
from minicuda.ir import parse_module
from minicuda.pipeline import Analyses
from minicuda.passes.divergence import analyze_divergence

MODULE = """.arch sm_70
.global global table 64 4

.kernel k ()
  .shared 0 .local 8
.L0:
  S2R %r4, SR_TID.X
  LDG %r0, [$table]
  LDG %r1, [$slot]
  MOV.64 %rd2, $slot
  LDG %r3, [%rd2+0x4]
  ISETP.EQ %p0, %r4, 0
  @%p0 BRA .L2
.L1:
  MOV %r5, 1
.L2:
  EXIT
.end k
"""


def test_through_the_analysis_cache_with_a_module():
    """With the module known, a symbol that is no global names a frame slot: private."""
    mod = parse_module(MODULE)
    analyses = Analyses(mod.functions["k"], mod)
    div = analyses.get("divergence")
    assert div is analyses.get("divergence")
    assert div.varying == {"%r1", "%rd2", "%r3", "%r4", "%p0", "%r5"}


def test_blocks_without_a_conditional_branch_are_uniform():
    div = analyze_divergence(parse_module(MODULE).functions["k"])
    assert div.divergent_branches == {".L0"} and not div.branch_is_uniform(".L0")
    assert div.branch_is_uniform(".L1") and div.branch_is_uniform(".L2")

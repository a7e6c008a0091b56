"""Immediate post-dominators through the pass manager's cache.  The post-dominators of
hand-written CFGs (if-then, loops with break and continue, early exits, switch chains,
infinite and spin loops) are FileCheck tests: tests/passes/filecheck/ipdom/."""
from minicuda.ir import parse_module
from minicuda.pipeline import Analyses
from minicuda.passes.cfg import build_cfg
from minicuda.passes.postdom import ipdom, ipdom_of

IF_THEN_ELSE = """
.kernel if_then_else ()
.L0:
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L2
.L1:
  MOV %r1, 1
  BRA .L3
.L2:
  MOV %r1, 2
.L3:
  EXIT
.end if_then_else
"""


def test_ipdom_through_the_analysis_cache():
    fn = parse_module(IF_THEN_ELSE).functions["if_then_else"]
    analyses = Analyses(fn)
    assert analyses.get("ipdom") == ipdom_of(build_cfg(fn)) == ipdom(fn) == \
        {".L0": ".L3", ".L1": ".L3", ".L2": ".L3", ".L3": "EXIT"}
    assert analyses.get("ipdom") is analyses.get("ipdom")

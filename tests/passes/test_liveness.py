"""Liveness (passes/liveness.py) through the pass manager's cache, and what register
allocation makes of it.  The live sets of IR text (guarded writes, loops, RET reading the
returns, physical registers) are FileCheck tests: tests/passes/filecheck/liveness/."""
from __future__ import annotations

from textwrap import dedent

from minicuda.ir import Reg, parse_module
from minicuda.passes.dce import DeadCode
from minicuda.passes.liveness import Liveness
from minicuda.passes.regalloc import RegisterAllocation, interference
from minicuda.pipeline import Analyses, Options, run_passes

KERNEL = ".kernel k (%rd0:out:8:pointer, %r0:n:4:value)\n  .shared 0 .local 0\n"
DEVICE = ".device f (%r0:x:4:value) -> (%r1)\n  .shared 0 .local 0\n"


def function(body: str, header: str = KERNEL):
    name = header.split()[1]
    return parse_module(header + dedent(body) + f".end {name}\n").functions[name]


def test_the_pass_manager_caches_it_until_a_pass_changes_the_function():
    fn = function("""
        .L0:
          IADD %r1, %r0, 1
          STG [%rd0], %r0
          EXIT
    """)
    analyses = Analyses(fn)
    first = analyses.get("liveness")
    assert isinstance(first, Liveness) and analyses.get("liveness") is first
    run_passes(fn, [DeadCode()], Options(), analyses=analyses)   # IADD %r1 is dead
    assert [ins.op for ins in fn.blocks[0].instrs] == ["STG", "EXIT"]
    assert analyses.get("liveness") is not first


def test_register_allocation_keeps_a_return_value_read_by_a_guarded_ret_apart():
    """%r1 holds 7 when the guarded RET returns, so %r2 and %r3 may not share its register
    (the allocator's own liveness once missed that RET reads the returns)."""
    fn = function("""
        .L0:
          MOV %r1, 7
          IADD %r2, %r0, 1
          IADD %r3, %r2, 1
          ISETP.LT %p0, %r3, 0
          @%p0 RET
          MOV %r1, %r3
          RET
    """, DEVICE)
    analyses = Analyses(fn)
    graph = interference(fn, analyses.get("liveness"))
    assert {Reg("%r0"), Reg("%r2"), Reg("%r3")} <= graph[Reg("%r1")]
    RegisterAllocation().run(fn, analyses)
    r1, r2, r3 = (fn.blocks[0].instrs[k].dsts[0] for k in range(3))
    assert not r1.is_virtual and r1 not in (r2, r3) and fn.rets == [r1]

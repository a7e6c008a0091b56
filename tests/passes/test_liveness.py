"""Liveness (passes/liveness.py), IR text in and live sets out.  Each block of a case
states what it expects in a comment under its label: `// in: REGS | out: REGS`."""
from __future__ import annotations

import re
from textwrap import dedent

from minicuda.ir import Reg, parse_module
from minicuda.passes.cfg import build_cfg
from minicuda.passes.dce import DeadCode
from minicuda.passes.liveness import Liveness, liveness
from minicuda.passes.regalloc import RegisterAllocation, interference
from minicuda.pipeline import Analyses, Options, run_passes

KERNEL = ".kernel k (%rd0:out:8:pointer, %r0:n:4:value)\n  .shared 0 .local 0\n"
DEVICE = ".device f (%r0:x:4:value) -> (%r1)\n  .shared 0 .local 0\n"


def function(body: str, header: str = KERNEL):
    name = header.split()[1]
    return parse_module(header + dedent(body) + f".end {name}\n").functions[name]


def expected(body: str) -> dict[str, tuple[set[str], set[str]]]:
    """label -> (live in, live out) from the `// in: ... | out: ...` comments."""
    out, label = {}, None
    for line in dedent(body).splitlines():
        if re.fullmatch(r"\s*\S+:", line):
            label = line.strip()[:-1]
        m = re.fullmatch(r"\s*// in:(.*)\| out:(.*)", line)
        if m:
            out[label] = (set(m.group(1).split()), set(m.group(2).split()))
    return out


def check(body: str, header: str = KERNEL) -> None:
    fn = function(body, header)
    live = liveness(fn, build_cfg(fn))
    found = {b.label: ({r.name for r in live.live_in[b.label]}, {r.name for r in live.live_out[b.label]})
             for b in fn.blocks}
    assert found == expected(body)


def test_a_value_is_live_from_its_write_to_its_last_read():
    check("""
        .L0:
          // in: %rd0 %r0 | out: %rd0 %r1
          IADD %r1, %r0, 1
          ISETP.LT %p0, %r0, 4
          @%p0 BRA .L2
        .L1:
          // in: %rd0 %r1 | out: %rd0 %r1
          IMUL %r1, %r1, 3
        .L2:
          // in: %rd0 %r1 | out:
          STG [%rd0], %r1
          EXIT
    """)


def test_a_guarded_write_does_not_end_a_life():
    check("""
        .L0:
          // in: %rd0 %r0 | out: %rd0 %r0 %r1 %p0
          MOV %r1, 7
          ISETP.LT %p0, %r0, 4
        .L1:
          // in: %rd0 %r0 %r1 %p0 | out:
          @%p0 MOV %r1, %r0
          STG [%rd0], %r1
          EXIT
    """)


def test_a_loop_keeps_its_values_live_around_the_back_edge():
    check("""
        .L0:
          // in: %rd0 %r0 | out: %rd0 %r0 %r2 %r3
          MOV %r2, 0
          MOV %r3, 0
        .L1:
          // in: %rd0 %r0 %r2 %r3 | out: %rd0 %r0 %r2 %r3
          ISETP.GE %p0, %r2, %r0
          @%p0 BRA .L3
        .L2:
          // in: %rd0 %r0 %r2 %r3 | out: %rd0 %r0 %r2 %r3
          IADD %r3, %r3, %r2
          IADD %r2, %r2, 1
          BRA .L1
        .L3:
          // in: %rd0 %r3 | out:
          STG [%rd0], %r3
          EXIT
    """)


def test_ret_reads_the_returns_even_when_guarded():
    check("""
        .L0:
          // in: %r0 %r1 | out: %r1
          ISETP.LT %p0, %r0, 0
          @%p0 RET
          MOV %r1, 5
        .L1:
          // in: %r1 | out: %r1
          RET
    """, DEVICE)


def test_physical_registers_and_constants_are_not_tracked():
    check("""
        .L0:
          // in: %rd0 %r0 | out:
          MOV R2, %r0
          IADD %r1, R2, RZ
          STG [%rd0], %r1
          EXIT
    """)


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

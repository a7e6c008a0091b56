"""Liveness (passes/liveness.py) through the pass manager's cache, and what register
allocation makes of it.  The live sets of IR text (guarded writes, loops, RET reading the
returns, physical registers) are FileCheck tests: tests/passes/filecheck/liveness/."""
from __future__ import annotations

import functools
from textwrap import dedent

import numpy as np
import pytest

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


def test_a_register_no_write_has_reached_is_undefined_until_its_first_write():
    """%r1 is live from the entry (the guarded write may not happen, so STG may read what
    %r1 held before) but no write has reached it there: undefined on entry to .L0 and .L1,
    defined on entry to .L2 on every path (.L1 writes it, guarded or not)."""
    fn = function("""
        .L0:
          ISETP.LT %p0, %r0, 4
          @%p0 BRA .L2
        .L1:
          @%p0 MOV %r1, %r0
        .L2:
          STG [%rd0], %r1
          EXIT
    """)
    live = Analyses(fn).get("liveness")
    assert "%r1" in live.live_in[".L0"]
    assert live.undefined_in[".L0"] == live.undefined_in[".L1"] == {"%r1"}
    assert live.undefined_in[".L2"] == set()   # the path .L0 -> .L2 skips the write: may be reached, not surely


def test_a_value_written_under_a_guard_shares_a_register_with_one_that_died_before():
    """%r2 lives before %r1's guarded write and dies there: they may share a register,
    as %r1 held nothing while %r2 lived (it used to be live from the entry).  %r0 is read
    after the guarded write, so %r1 (whose old value survives a false guard) stays apart."""
    fn = function("""
        .L0:
          IADD %r2, %r0, 1
          ISETP.LT %p0, %r2, 4
          @%p0 MOV %r1, %r0
          STG [%rd0], %r1
          STG [%rd0+0x4], %r0
          EXIT
    """)
    analyses = Analyses(fn)
    graph = interference(fn, analyses.get("liveness"))
    assert Reg("%r2") not in graph[Reg("%r1")]
    assert Reg("%r0") in graph[Reg("%r1")]


def test_a_chain_of_guarded_writes_takes_registers_for_the_values_alive_at_once():
    """Each guarded write may not happen, so %r1..%r200 are all live from the entry, but
    until its write none holds a value: the undefined set on entry holds them all (they
    are live at the entry, the only registers it may hold), and the chain takes three
    registers, not 200.  Written unguarded, nothing is live at the entry: an empty set."""
    body = "".join(f"  @%p0 MOV %r{k + 1}, %r{k}\n" for k in range(200))
    fn = function(".L0:\n  ISETP.LT %p0, %r0, 4\n" + body + "  STG [%rd0], %r200\n  EXIT\n")
    analyses = Analyses(fn)
    live = analyses.get("liveness")
    assert live.undefined_in[".L0"] == {f"%r{k}" for k in range(1, 201)} == live.live_in[".L0"] - {"%r0", "%rd0"}
    RegisterAllocation().run(fn, analyses)
    assert fn.registers <= 4   # %rd0's pair, then %r0 and the chain
    fn = function(".L0:\n  ISETP.LT %p0, %r0, 4\n" + "".join(f"  MOV %r{k + 1}, %r{k}\n" for k in range(200))
                  + "  STG [%rd0], %r200\n  EXIT\n")
    assert Analyses(fn).get("liveness").undefined_in[".L0"] == set()


FLOAT4_COPY = """
__global__ void copy4(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4)
        reinterpret_cast<float4 *>(out)[i] = reinterpret_cast<const float4 *>(in)[i];
}
__global__ void either(const int *in, int *out, int n) {   // guarded writes under both polarities
    int i = threadIdx.x, a = 0, b = 0;
    if (in[i] > n) { a = in[i] * 3; b = i + 1; }
    else { a = i - in[i]; }
    out[i] = a * 100 + b;
}
int main() { return 0; }
"""


@functools.cache
def copies():
    import minicuda
    return minicuda.compile(FLOAT4_COPY)


def test_a_predicated_float4_copy_takes_eight_registers():
    """The copy is if-converted: its address pairs and the loaded quad are written under
    the guard and were live from the entry (17 registers); now they take the registers
    the parameters leave when they die."""
    assert copies().module.functions["copy4"].registers == 8


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_predicated_code_sharing_registers_computes_what_it_did(engine):
    """The registers the predicated values now share hold each value while it lives: the
    copy copies its 64 float4s (and no more), the two arms' guarded writes keep both."""
    from minicuda.vm.launcher import Device

    device = Device(copies(), engine=engine)
    values = np.arange(300, dtype=np.float32) * 0.5
    out = np.full(300, -1.0, np.float32)
    device.launch("copy4", 2, 64, values, out, np.int32(259))
    assert np.array_equal(out[:256], values[:256]) and (out[256:] == -1).all()
    ints = (np.arange(64, dtype=np.int32) * 7) % 50
    result = np.zeros(64, np.int32)
    device.launch("either", 1, 64, ints, result, np.int32(20))
    i = np.arange(64)
    assert np.array_equal(result, np.where(ints > 20, ints * 300 + i + 1, (i - ints) * 100))

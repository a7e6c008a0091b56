"""If-conversion: nvcc's thresholds pinned at their boundaries, and what blocks it."""
import pytest

import minicuda
from helpers import GROUNDTRUTH
from minicuda.ir import format_function, parse_module, verify
from minicuda.pipeline import Options, run_passes
from minicuda.passes.if_convert import IfConvert


def hammock(uniform: bool, then_n: int, else_n: int, extra: str = "") -> str:
    cond = "ISETP.EQ.S32 %p0, %r0, 0" if uniform else "S2R %r9, SR_TID.X\n  ISETP.EQ.S32 %p0, %r9, 0"
    then = "\n".join(f"  IADD.S32 %r{1 + i}, %r0, {i}   // k.cu:5:3" for i in range(then_n))
    other = "\n".join(f"  ISUB.S32 %r{20 + i}, %r0, {i}   // k.cu:7:3" for i in range(else_n))
    return f""".kernel k (%r0:n:4:value)
  .shared 0 .local 0
.L_entry:
  {cond}
  @!%p0 BRA .L2    // k.cu:4:7
.L1:
{then}
{extra}
  BRA .L3
.L2:
{other}
  BRA .L3
.L3:
  EXIT
.end k
"""


def convert(text: str, **opts):
    fn = parse_module(text).functions["k"]
    run_passes(fn, [IfConvert(Options(**opts))], Options(verify_each=True))
    verify(fn)
    return fn, fn.branch_decisions[0]


@pytest.mark.parametrize("then_n,else_n,predicated", [(2, 1, True), (2, 2, False), (1, 0, True), (4, 0, False)])
def test_uniform_threshold_is_fewer_than_4(then_n, else_n, predicated):
    fn, d = convert(hammock(True, then_n, else_n))
    assert (d.uniform, d.instructions, d.threshold, d.predicated) == (True, then_n + else_n, 4, predicated)
    assert any(i.op == "BRA" and i.guard is not None for i in fn.instructions()) != predicated


@pytest.mark.parametrize("then_n,else_n,predicated", [(3, 3, True), (4, 3, False), (6, 0, True), (7, 0, False)])
def test_divergent_threshold_is_fewer_than_7(then_n, else_n, predicated):
    fn, d = convert(hammock(False, then_n, else_n))
    assert (d.uniform, d.instructions, d.threshold, d.predicated) == (False, then_n + else_n, 7, predicated)


@pytest.mark.parametrize("uniform,count,predicated", [(True, 4, True), (True, 5, False), (False, 7, True), (False, 8, False)])
def test_the_programming_guides_reading_is_at_most_4_and_7(uniform, count, predicated):
    fn, d = convert(hammock(uniform, count, 0), rule="guide")
    assert d.predicated == predicated and d.threshold == (4 if uniform else 7)


def test_thresholds_are_settable():
    _, d = convert(hammock(False, 8, 0), divergent_threshold=10)
    assert d.predicated and d.threshold == 10
    _, d = convert(hammock(True, 1, 0), uniform_threshold=1)
    assert not d.predicated


def test_a_barrier_in_an_arm_blocks_conversion_and_the_record_says_so():
    fn, d = convert(hammock(False, 1, 1, extra="  BAR.SYNC 0"))
    assert not d.predicated and "barrier" in d.reason and "BAR.SYNC" in d.reason


def test_predicated_arms_are_guarded_by_the_branch_condition():
    fn, d = convert(hammock(False, 1, 1))
    text = format_function(fn, with_loc=False)
    assert "@%p0 IADD.S32 %r1, %r0, 0" in text and "@!%p0 ISUB.S32 %r20, %r0, 0" in text
    assert d.line == 4 and d.file == "k.cu" and d.reason.startswith("predicated: 2 instructions < 7")


def test_an_arm_that_returns_becomes_a_predicated_exit():
    text = """.kernel k (%r0:n:4:value)
  .shared 0 .local 0
.L_entry:
  S2R %r1, SR_TID.X
  ISETP.GE.U32 %p0, %r1, %r0
  @!%p0 BRA .L1
.L0:
  EXIT
.L1:
  MOV %r2, 1
  EXIT
.end k
"""
    fn, d = convert(text)
    assert d.predicated
    assert "@%p0 EXIT" in format_function(fn, with_loc=False)


def test_seed_kernels_keep_no_divergent_branch_at_O3():
    program = minicuda.compile(str(GROUNDTRUTH), opt=3, verify_each=True)
    for name in ("mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4", "addSubDivergent"):
        fn = program.functions[name]
        assert not [i for i in fn.instructions() if i.op == "BRA" and i.guard is not None], format_function(fn)
        records = [d for d in program.branch_decisions if d.function == name]
        assert records and all(d.predicated for d in records)


def test_long_arms_are_kept_at_O3():
    src = """__global__ void k(float *c) {
  int t = threadIdx.x;
  float a = c[t];
  if (t % 2 == 0) { a = a * 2.0f + 1.0f; a = a * a - 3.0f; a = a / 7.0f + a; a = a * 0.5f - 2.0f; }
  else { a = a * 3.0f + 2.0f; a = a * a + 4.0f; a = a / 5.0f - a; a = a * 0.25f + 1.0f; }
  c[t] = a;
}"""
    program = minicuda.compile(src, opt=3)
    (d,) = program.branch_decisions
    assert not d.predicated and d.instructions >= 14 and d.line == 4


def test_an_empty_arm_is_predicated_without_trouble():
    # regression: an arm left empty by cleanup (found by the VM property test)
    text = """.kernel k (%r0:n:4:value)
  .shared 0 .local 0
.L_entry:
  S2R %r1, SR_TID.X
  ISETP.EQ.S32 %p0, %r1, 0
  @!%p0 BRA .L2
.L1:
.L2:
  MOV %r2, 1
  EXIT
.end k
"""
    fn, d = convert(text)
    assert d.predicated and d.instructions == 0

"""Divergence analysis on IR text.

Annotations in the text state the expectations:
  `// branch: divergent` or `// branch: uniform` under a block's label: its
      conditional branch (every other conditional branch must be uniform);
  `// varying: %r1 %p0` / `// uniform: %r2`: registers of the function.
"""
import pytest

from minicuda.ir import format_module, parse_module, verify
from minicuda.pipeline import Analyses
from minicuda.passes.divergence import analyze_divergence


def expectations(text: str) -> tuple[dict[str, str], set[str], set[str]]:
    branches, varying, uniform, label = {}, set(), set(), None
    for line in text.splitlines():
        s = line.strip()
        if s.endswith(":") and " " not in s:
            label = s[:-1]
        elif s.startswith("// branch:"):
            branches[label] = s.split(":", 1)[1].strip()
        elif s.startswith("// varying:"):
            varying |= set(s.split(":", 1)[1].split())
        elif s.startswith("// uniform:"):
            uniform |= set(s.split(":", 1)[1].split())
    return branches, varying, uniform


def check(text: str):
    """Run the analysis on the only function of `text` and check its annotations."""
    mod = parse_module(text)
    assert parse_module(format_module(mod)) == mod
    (fn,) = mod.functions.values()
    verify(fn)
    div = analyze_divergence(fn)
    branches, varying, uniform = expectations(text)
    assert div.divergent_branches == {b for b, kind in branches.items() if kind == "divergent"}
    for label, kind in branches.items():
        assert div.branch_is_uniform(label) == (kind == "uniform"), label
    assert {r for r in varying if not div.is_varying(r)} == set()
    assert {r for r in uniform if div.is_varying(r)} == set()
    return div


# The seed kernels (simpleDivergence.cu): `if (tid % 2 == 0) a = 100; else b = 200;`
MATH_KERNEL_1 = """
.kernel mathKernel1 (%rd0:c:8:pointer)
  .shared 0 .local 0
// uniform: %r0 %r1 %rd0
// varying: %r2 %r3 %r6 %p0 %rd1 %rd2 %rd3
// a and b are constants on each arm, but which one a thread saw depends on its path:
// varying: %r4 %r5 %r7
.L0:
  // branch: divergent
  S2R %r0, SR_CTAID.X                      // simpleDivergence.cu:12:13
  S2R %r1, SR_NTID.X
  S2R %r2, SR_TID.X
  IMAD %r3, %r0, %r1, %r2
  MOV %r4, 0.0
  MOV %r5, 0.0
  IREM %r6, %r3, 2
  ISETP.NE %p0, %r6, 0
  @%p0 BRA .L2
.L1:
  MOV %r4, 100.0
  BRA .L3
.L2:
  MOV %r5, 200.0
.L3:
  FADD %r7, %r4, %r5
  I2I.S64.S32 %rd1, %r3
  SHL.64 %rd2, %rd1, 2
  IADD.64 %rd3, %rd0, %rd2
  STG [%rd3], %r7
  EXIT
.end mathKernel1
"""

# `if ((tid / warpSize) % 2 == 0)`: warp-aligned, so the hardware never diverges here,
# but the condition depends on threadIdx: the analysis answers "possibly divergent",
# the conservative textbook answer.
MATH_KERNEL_2 = """
.kernel mathKernel2 (%rd0:c:8:pointer)
  .shared 0 .local 0
// uniform: %r0 %r1 %r8
// varying: %r3 %r9 %r6 %p0 %r4 %r5 %r7
.L0:
  // branch: divergent
  S2R %r0, SR_CTAID.X
  S2R %r1, SR_NTID.X
  S2R %r2, SR_TID.X
  IMAD %r3, %r0, %r1, %r2
  MOV %r4, 0.0
  MOV %r5, 0.0
  S2R %r8, SR_WARPSIZE
  IDIV %r9, %r3, %r8
  IREM %r6, %r9, 2
  ISETP.NE %p0, %r6, 0
  @%p0 BRA .L2
.L1:
  MOV %r4, 100.0
  BRA .L3
.L2:
  MOV %r5, 200.0
.L3:
  FADD %r7, %r4, %r5
  I2I.S64.S32 %rd1, %r3
  SHL.64 %rd2, %rd1, 2
  IADD.64 %rd3, %rd0, %rd2
  STG [%rd3], %r7
  EXIT
.end mathKernel2
"""

UNIFORM_CONDITIONS = """
.kernel uniform_conditions (%rd0:a:8:pointer, %r9:n:4:value)
// uniform: %r0 %r1 %r2 %r3 %r4 %p0 %p1 %p2 %p3 %r5
.L0:
  // branch: uniform
  S2R %r0, SR_CTAID.X
  S2R %r1, SR_NTID.Y
  S2R %r2, SR_NCTAID.Z
  IMAD %r3, %r0, %r1, %r2
  ISETP.LT %p0, %r3, %r9
  @%p0 BRA .L2
.L1:
  // branch: uniform
  ISETP.EQ %p1, %r9, 0
  @!%p1 BRA .L3
.L2:
  // branch: uniform
  MOV %r4, 5
  ISETP.GT %p2, %r4, 3
  @%p2 BRA .L4
.L3:
  MOV %r5, $table
  ISETP.NE.U64 %p3, %rd0, 0
  @%p3 BRA .L4
  // branch: uniform
.L4:
  MOV %r5, 1
  EXIT
.end uniform_conditions
"""

LOADS = """
.kernel loads (%rd0:a:8:pointer)
  .shared 64 .local 16
// uniform: %r0 %r1 %r2 %r3 %rd4
// varying: %r5 %rd1 %rd2 %rd3 %r6 %r7 %r8
.L0:
  LDG %r0, [%rd0+0x4]
  LDC %r1, [$consts+0x8]
  LDS %r2, [$tile]
  S2R %r3, SR_CTAID.X
  I2I.S64.S32 %rd4, %r3
  LDG.64 %rd5, [%rd4]
  MOV %r3, %r1
  S2R %r5, SR_TID.X
  I2I.S64.S32 %rd1, %r5
  SHL.64 %rd2, %rd1, 2
  IADD.64 %rd3, %rd0, %rd2
  LDG %r6, [%rd3]
  LDS %r7, [%rd3-0x10]
  LDL %r8, [$frame]
  EXIT
.end loads
"""

ATOMICS_AND_WARP_OPS = """
.kernel atomics_and_warp_ops (%rd0:counter:8:pointer)
// varying: %r1 %r2 %r3 %r4 %r5 %r6 %r7 %p0
// uniform: %r0
.L0:
  // branch: divergent
  MOV %r0, 1
  ATOM.ADD %r1, [%rd0], %r0
  SHFL.DOWN %r2, %r0, 1, 32, -1
  VOTE.ANY %r3, %r0, -1
  ACTIVEMASK %r4
  BAR.RED.POPC %r5, %r0
  CALL %r6, $helper, %r0
  MATCH.ANY %r7, %r0, -1
  ISETP.EQ %p0, %r1, 0
  @%p0 BRA .L2
.L1:
  STG [%rd0], %r0
.L2:
  EXIT
.end atomics_and_warp_ops
"""

# The guard spreads variation: %r2 is written under a varying predicate.
VARYING_GUARD = """
.kernel varying_guard ()
// varying: %r0 %p0 %r2 %r3
// uniform: %r1
.L0:
  S2R %r0, SR_LANEID
  MOV %r1, 0
  ISETP.EQ %p0, %r0, 0
  @%p0 MOV %r2, 7
  IADD %r3, %r2, %r1
  EXIT
.end varying_guard
"""

# while (i < threadIdx.x) { sum += 5; i++; }: i and sum only ever get constants
# added, yet each thread leaves the loop after its own trip count.
TID_TRIP_COUNT = """
.kernel tid_trip_count (%rd0:out:8:pointer)
// varying: %r0 %p0 %r1 %r2
.L0:
  S2R %r0, SR_TID.X
  MOV %r1, 0
  MOV %r2, 0
.L1:
  // branch: divergent
  ISETP.GE %p0, %r1, %r0
  @%p0 BRA .L3
.L2:
  IADD %r2, %r2, 5
  IADD %r1, %r1, 1
  BRA .L1
.L3:
  STG [%rd0], %r2
  EXIT
.end tid_trip_count
"""

UNIFORM_TRIP_COUNT = """
.kernel uniform_trip_count (%rd0:out:8:pointer, %r9:n:4:value)
// uniform: %r1 %r2 %p0
.L0:
  MOV %r1, 0
  MOV %r2, 0
.L1:
  // branch: uniform
  ISETP.GE %p0, %r1, %r9
  @%p0 BRA .L3
.L2:
  IADD %r2, %r2, 5
  IADD %r1, %r1, 1
  BRA .L1
.L3:
  STG [%rd0], %r2
  EXIT
.end uniform_trip_count
"""

# A uniform loop with a divergent break: after one thread breaks, the counter and
# the loop's own exit test differ between threads.
DIVERGENT_BREAK = """
.kernel divergent_break (%r9:n:4:value)
// varying: %r0 %r1 %p0 %p1
.L0:
  S2R %r5, SR_TID.X
  MOV %r0, 0
.L1:
  // branch: divergent
  ISETP.GE %p0, %r0, %r9
  @%p0 BRA .L4
.L2:
  // branch: divergent
  ISETP.EQ %p1, %r0, %r5
  @%p1 BRA .L4
.L3:
  IADD %r0, %r0, 1
  MOV %r1, %r0
  BRA .L1
.L4:
  EXIT
.end divergent_break
"""

# Three rounds: %r1 varies by sync dependence, which makes the second branch
# divergent, which makes %r2 vary, which makes the third branch divergent.
FIXED_POINT_CHAIN = """
.kernel fixed_point_chain ()
// varying: %r1 %p1 %r2 %p2 %r3
// uniform: %r4
.L0:
  // branch: divergent
  S2R %r0, SR_TID.X
  MOV %r1, 0
  MOV %r2, 0
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L2
.L1:
  MOV %r1, 1
.L2:
  // branch: divergent
  ISETP.EQ %p1, %r1, 1
  @%p1 BRA .L4
.L3:
  MOV %r2, 7
.L4:
  // branch: divergent
  ISETP.EQ %p2, %r2, 7
  @%p2 BRA .L6
.L5:
  MOV %r3, 1
.L6:
  MOV %r4, 2
  EXIT
.end fixed_point_chain
"""

# A divergent branch whose one side spins forever has no reconvergence point on that
# side: everything reachable from it counts as its region.
SPIN = """
.kernel spin ()
// varying: %r1
.L0:
  // branch: divergent
  S2R %r0, SR_TID.X
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L2
.L1:
  IADD %r1, %r1, 1
  BRA .L1
.L2:
  EXIT
.end spin
"""

# One thread runs host code: nothing varies, whatever the instructions.
HOST = """
.host main () -> (%r0)
// uniform: %r0 %r1 %p0 %r2
.L0:
  // branch: uniform
  CALL.RT %r1, $rand
  ISETP.EQ %p0, %r1, 0
  @%p0 BRA .L2
.L1:
  MOV %r2, 1
.L2:
  MOV %r0, %r2
  RET
.end main
"""

# A device function's arguments come from its (possibly divergent) callers.
DEVICE = """
.device clamp (%r0:x:4:value, %rd1:p:8:pointer) -> (%r1)
// varying: %r0 %p0 %r1 %rd1 %r2
// uniform: %r3
.L0:
  // branch: divergent
  MOV %r3, 4
  LDG %r2, [%rd1]
  ISETP.LT %p0, %r0, 0
  @!%p0 BRA .L2
.L1:
  MOV %r1, 0
  RET
.L2:
  MOV %r1, %r0
  RET
.end clamp
"""

# After register allocation a 64-bit value occupies a pair: R3 is R2's high half.
PHYSICAL_PAIRS = """
.kernel physical_pairs (R4:a:8:pointer)
// varying: R0 R2 R3 R6
// uniform: R4 R5 R8
.L0:
  S2R R0, SR_TID.X
  I2I.S64.S32 R2, R0
  LDG R8, [R4]
  LDG R6, [R2]
  EXIT
.end physical_pairs
"""

CASES = [MATH_KERNEL_1, MATH_KERNEL_2, UNIFORM_CONDITIONS, LOADS, ATOMICS_AND_WARP_OPS,
         VARYING_GUARD, TID_TRIP_COUNT, UNIFORM_TRIP_COUNT, DIVERGENT_BREAK, FIXED_POINT_CHAIN,
         SPIN, HOST, DEVICE, PHYSICAL_PAIRS]


@pytest.mark.parametrize("text", CASES, ids=lambda t: t.split()[1])
def test_divergence_matches_annotations(text):
    check(text)


def test_seed_kernels_both_possibly_divergent():
    assert check(MATH_KERNEL_1).divergent_branches == {".L0"}
    assert check(MATH_KERNEL_2).divergent_branches == {".L0"}
    assert not check(MATH_KERNEL_2).branch_is_uniform(".L0")


def test_blocks_without_a_conditional_branch_are_uniform():
    div = check(MATH_KERNEL_1)
    assert div.branch_is_uniform(".L1") and div.branch_is_uniform(".L3")


def test_through_the_analysis_cache_with_a_module():
    """With the module known, a symbol that is no global names a frame slot: private."""
    mod = parse_module(""".arch sm_70
.global global table 64 4

.kernel k ()
  .shared 0 .local 8
.L0:
  LDG %r0, [$table]
  LDG %r1, [$slot]
  MOV.64 %rd2, $slot
  LDG %r3, [%rd2+0x4]
  EXIT
.end k
""")
    analyses = Analyses(mod.functions["k"], mod)
    div = analyses.get("divergence")
    assert div is analyses.get("divergence")
    assert div.varying == {"%r1", "%rd2", "%r3"}

"""dce (dead code), IR text in and IR text out; `verify` runs after the pass."""
from helpers.pass_cases import check, function
from minicuda.ir import verify
from minicuda.passes.dce import DeadCode
from minicuda.pipeline import Analyses


def test_dce_removes_unused_pure_instructions_only():
    check(DeadCode(), """
        .L0:
          IADD %r1, %r0, 1
          IADD %r2, %r1, 1
          @%p0 IMUL %r3, %r0, 3
          LDG %r4, [%rd0]
          ATOM.ADD %r5, [%rd0], 1
          SHFL.DOWN %r6, %r0, 1, 32, -1
          S2R %r7, SR_CLOCKLO
          S2R %r8, SR_TID.X
          IADD %r9, %r0, 2
          STG [%rd0], %r9
          EXIT
    """, """
        .L0:
          LDG %r4, [%rd0]
          ATOM.ADD %r5, [%rd0], 1
          SHFL.DOWN %r6, %r0, 1, 32, -1
          S2R %r7, SR_CLOCKLO
          IADD %r9, %r0, 2
          STG [%rd0], %r9
          EXIT
    """)


def test_dce_keeps_values_live_around_a_loop():
    check(DeadCode(), """
        .L0:
          MOV %r1, 0
          MOV %r2, 0
          MOV %r3, 0
        .L1:
          ISETP.LT %p0, %r3, 10
          IADD %r2, %r2, %r1
          IADD %r1, %r1, 1
          IADD %r3, %r1, 7
          IADD %r5, %r1, 7
          @%p0 BRA .L1
        .L2:
          STG [%rd0], %r2
          EXIT
    """, """
        .L0:
          MOV %r1, 0
          MOV %r2, 0
          MOV %r3, 0
        .L1:
          ISETP.LT %p0, %r3, 10
          IADD %r2, %r2, %r1
          IADD %r1, %r1, 1
          IADD %r3, %r1, 7
          @%p0 BRA .L1
        .L2:
          STG [%rd0], %r2
          EXIT
    """)


def test_dce_guarded_write_does_not_end_a_life():
    check(DeadCode(), """
        .L0:
          MOV %r1, 1
          @%p0 MOV %r1, 2
          STG [%rd0], %r1
          EXIT
    """, None)


def test_dce_across_blocks_and_unreachable_blocks():
    check(DeadCode(), """
        .L0:
          IADD %r1, %r0, 1
          BRA .L2
        .L1:
          STG [%rd0], %r1
          EXIT
        .L2:
          IADD %r2, %r1, 1
          EXIT
    """, """
        .L0:
          BRA .L2
        .L2:
          EXIT
    """)


def test_dce_keeps_a_block_a_marker_names():
    check(DeadCode(), """
        .L0:
          BSSY B0, .L3
          @%p0 BRA .L2
        .L1:
          EXIT
        .L2:
          EXIT
        .L3:
          BSYNC B0
          EXIT
        .L4:
          EXIT
    """, """
        .L0:
          BSSY B0, .L3
          @%p0 BRA .L2
        .L1:
          EXIT
        .L2:
          EXIT
        .L3:
          BSYNC B0
          EXIT
    """)


def test_dce_knows_ret_reads_the_results():
    header = ".device f (%r0:x:4:value) -> (%r1)\n  .shared 0 .local 0\n"
    fn = function("""
        .L0:
          IADD %r1, %r0, 1
          IADD %r2, %r0, 2
          RET
    """, header, "f")
    assert DeadCode().run(fn, Analyses(fn))
    verify(fn)
    assert [str(i) for i in fn.blocks[0].instrs] == ["IADD %r1, %r0, 1", "RET"]

"""simplify-cfg, IR text in and IR text out; `verify` runs after the pass."""
from helpers.pass_cases import check
from minicuda.passes.simplify_cfg import SimplifyCFG


def test_simplify_drops_jump_to_next_and_merges():
    check(SimplifyCFG(), """
        .L0:
          IADD %r1, %r0, 1
          BRA .L1
        .L1:
          STG [%rd0], %r1
          @%p0 BRA .L2
        .L2:
          EXIT
    """, """
        .L0:
          IADD %r1, %r0, 1
          STG [%rd0], %r1
          EXIT
    """)


def test_simplify_leaves_a_diamond():
    check(SimplifyCFG(), """
        .L0:
          @%p0 BRA .L2
        .L1:
          MOV %r1, 1
          BRA .L3
        .L2:
          MOV %r1, 2
        .L3:
          STG [%rd0], %r1
          EXIT
    """, None)


def test_simplify_threads_jumps_and_drops_dead_jump_blocks():
    check(SimplifyCFG(), """
        .L0:
          @%p0 BRA .L3
        .L1:
          STG [%rd0], %r1
          BRA .L4
        .L2:
          EXIT
        .L3:
          BRA .L5
        .L4:
          MOV %r2, 1
          EXIT
        .L5:
          STG [%rd0], %r2
          EXIT
    """, """
        .L0:
          @%p0 BRA .L5
        .L1:
          STG [%rd0], %r1
          MOV %r2, 1
          EXIT
        .L2:
          EXIT
        .L5:
          STG [%rd0], %r2
          EXIT
    """)


def test_simplify_threads_through_empty_blocks():
    check(SimplifyCFG(), """
        .L0:
          @%p0 BRA .L1
          BRA .L3
        .L1:
        .L2:
          STG [%rd0], %r1
          EXIT
        .L3:
          EXIT
    """, """
        .L0:
          @%p0 BRA .L2
          BRA .L3
        .L2:
          STG [%rd0], %r1
          EXIT
        .L3:
          EXIT
    """)


def test_simplify_keeps_labels_markers_name():
    check(SimplifyCFG(), """
        .L0:
          BSSY B0, .L1
          BRA .L1
        .L1:
          BSYNC B0
          EXIT
    """, """
        .L0:
          BSSY B0, .L1
        .L1:
          BSYNC B0
          EXIT
    """)


def test_simplify_merges_a_distant_block_and_keeps_its_fallthrough():
    check(SimplifyCFG(), """
        .L0:
          IADD %r1, %r0, 1
          BRA .L2
        .L1:
          EXIT
        .L2:
          STG [%rd0], %r1
          @%p0 BRA .L0
        .L3:
          EXIT
    """, """
        .L0:
          IADD %r1, %r0, 1
          STG [%rd0], %r1
          @%p0 BRA .L0
          BRA .L3
        .L1:
          EXIT
        .L3:
          EXIT
    """)


def test_simplify_two_way_branch_to_one_target_and_jump_cycles():
    check(SimplifyCFG(), """
        .L0:
          @%p0 BRA .L3
          BRA .L3
        .L1:
          BRA .L2
        .L2:
          BRA .L1
        .L3:
          @%p1 BRA .L1
        .L4:
          EXIT
    """, """
        .L0:
          @%p1 BRA .L1
          BRA .L4
        .L1:
          BRA .L1
        .L4:
          EXIT
    """)

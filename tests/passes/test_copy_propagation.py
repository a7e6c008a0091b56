"""copy-propagation, IR text in and IR text out; `verify` runs after the pass."""
from helpers.pass_cases import check
from minicuda.passes.copy_propagation import CopyPropagation


def test_copies_replace_uses():
    check(CopyPropagation(), """
        .L0:
          MOV %r1, %r0
          MOV %r4, 7
          IADD %r3, %r1, 1
          IMUL %r5, %r4, %r3
          STG [%rd0], %r1
          STG [%rd0], %r4
          MOV %rd2, %rd0
          LDG %r6, [%rd2+0x4]
          MOV %p1, %p0
          @%p1 STG [%rd2], %r6
          EXIT
    """, """
        .L0:
          MOV %r1, %r0
          MOV %r4, 7
          IADD %r3, %r0, 1
          IMUL %r5, 7, %r3
          STG [%rd0], %r0
          STG [%rd0], %r4
          MOV %rd2, %rd0
          LDG %r6, [%rd0+0x4]
          MOV %p1, %p0
          @%p0 STG [%rd0], %r6
          EXIT
    """)


def test_copy_dies_when_its_source_is_redefined():
    check(CopyPropagation(), """
        .L0:
          MOV %r1, %r2
          IADD %r2, %r2, 1
          IADD %r3, %r1, 1
          MOV %r4, %r5
          @%p0 MOV %r5, 0
          IADD %r6, %r4, 1
          STG [%rd0], %r3
          EXIT
    """, None)


def test_copy_dies_when_the_copy_is_redefined():
    check(CopyPropagation(), """
        .L0:
          MOV %r1, %r2
          IADD %r1, %r1, 1
          IADD %r3, %r1, 1
          MOV %r4, %r2
          MOV %r4, %r5
          IADD %r6, %r4, 1
          EXIT
    """, """
        .L0:
          MOV %r1, %r2
          IADD %r1, %r2, 1
          IADD %r3, %r1, 1
          MOV %r4, %r2
          MOV %r4, %r5
          IADD %r6, %r5, 1
          EXIT
    """)


def test_guarded_mov_is_not_a_copy_and_blocks_are_separate():
    check(CopyPropagation(), """
        .L0:
          @%p0 MOV %r1, %r2
          IADD %r3, %r1, 1
          MOV %r4, %r2
          BRA .L1
        .L1:
          IADD %r5, %r4, 1
          EXIT
    """, None)


def test_copies_chain_and_keep_widths():
    check(CopyPropagation(), """
        .L0:
          MOV %r1, %r0
          MOV %r2, %r1
          IADD %r3, %r2, %r2
          MOV %rd1, %r3
          IADD.64 %rd2, %rd1, 1
          MOV %rd3, 5
          IADD.64 %rd4, %rd3, %rd3
          SHL.64 %rd5, %rd4, %rd3
          EXIT
    """, """
        .L0:
          MOV %r1, %r0
          MOV %r2, %r0
          IADD %r3, %r0, %r0
          MOV %rd1, %r3
          IADD.64 %rd2, %rd1, 1
          MOV %rd3, 5
          IADD.64 %rd4, 5, 5
          SHL.64 %rd5, %rd4, %rd3
          EXIT
    """)

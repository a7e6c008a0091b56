"""cse (common subexpressions), IR text in and IR text out; `verify` runs after the pass."""
from helpers.pass_cases import check
from minicuda.passes.cse import CommonSubexpressions


def test_cse_reuses_an_earlier_value():
    check(CommonSubexpressions(), """
        .L0:
          IADD %r3, %r1, %r2
          ISETP.LT %p1, %r1, %r2
          S2R %r5, SR_TID.X
          IADD %r4, %r1, %r2
          ISETP.LT %p2, %r1, %r2
          S2R %r6, SR_TID.X
          IADD %r3, %r1, %r2
          EXIT
    """, """
        .L0:
          IADD %r3, %r1, %r2
          ISETP.LT %p1, %r1, %r2
          S2R %r5, SR_TID.X
          MOV %r4, %r3
          MOV %p2, %p1
          MOV %r6, %r5
          EXIT
    """)


def test_cse_respects_redefinitions():
    check(CommonSubexpressions(), """
        .L0:
          IADD %r3, %r1, %r2
          IADD %r1, %r1, 1
          IADD %r4, %r1, %r2
          IMUL %r5, %r1, %r2
          MOV %r5, 0
          IMUL %r6, %r1, %r2
          IADD %r7, %r7, 1
          IADD %r8, %r7, 1
          FADD %r9, %r1, 1.0
          @%p0 MOV %r1, 0
          FADD %r10, %r1, 1.0
          EXIT
    """, None)


def test_cse_needs_identical_unguarded_pure_instructions():
    check(CommonSubexpressions(), """
        .L0:
          FADD %r3, %r1, 1.0
          FADD %r4, %r1, 1
          ISETP.LT %p1, %r1, %r2
          ISETP.LT.U32 %p2, %r1, %r2
          @%p0 IADD %r5, %r1, %r2
          IADD %r6, %r1, %r2
          @%p0 IADD %r7, %r1, %r2
          LDG %r8, [%rd0]
          LDG %r9, [%rd0]
          MOV %r10, 1
          MOV %r11, 1
          EXIT
    """, None)

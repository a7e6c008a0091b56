"""constant-fold, IR text in and IR text out; `verify` runs after the pass."""
from hypothesis import given, settings, strategies as st

from helpers.pass_cases import check, function
from minicuda.ir import Imm, parse_instr
from minicuda.passes.constant_fold import ConstantFold
from minicuda.pipeline import Analyses
from minicuda.semantics import evaluate, operand_value, source_widths


def test_fold_integer_float_and_predicate_results():
    check(ConstantFold(), """
        .L0:
          IADD %r1, 2, 3
          IMUL.U32 %r2, -1, 2
          IADD.64 %rd1, 0x100000000, 1
          IDIV %r4, 7, 0
          SHR.S32 %r5, -16, 2
          FADD %r3, 1.5, 2.25
          @%p0 I2F.F32.S32 %r6, 3
          FDIV %r7, 0.0, 0.0
          ISETP.LT %p1, 1, 2
          FSETP.EQ %p2, +QNAN, +QNAN
          STG [%rd0], %r1
          EXIT
    """, """
        .L0:
          MOV %r1, 5
          MOV %r2, 0xfffffffe
          MOV %rd1, 0x100000001
          MOV %r4, -1
          MOV %r5, -4
          MOV %r3, 3.75
          @%p0 MOV %r6, 3.0
          MOV %r7, 0x7fffffff
          MOV %p1, PT
          PNOT %p2, PT
          STG [%rd0], %r1
          EXIT
    """)


def test_fold_leaves_registers_side_effects_and_unknown_ops():
    check(ConstantFold(), """
        .L0:
          IADD %r1, %r0, 3
          MOV %r2, 7
          STG [%rd0], 5
          S2R %r3, SR_TID.X
          ATOM.ADD %r4, [%rd0], 1
          SHFL.DOWN %r5, 1, 1, 32, -1
          MUFU.BOGUS %r6, 1.0
          IADD.64 R4, 1, 2
          EXIT
    """, None)


@settings(max_examples=200, deadline=None)
@given(op=st.sampled_from(["IADD", "IMUL.U32", "SHR.S32", "IDIV", "IREM.U32", "FADD", "FMUL", "FDIV",
                           "MUFU.SQRT", "I2F.F32.S32", "F2I.S32.F32", "DADD", "DDIV", "I2F.F64.S64",
                           "IMULHI.U64", "LOP.XOR.64"]),
       a=st.one_of(st.integers(-(1 << 40), 1 << 40), st.floats(width=32)),
       b=st.one_of(st.integers(-(1 << 40), 1 << 40), st.floats(width=32)))
def test_folded_immediate_reads_back_as_the_same_bits(op, a, b):
    """Fold, print, parse: the MOV's immediate holds exactly the value evaluate gives."""
    wide = op.startswith("D") or op.endswith(("64", "F64.S64"))
    d = "%rd1" if wide and not op.startswith("F2I") else "%r1"
    unary = op.startswith(("MUFU", "I2F", "F2I"))
    ins = parse_instr(f"{op} {d}, {Imm(a)}" + ("" if unary else f", {Imm(b)}"), 1)
    expected = evaluate(ins, [operand_value(s, w) for s, w in zip(ins.srcs, source_widths(ins))])
    fn = function(f".L0:\n  {ins}\n  EXIT\n")
    assert ConstantFold().run(fn, Analyses(fn))
    mov = parse_instr(str(fn.blocks[0].instrs[0]), 1)
    assert mov.op == "MOV" and mov.dsts[0].name == d
    assert operand_value(mov.srcs[0], expected.dtype.itemsize * 8) == expected

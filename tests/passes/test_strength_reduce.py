"""strength-reduce gives the bits the multiply or divide it replaces gives, for every x."""
import numpy as np
from hypothesis import given, settings, strategies as st

from minicuda.ir import parse_instr
from minicuda.passes.strength_reduce import StrengthReduce
from helpers.pass_cases import function
from minicuda.pipeline import Analyses
from minicuda.semantics import evaluate, operand_value, source_widths


def reduce_one(text: str):
    fn = function(f".L0:\n  {text}\n  EXIT\n")
    changed = StrengthReduce().run(fn, Analyses(fn))
    return changed, fn.blocks[0].instrs[0]


def value(ins, x: int):
    srcs = [operand_value(s.value, w) if not hasattr(s, "name") else operand_value(x, w)
            for s, w in zip(ins.srcs, source_widths(ins))]
    return int(evaluate(ins, [np.array([v]) for v in srcs])[0])


@settings(max_examples=300, deadline=None)
@given(op=st.sampled_from(["IMUL.U32 %r0, %r1, C", "IMUL %r0, C, %r1", "IMUL.S64 %rd0, %rd1, C",
                           "IDIV.U32 %r0, %r1, C", "IREM.U32 %r0, %r1, C", "IDIV.U64 %rd0, %rd1, C",
                           "IREM.U64 %rd0, %rd1, C", "IDIV.S32 %r0, %r1, C"]),
       k=st.integers(0, 40), x=st.integers(-(1 << 63), (1 << 64) - 1))
def test_reduced_instruction_gives_the_same_bits(op, k, x):
    bits = 64 if "%rd" in op else 32
    text = op.replace("C", str(1 << k))
    original = parse_instr(text, 1)
    changed, reduced = reduce_one(text)
    if k >= bits or ".S32" in op and "IDIV" in op:
        assert not changed                      # 2^k is 0 at this width, or the divide is signed
        return
    assert changed and reduced.op in ("SHL", "SHR", "LOP")
    assert value(reduced, x) == value(original, x)

"""The cleanup passes together (pipeline.CLEANUP, each built from the registry): their
names, and random programs whose stores no order of the passes changes.  Each pass's
own cases, and the fixed point under --verify-each, are FileCheck tests in
tests/passes/filecheck/."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from helpers.pass_cases import function
from minicuda.ir import Reg, format_function
from minicuda.passes.constant_fold import ConstantFold
from minicuda.pipeline import CLEANUP, PASSES, Options, run_passes
from minicuda.semantics import evaluate, operand_value, source_widths

CLEANUP_PASSES = {name: PASSES[name].build(Options()) for name in CLEANUP}


# ---- all together -------------------------------------------------------------------------
def test_passes_have_kebab_names_and_are_frozen():
    assert sorted(CLEANUP_PASSES) == ["constant-fold", "copy-propagation", "cse", "dce", "simplify-cfg"]
    with pytest.raises(Exception):
        ConstantFold().name = "x"


# ---- the passes never change what a program stores --------------------------------------
LANES = 4
REGS = [f"%r{i}" for i in range(1, 6)] + ["RZ"]
PREDS = ["%p1", "%p2", "%p3", "PT"]


@st.composite
def instruction(draw) -> str:
    dst, pdst = draw(st.sampled_from(REGS[:-1])), draw(st.sampled_from(PREDS[:-1]))
    a, b = (draw(st.one_of(st.sampled_from(REGS), st.integers(-3, 3).map(str))) for _ in range(2))
    p, q = draw(st.sampled_from(PREDS)), draw(st.sampled_from(PREDS))
    ins = draw(st.sampled_from([
        f"MOV {dst}, {a}", f"IADD {dst}, {a}, {b}", f"IMUL {dst}, {a}, {b}", f"LOP.XOR {dst}, {a}, {b}",
        f"ISETP.LT {pdst}, {a}, {b}", f"SEL {dst}, {a}, {b}, {p}", f"PLOP.AND {pdst}, {p}, {q}",
        f"MOV {pdst}, {draw(st.sampled_from(PREDS[:-1]))}", f"STG [%rd0], {dst}"]))
    return draw(st.sampled_from(["", "", "", "@%p1 ", "@!%p2 "])) + ins


@st.composite
def programs(draw) -> str:
    """Random kernels over a few registers: guarded writes, redefinitions, forward
    branches and bounded loops (%r9 counts back edges; nothing else touches it)."""
    n = draw(st.integers(1, 5))
    text = ".LS:\n  MOV %r9, 0\n"
    for k in range(n):
        text += f".L{k}:\n" + "".join(f"  {i}\n" for i in draw(st.lists(instruction(), max_size=7)))
        end = draw(st.sampled_from(["fall", "jump", "branch", "loop"])) if k < n - 1 else "exit"
        if end == "jump":
            text += f"  BRA .L{draw(st.integers(k + 1, n - 1))}\n"
        elif end == "branch":
            text += f"  {draw(st.sampled_from(['@%p1', '@!%p3']))} BRA .L{draw(st.integers(k + 1, n - 1))}\n"
        elif end == "loop":
            text += f"  IADD %r9, %r9, 1\n  ISETP.LT %p9, %r9, 4\n  @%p9 BRA .L{draw(st.integers(0, k))}\n"
    return text + "".join(f"  STG [%rd0], {r}\n" for r in REGS[:-1]) + "  EXIT\n"


def _stores(fn, initial: dict, lane: int) -> list:
    """What one thread stores, in order (a scalar interpreter over semantics.evaluate)."""
    regs = {name: value[lane:lane + 1] for name, value in initial.items()}
    regs.update(RZ=np.zeros(1, np.uint32), PT=np.ones(1, bool))
    out, index = [], 0
    while True:
        block, index = fn.blocks[index], index + 1
        for ins in block.instrs:
            active = ins.guard is None or bool(regs[ins.guard.name][0]) != ins.guard_neg
            if ins.op == "EXIT":
                return out
            if ins.op == "BRA":
                if active:
                    index = [b.label for b in fn.blocks].index(ins.target)
                    break
                continue
            if not active:
                continue
            if ins.op == "STG":
                value = ins.srcs[1]
                out.append(int((regs[value.name] if isinstance(value, Reg) else operand_value(value, 32))[0]))
                continue
            vals = [regs[s.name] if isinstance(s, Reg) else operand_value(s, w, 1)
                    for s, w in zip(ins.srcs, source_widths(ins))]
            if ins.dsts[0].name not in ("RZ", "PT"):
                regs[ins.dsts[0].name] = evaluate(ins, vals)


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(program=programs(), order=st.permutations(sorted(CLEANUP_PASSES)), seed=st.integers(0, 2 ** 32 - 1))
def test_cleanup_preserves_stores(program, order, seed):
    rng = np.random.default_rng(seed)
    initial = {r: rng.integers(-4, 5, LANES).astype(np.uint32) for r in REGS[:-1] + ["%r9"]}
    initial.update({p: rng.integers(0, 2, LANES).astype(bool) for p in PREDS[:-1] + ["%p9"]})
    fn = function(program)
    expected = [_stores(fn, initial, lane) for lane in range(LANES)]
    for _ in range(2):
        run_passes(fn, [CLEANUP_PASSES[n] for n in order], Options(verify_each=True))
    assert [_stores(fn, initial, lane) for lane in range(LANES)] == expected, format_function(fn, with_loc=False)

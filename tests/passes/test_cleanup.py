"""The cleanup passes, IR text in and IR text out.  Each case gives the blocks of a
kernel before and after one pass; `verify` runs after every pass."""
from __future__ import annotations

from textwrap import dedent

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from minicuda.ir import Imm, Reg, format_function, parse_instr, parse_module, verify
from minicuda.passes.cleanup import (CLEANUP_PASSES, CommonSubexpressions, ConstantFold, CopyPropagation,
                                     DeadCode, SimplifyCFG)
from minicuda.pipeline import Analyses, Options, run_passes
from minicuda.semantics import evaluate, operand_value, source_widths

HEADER = ".kernel k (%rd0:out:8:pointer)\n  .shared 0 .local 0\n"


def function(body: str, header: str = HEADER, name: str = "k"):
    return next(iter(parse_module(header + dedent(body) + f".end {name}\n").functions.values()))


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def check(pass_, before: str, after: str | None, header: str = HEADER) -> None:
    """Run pass_ on `before`; expect `after` (None: no change, the text stays)."""
    fn = function(before, header)
    changed = pass_.run(fn, Analyses(fn))
    verify(fn, pass_.name)
    expected = function(after if after is not None else before, header)
    assert lines(format_function(fn, with_loc=False)) == lines(format_function(expected, with_loc=False))
    assert changed == (after is not None)


# ---- constant-fold ------------------------------------------------------------------------
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


# ---- copy-propagation -----------------------------------------------------------------------
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


# ---- cse ----------------------------------------------------------------------------------
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


# ---- dce ----------------------------------------------------------------------------------
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


# ---- simplify-cfg -------------------------------------------------------------------------
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


# ---- all together -------------------------------------------------------------------------
def test_passes_have_kebab_names_and_are_frozen():
    assert sorted(CLEANUP_PASSES) == ["constant-fold", "copy-propagation", "cse", "dce", "simplify-cfg"]
    with pytest.raises(Exception):
        ConstantFold().name = "x"


def test_pipeline_to_a_fixed_point_with_verify_each():
    fn = function("""
        .L0:
          MOV %r1, 4
          IMUL %r2, %r1, 8
          S2R %r3, SR_TID.X
          IADD %r4, %r3, %r2
          IADD %r5, %r3, %r2
          ISETP.LT %p0, %r4, %r5
          @%p0 BRA .L1
          BRA .L2
        .L1:
          BRA .L2
        .L2:
          IADD %r6, %r5, %r4
          STG [%rd0], %r6
          EXIT
    """)
    passes = [CLEANUP_PASSES[n] for n in ("constant-fold", "copy-propagation", "cse", "copy-propagation",
                                          "dce", "simplify-cfg")]
    options = Options(verify_each=True)
    for _ in range(3):
        run_passes(fn, passes, options)
    assert lines(format_function(fn, with_loc=False))[2:-1] == lines("""
        .L0:
          S2R %r3, SR_TID.X
          IADD %r4, %r3, 32
          IADD %r6, %r4, %r4
          STG [%rd0], %r6
          EXIT
    """)


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

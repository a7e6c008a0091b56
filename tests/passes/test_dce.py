"""dce sweeps blocks after their successors and reads liveness only where a cycle runs:
its result must be that of the plain fixed point (sweep every block on fresh liveness
until nothing is dead), checked here on random functions with loops, guarded writes
and RET (which reads the result)."""
import random

from minicuda.ir import format_function, parse_module
from minicuda.passes.cfg import build_cfg
from minicuda.passes.dce import DeadCode, remove_unreachable_blocks
from minicuda.passes.liveness import liveness, read_names, return_names
from minicuda.pipeline import Analyses
from minicuda.semantics import is_pure


def reference_dce(fn) -> None:
    """Remove unreachable blocks, then sweep every block on fresh liveness until no
    instruction is dead (what dce computed before its sweep order)."""
    remove_unreachable_blocks(fn, build_cfg(fn))
    rets = return_names(fn)
    while True:
        live_out = liveness(fn, build_cfg(fn)).live_out
        removed = False
        for block in fn.blocks:
            live, kept = set(live_out[block.label]), []
            for ins in reversed(block.instrs):
                if ins.dsts and is_pure(ins) and all(d.name in ("RZ", "PT") or (d.is_virtual and d.name not in live)
                                                     for d in ins.dsts):
                    removed = True
                    continue
                if ins.guard is None:
                    live -= {d.name for d in ins.dsts}
                live |= set(read_names(ins, rets))
                kept.append(ins)
            block.instrs = kept[::-1]
        if not removed:
            return


def random_function(rng: random.Random) -> str:
    """A device function of a few blocks: pure arithmetic on a few registers, guarded
    writes, stores, and branches forward and back (loops)."""
    n = rng.randint(1, 7)
    lines = [".device f (%r0:x:4:value, %rd0:p:8:pointer) -> (%r1)", "  .shared 0 .local 0"]
    reg = lambda: f"%r{rng.randint(0, 6)}"
    for b in range(n):
        lines.append(f".L{b}:")
        for _ in range(rng.randint(0, 5)):
            kind = rng.random()
            if kind < 0.5:
                lines.append(f"  IADD {reg()}, {reg()}, {reg()}")
            elif kind < 0.65:
                lines.append(f"  @%p{rng.randint(0, 1)} IADD {reg()}, {reg()}, 1")
            elif kind < 0.8:
                lines.append(f"  ISETP.LT %p{rng.randint(0, 1)}, {reg()}, {reg()}")
            else:
                lines.append(f"  STG [%rd0], {reg()}")
        end = rng.random()
        if end < 0.3:
            lines.append(f"  @%p{rng.randint(0, 1)} BRA .L{rng.randint(0, n - 1)}")
        elif end < 0.45:
            lines.append(f"  BRA .L{rng.randint(0, n - 1)}")
        elif end < 0.6 or b == n - 1:
            lines.append("  RET")
    lines.append(".end f")
    return "\n".join(lines) + "\n"


def test_dce_reaches_the_plain_fixed_point_on_random_functions():
    rng = random.Random(7)
    for _ in range(400):
        text = random_function(rng)
        fn, expected = parse_module(text).functions["f"], parse_module(text).functions["f"]
        DeadCode().run(fn, Analyses(fn))
        reference_dce(expected)
        assert format_function(fn) == format_function(expected), text


def test_a_dead_chain_across_blocks_goes_in_one_sweep_without_liveness(monkeypatch):
    """Each IADD is read only by the dead one after it, in the next block."""
    fn = parse_module(""".kernel k (%rd0:out:8:pointer)
  .shared 0 .local 0
.L0:
  IADD %r1, %r0, 1
  BRA .L1
.L1:
  IADD %r2, %r1, 1
  BRA .L2
.L2:
  IADD %r3, %r2, 1
  EXIT
.end k
""").functions["k"]
    analyses = Analyses(fn)
    assert DeadCode().run(fn, analyses)
    assert [ins.op for b in fn.blocks for ins in b.instrs] == ["BRA", "BRA", "EXIT"]
    assert "liveness" not in analyses.cache

"""Immediate post-dominators on hand-written CFGs.

Each case is IR text; `// ipdom: X` under a block's label is that block's expected
immediate post-dominator (`EXIT` for the virtual exit, `None` when no path from
the block reaches the exit).
"""
import pytest

from minicuda.ir import format_module, parse_module, verify
from minicuda.pipeline import Analyses
from minicuda.passes.cfg import build_cfg
from minicuda.passes.postdom import ipdom, ipdom_of

IF_THEN = """
.kernel if_then ()
.L0:
  // ipdom: .L2
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L2
.L1:
  // ipdom: .L2
  MOV %r1, 1
.L2:
  // ipdom: EXIT
  EXIT
.end if_then
"""

IF_THEN_ELSE = """
.kernel if_then_else ()
.L0:
  // ipdom: .L3
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L2
.L1:
  // ipdom: .L3
  MOV %r1, 1
  BRA .L3
.L2:
  // ipdom: .L3
  MOV %r1, 2
.L3:
  // ipdom: EXIT
  EXIT
.end if_then_else
"""

NESTED_IFS = """
.kernel nested_ifs ()
.L0:
  // ipdom: .L5
  @%p0 BRA .L4
.L1:
  // ipdom: .L3
  @%p1 BRA .L3
.L2:
  // ipdom: .L3
  MOV %r1, 1
.L3:
  // ipdom: .L5
  MOV %r2, 2
  BRA .L5
.L4:
  // ipdom: .L5
  MOV %r2, 3
.L5:
  // ipdom: EXIT
  EXIT
.end nested_ifs
"""

LOOP_BREAK_CONTINUE = """
.kernel loop_break_continue (%r9:n:4:value)
.L0:
  // ipdom: .L1
  MOV %r0, 0
.L1:
  // ipdom: .L6
  ISETP.GE %p0, %r0, %r9
  @%p0 BRA .L6
.L2:
  // ipdom: .L6
  ISETP.EQ %p1, %r0, 7
  @%p1 BRA .L6
.L3:
  // ipdom: .L5
  ISETP.EQ %p2, %r0, 3
  @%p2 BRA .L5
.L4:
  // ipdom: .L5
  IADD %r1, %r1, %r0
.L5:
  // ipdom: .L1
  IADD %r0, %r0, 1
  BRA .L1
.L6:
  // ipdom: EXIT
  EXIT
.end loop_break_continue
"""

DO_WHILE = """
.kernel do_while ()
.L0:
  // ipdom: .L1
  MOV %r0, 0
.L1:
  // ipdom: .L2
  IADD %r0, %r0, 1
  ISETP.LT %p0, %r0, 10
  @%p0 BRA .L1
.L2:
  // ipdom: EXIT
  EXIT
.end do_while
"""

EARLY_EXIT = """
.kernel early_exit (%rd0:a:8:pointer)
.L0:
  // ipdom: EXIT
  @%p0 BRA .L3
.L1:
  // ipdom: EXIT
  STG [%rd0], %r0
  @%p1 EXIT
.L2:
  // ipdom: .L3
  MOV %r0, 1
.L3:
  // ipdom: EXIT
  STG [%rd0], %r0
  EXIT
.end early_exit
"""

EARLY_RETURN = """
.device early_return (%r0:x:4:value) -> (%r1)
.L0:
  // ipdom: EXIT
  MOV %r1, 0
  ISETP.LT %p0, %r0, 0
  @!%p0 BRA .L2
.L1:
  // ipdom: EXIT
  RET
.L2:
  // ipdom: EXIT
  IADD %r1, %r0, 1
  RET
.end early_return
"""

SWITCH = """
.kernel switch_chain ()
.L0:
  // ipdom: .L7
  ISETP.EQ %p0, %r0, 0
  @%p0 BRA .L4
.L1:
  // ipdom: .L7
  ISETP.EQ %p1, %r0, 1
  @%p1 BRA .L5
.L2:
  // ipdom: .L7
  ISETP.EQ %p2, %r0, 2
  @%p2 BRA .L6
.L3:
  // ipdom: .L7
  MOV %r1, 9
  BRA .L7
.L4:
  // ipdom: .L5
  MOV %r1, 10
.L5:
  // ipdom: .L7
  IADD %r1, %r1, 1
  BRA .L7
.L6:
  // ipdom: .L7
  MOV %r1, 12
.L7:
  // ipdom: EXIT
  EXIT
.end switch_chain
"""

INFINITE_LOOP = """
.kernel infinite_loop ()
.L0:
  // ipdom: None
  MOV %r0, 0
.L1:
  // ipdom: None
  @%p0 BRA .L3
.L2:
  // ipdom: None
  IADD %r0, %r0, 1
.L3:
  // ipdom: None
  BRA .L1
.end infinite_loop
"""

# A path into a spin loop never reaches the exit, so it does not count: the branch
# post-dominates on its other side only.
SPIN_ON_ONE_SIDE = """
.kernel spin_on_one_side ()
.L0:
  // ipdom: .L2
  @%p0 BRA .L2
.L1:
  // ipdom: None
  BRA .L1
.L2:
  // ipdom: EXIT
  EXIT
.end spin_on_one_side
"""

CASES = [IF_THEN, IF_THEN_ELSE, NESTED_IFS, LOOP_BREAK_CONTINUE, DO_WHILE, EARLY_EXIT,
         EARLY_RETURN, SWITCH, INFINITE_LOOP, SPIN_ON_ONE_SIDE]


def expected_ipdoms(text: str) -> dict[str, str | None]:
    out, label = {}, None
    for line in text.splitlines():
        s = line.strip()
        if s.endswith(":") and " " not in s:
            label = s[:-1]
        elif s.startswith("// ipdom:"):
            value = s.split(":", 1)[1].strip()
            out[label] = None if value == "None" else value
    return out


def only_function(text: str):
    mod = parse_module(text)
    assert parse_module(format_module(mod)) == mod
    (fn,) = mod.functions.values()
    verify(fn)
    return fn


@pytest.mark.parametrize("text", CASES, ids=lambda t: t.split()[1])
def test_ipdom_matches_annotations(text):
    fn = only_function(text)
    want = expected_ipdoms(text)
    assert set(want) == {b.label for b in fn.blocks}
    assert ipdom(fn) == want


def test_ipdom_through_the_analysis_cache():
    fn = only_function(IF_THEN_ELSE)
    analyses = Analyses(fn)
    assert analyses.get("ipdom") == ipdom_of(build_cfg(fn)) == expected_ipdoms(IF_THEN_ELSE)
    assert analyses.get("ipdom") is analyses.get("ipdom")

"""Property tests: for race-free kernels without warp intrinsics, the stack model, ITS
and a plain per-thread scalar execution give identical memory, at -O0 and -O3
(if-conversion never changes results)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minicuda
from minicuda.vm.launcher import Device

VARS = ["t", "a", "b", "n"]


@st.composite
def expressions(draw, depth=0):
    if depth > 2 or draw(st.booleans()):
        return draw(st.sampled_from(VARS + [str(draw(st.integers(0, 9)))]))
    op = draw(st.sampled_from(["+", "-", "*", "&", "|", "^", "%", "/", "<<", ">>"]))
    lhs, rhs = draw(expressions(depth + 1)), draw(expressions(depth + 1))
    if op in ("%", "/"):
        return f"({lhs} {op} (({rhs} & 7) + 1))"
    if op in ("<<", ">>"):
        return f"({lhs} {op} ({rhs} & 3))"
    return f"({lhs} {op} {rhs})"


@st.composite
def statements(draw, depth=0):
    kind = draw(st.sampled_from(["assign", "assign", "if", "ifelse", "loop"] if depth < 2 else ["assign"]))
    target = draw(st.sampled_from(["a", "b"]))
    if kind == "assign":
        return f"{target} = {draw(expressions())};"
    cond = f"({draw(expressions())}) % {draw(st.integers(2, 5))} == {draw(st.integers(0, 1))}"
    body = " ".join(draw(st.lists(statements(depth + 1), min_size=1, max_size=3)))
    if kind == "if":
        return f"if ({cond}) {{ {body} }}"
    if kind == "ifelse":
        other = " ".join(draw(st.lists(statements(depth + 1), min_size=1, max_size=3)))
        return f"if ({cond}) {{ {body} }} else {{ {other} }}"
    return f"for (int i = 0; i < (t & 3) + {draw(st.integers(0, 2))}; i++) {{ {body} }}"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.lists(statements(), min_size=1, max_size=5))
def test_stack_its_and_scalar_execution_agree(body):
    src = ("__global__ void k(int *out, int n) {\n  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  int a = t, b = n - t;\n  " + "\n  ".join(body) + "\n  out[t] = a ^ (b << 1);\n}\n")
    results = set()
    for opt in (0, 3):
        program = minicuda.compile(src, arch="sm_70", opt=opt, verify_each=True)
        for sched in ("stack", "its", "scalar"):
            out = np.zeros(80, np.int32)
            Device(program, sched=sched).launch("k", 2, 40, out, 77)
            results.add(out.tobytes())
    assert len(results) == 1, src

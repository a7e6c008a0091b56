"""Hypothesis strategies for generated kernels: race-free integer code over the
thread index `t`, two variables `a`, `b` and an argument `n`, with ifs, if-elses and
short loops whose trip counts vary across lanes (so the code diverges). Division and
shifts are guarded so that no generated program has undefined behaviour."""
from hypothesis import strategies as st

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

"""Property: token-level mutations of the samples never crash the frontend.

Each mutated program either compiles or fails with diagnostics that all carry a
location; any other exception (a Python traceback for the user) fails the test.
"""
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import SAMPLES
from minicuda.diagnostics import CompileError
from minicuda.frontend import load

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[A-Za-z_]\w*|\d[\w.]*|<<<|>>>|->|\+\+|--|&&|\|\||[<>=!]=|<<|>>|\S')
POOL = [";", "(", ")", "{", "}", "[", "]", ",", "<<<", ">>>", "<", ">", "*", "&", "int", "float", "void",
        "__global__", "__shared__", "__syncthreads", "threadIdx", "x", "0", "1.0f", "0x1F", '"s"', "'c'",
        "#", "#define", "#if", "\\", "return", "if", "else", "for", "while", "struct", "typedef", "template",
        "dim3", "=", "+=", "?", ":", "...", "sizeof", "@", '"', "'"]
SOURCES = {p.name: p.read_text() for p in SAMPLES}


def mutate(text: str, edits: list[tuple[int, int, int]]) -> str:
    tokens = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    for kind, where, what in edits:
        start, end = tokens[where % len(tokens)]
        repl = {0: "", 1: POOL[what % len(POOL)], 2: text[start:end] + " " + text[start:end],
                3: POOL[what % len(POOL)] + " " + text[start:end]}[kind]
        text = text[:start] + repl + text[end:]
        tokens = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    return text


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SOURCES)),
       edits=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 10**3)), min_size=1, max_size=3))
def test_mutated_samples_give_success_or_located_diagnostics(name, edits):
    src = mutate(SOURCES[name], edits)
    try:
        load(src)
    except CompileError as e:
        assert e.diagnostics
        for d in e.diagnostics:
            assert d.loc is not None and d.loc.line > 0 and d.loc.col > 0, d.header()
            assert not d.message.startswith("internal"), d.header()

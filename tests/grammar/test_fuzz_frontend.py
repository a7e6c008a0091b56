"""Property: token-level mutations of the samples never crash the frontend.

Each mutated program either compiles or fails with diagnostics that all carry a
location; any other exception (a Python traceback for the user) fails the test.
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import SAMPLES
from helpers.mutations import EDITS, mutate
from minicuda.diagnostics import CompileError
from minicuda.frontend import load

SOURCES = {p.name: p.read_text() for p in SAMPLES}


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SOURCES)),
       edits=EDITS)
def test_mutated_samples_give_success_or_located_diagnostics(name, edits):
    src = mutate(SOURCES[name], edits)
    try:
        load(src)
    except CompileError as e:
        assert e.diagnostics
        for d in e.diagnostics:
            if d.severity == "fatal error" and d.message == "too many errors emitted, stopping now":
                continue   # clang's error limit: it names no place either
            assert d.loc is not None and d.loc.line > 0 and d.loc.col > 0, d.header()
            assert not d.message.startswith("internal"), d.header()

"""Property: token-level mutations of the samples and of the C++ programs (the corpus
and tests/programs/cxx_language, helpers.mutations.CXX_UNITS) never crash the frontend.

Each mutated program either compiles or fails with diagnostics that all carry a
location; any other exception (a Python traceback for the user) fails the test.
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import SAMPLES
from helpers.mutations import CXX_UNITS, EDITS, mutate
from minicuda.diagnostics import CompileError
from minicuda.frontend import load
from minicuda.grammar.languages import CUDA, language_of

SOURCES = {p.name: p.read_text() for p in SAMPLES}


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SOURCES)),
       edits=EDITS)
def test_mutated_samples_give_success_or_located_diagnostics(name, edits):
    assert_loads_or_locates(mutate(SOURCES[name], edits))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CXX_UNITS)), edits=EDITS)
def test_mutated_cxx_programs_give_success_or_located_diagnostics(name, edits):
    unit = CXX_UNITS[name]
    assert_loads_or_locates(mutate(unit.text, edits), unit.include_dirs, language_of(unit.path.name))


def assert_loads_or_locates(src: str, include_dirs=(), language: str = CUDA) -> None:
    try:
        load(src, include_dirs, language=language)
    except CompileError as e:
        assert e.diagnostics
        for d in e.diagnostics:
            if d.severity == "fatal error" and d.message == "too many errors emitted, stopping now":
                continue   # clang's error limit: it names no place either
            assert d.loc is not None and d.loc.line > 0 and d.loc.col > 0, d.header()
            assert not d.message.startswith("internal"), d.header()

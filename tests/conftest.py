"""Fixtures and settings every test folder shares; shared constants and helpers live
in tests/helpers/.

Hypothesis runs under one of two profiles: "ci" when the CI environment variable is
set (as .ci/run sets it), with derandomised examples and no example database, so a
CI run is the same run every time; "dev" otherwise, random as usual. Neither has a
deadline: timings on a shared machine are not a property of the code.
HYPOTHESIS_PROFILE picks one by name.

The compile cache (minicuda/compile_cache.py) lives in a folder of the test session,
one for all its parallel workers (an entry is written to a temporary file and renamed
into place, so workers share it safely): within a session a program run twice (both
engines, which may run on different workers) compiles once, and no session reads
modules an earlier one compiled.

Tests marked slow run first, so parallel workers (pytest-xdist) finish together
instead of one of them starting a long property test at the end.

The workers get the tests one at a time (pytest-xdist's load scheduling), but each module of
SHARED_WORK goes whole to one worker: its tests share work done once per process (a module's
fixture, a run kept in a module's dict), which every other worker given one of them would do
again. (pytest-xdist's own --dist loadgroup, by xdist_group marks, names the group in the test's
node id, which pytest 9.2 no longer lets a plugin change: it groups nothing there.)"""
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import minicuda
from helpers import GROUNDTRUTH, ROOT, SAMPLES  # noqa: F401  (older tests import these from conftest)

# tests that start `minicuda` and `minicudac` as commands find this venv's console scripts,
# whether or not the venv is activated (`.venv/bin/python -m pytest`)
os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"

settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session", autouse=True)
def compile_cache_of_the_session(tmp_path_factory):
    # a pytest-xdist worker's base folder is popen-gwN inside the session's
    session = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        session = session.parent
    folder = session / "compile-cache"
    folder.mkdir(exist_ok=True)
    os.environ["MINICUDA_COMPILE_CACHE_DIR"] = str(folder)


# module -> the work its tests share
SHARED_WORK = {
    "tests/fidelity/test_fidelity_data.py": "each kernel's run per build (fidelity/groundtruth.py, minicuda_metrics)",
    "tests/fidelity/test_heldout.py": "each program's run per build (minicuda_metrics) and per pair (_MODELLED)",
    "tests/fidelity/test_unseen_branches.py": "each program's run per build (minicuda_metrics)",
    "tests/fidelity/test_header_calls.py": "one minicuda run of the 61 launches (minicuda_counts)",
    "tests/fidelity/test_unroll_probes.py": "one compile of the 52 kernels (the fixture `compiled`)",
    "tests/fidelity/test_heldout2.py": "each program's run per build (minicuda_metrics) and per pair (_MODELLED)",
    "tests/fidelity/test_o3loop_probes.py": "one run of the 39 probe launches per engine (_RUNS)",
    "tests/fidelity/test_o3cond_probes.py": "each probe's run (minicuda_metrics)",
    "tests/fidelity/test_loop_shape.py": "one minicuda run of the 22 probe launches (_RUN)",
    "tests/minicuda/test_sass_text.py": "each sample's compile per arch and -O (_PROGRAMS)",
    "tests/vm/test_block_reductions_and_trap.py": "each program's compile per arch and -O (_PROGRAMS)",
    "tests/vm/test_jit.py": "each program's compile per arch and -O (_PROGRAMS)",
    "tests/vm/test_jit_ops.py": "the LLVM compile of the operations' functions per lane count (_COMPILED)",
}

try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:   # no pytest-xdist: the tests run in one process
    LoadScopeScheduling = None

if LoadScopeScheduling is not None:
    class SharedWorkScheduling(LoadScopeScheduling):
        """--dist load, but a module of SHARED_WORK is one unit of work: one worker runs it all."""

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in SHARED_WORK else nodeid

    def pytest_xdist_make_scheduler(config, log):
        if config.getvalue("dist") == "load":
            return SharedWorkScheduling(config, log)
        return None


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def root():
    return ROOT


@pytest.fixture(scope="session")
def compile_once():
    """minicuda.compile, each (source, options) compiled once per test process: for
    tests that launch, but never change, a program that other tests compile alike."""
    programs = {}

    def compile_(source, **options):
        key = (str(source), tuple(sorted(options.items())))
        if key not in programs:
            programs[key] = minicuda.compile(str(source), **options)
        return programs[key]

    return compile_

"""Every hand-written case of cases.py, run as a process of the real command line
under the suite's limits (see runner.py), must do what the case expects.

A case runs in a child forked from a process that has imported minicuda once
(runner.ForkServer: the same command-line entry point, limits and clean environment,
without Python's and minicuda's start-up, most of a small case's CPU time), unless it
needs a process started as a shell starts it: its own stdin, a redirected or closed
stdout, Ctrl-C to its process group.  The slow cases run so too (start-up is little of
their cost, and they are the ones near the limits), and OWN_PROCESS names a few more,
so that the console scripts themselves, and arguments as the OS hands them over, stay
under test."""
import os

import pytest

from robustness.cases import CASES
from robustness.runner import ForkServer, problems, report, run_case

OWN_PROCESS = {"no_arguments", "argument_not_utf8", "input_name_not_utf8", "input_empty_run",
               "input_empty_compile", "host_division_by_zero", "host_assert"}


def params():
    for case in CASES:
        marks = [pytest.mark.slow] if case.slow else []
        if case.needs_non_root:
            marks.append(pytest.mark.skipif(os.geteuid() == 0, reason="file modes do not bind root"))
        yield pytest.param(case, id=case.name, marks=marks)


def needs_own_process(case) -> bool:
    return case.stdin is not None or case.stdout_to is not None or case.interrupt_after is not None \
        or case.slow or case.name in OWN_PROCESS


@pytest.fixture(scope="module")
def forks():
    """The module's fork server, started when the first case needs it."""
    servers = []

    def server() -> ForkServer:
        if not servers:
            servers.append(ForkServer())
        return servers[0]

    yield server
    for started in servers:
        started.close()


@pytest.mark.parametrize("case", list(params()))
def test_case(case, tmp_path, forks):
    outcome = run_case(case, tmp_path) if needs_own_process(case) else forks().run(case, tmp_path)
    found = problems(case, outcome, tmp_path)
    assert not found, report(case, outcome, found)


def test_the_named_own_process_cases_exist():
    assert OWN_PROCESS <= {case.name for case in CASES}

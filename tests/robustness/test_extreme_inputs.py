"""Every hand-written case of cases.py, run as a process of the real command line
under the suite's limits (see runner.py), must do what the case expects."""
import os

import pytest

from robustness.cases import CASES
from robustness.runner import problems, report, run_case


def params():
    for case in CASES:
        marks = [pytest.mark.slow] if case.slow else []
        if case.needs_non_root:
            marks.append(pytest.mark.skipif(os.geteuid() == 0, reason="file modes do not bind root"))
        yield pytest.param(case, id=case.name, marks=marks)


@pytest.mark.parametrize("case", params())
def test_case(case, tmp_path):
    outcome = run_case(case, tmp_path)
    found = problems(case, outcome, tmp_path)
    assert not found, report(case, outcome, found)

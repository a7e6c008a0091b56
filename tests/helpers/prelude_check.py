"""A pytest plugin that checks every parse resumed from the prelude's state
(grammar/prelude.py) against the same text parsed from its start, for the programs a
test run compiles in its own processes:

    python -m pytest -p helpers.prelude_check tests/...

A parse that the prelude's state would build differently fails its test with the first
place the two ASTs differ; the count of checked parses is printed at the end (with -n 0:
pytest-xdist's workers count their own)."""
import pytest

from helpers.ast_shape import first_difference
from minicuda.grammar import parser

checked = [0]
_resumed = parser._parse_valid


def _checked_parse(p, retagger, pp, prelude=None):
    if prelude is None:
        return _resumed(p, retagger, pp)
    whole = _resumed(p, retagger, pp)
    tu = _resumed(p, retagger, pp, prelude)
    where = first_difference(whole, tu)
    if where is not None:
        raise AssertionError(f"the parse resumed from the prelude differs from the whole parse at {where}")
    checked[0] += 1
    return tu


def pytest_configure(config):
    parser._parse_valid = _checked_parse


def pytest_terminal_summary(terminalreporter, config):
    if getattr(config, "workerinput", None) is None and config.getoption("numprocesses", None) not in (None, 0):
        return
    terminalreporter.write_line(f"prelude check: {checked[0]} resumed parses equal to whole parses")

"""Pass tests in IR text: a kernel's blocks before and after one pass.

`function` parses blocks (indented as in a test's triple-quoted string) into a
kernel under HEADER; `check` runs a pass on them, verifies the IR and compares the
result with the expected blocks, locations left out."""
from __future__ import annotations

from textwrap import dedent

from minicuda.ir import format_function, parse_module, verify
from minicuda.pipeline import Analyses

HEADER = ".kernel k (%rd0:out:8:pointer)\n  .shared 0 .local 0\n"


def function(body: str, header: str = HEADER, name: str = "k"):
    return next(iter(parse_module(header + dedent(body) + f".end {name}\n").functions.values()))


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def check(pass_, before: str, after: str | None, header: str = HEADER) -> None:
    """Run pass_ on `before`; expect `after` (None: no change, the text stays)."""
    fn = function(before, header)
    changed = pass_.run(fn, Analyses(fn))
    verify(fn, pass_.name)
    expected = function(after if after is not None else before, header)
    assert lines(format_function(fn, with_loc=False)) == lines(format_function(expected, with_loc=False))
    assert changed == (after is not None)

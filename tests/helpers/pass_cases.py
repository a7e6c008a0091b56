"""IR text for pass tests written in Python (properties, random programs): `function`
parses blocks, indented as in a test's triple-quoted string, into a kernel under
HEADER.  Tests of one pass on fixed IR are FileCheck files (tests/passes/filecheck/)."""
from __future__ import annotations

from textwrap import dedent

from minicuda.ir import parse_module

HEADER = ".kernel k (%rd0:out:8:pointer)\n  .shared 0 .local 0\n"


def function(body: str, header: str = HEADER, name: str = "k"):
    return next(iter(parse_module(header + dedent(body) + f".end {name}\n").functions.values()))

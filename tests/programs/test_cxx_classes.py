"""C++ classes as whole programs (tests/programs/cxx/): each .cu runs with both engines
and prints its .expected (host-only programs' output recorded from g++; the kernels'
reasoned from CUDA's semantics)."""
from pathlib import Path

import pytest

from minicuda.cli import minicuda_main

PROGRAMS = sorted((Path(__file__).parent / "cxx").glob("*.cu"))


@pytest.mark.parametrize("engine", ["jit", "interp"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_prints_what_it_prints_natively(program, engine, capsys):
    assert minicuda_main(["run", str(program), "--engine", engine]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == program.with_suffix(".expected").read_text()

"""C++ beyond classes, as whole programs: each tests/programs/cxx_language/NAME.cu runs
with both engines and prints exactly NAME.expected (host code's output recorded from
g++ on the same program; a kernel's worked out by hand and stated in the program), in a
directory of its own."""
import pathlib

import pytest

from minicuda.cli import minicuda_main

PROGRAMS = sorted((pathlib.Path(__file__).parent / "cxx_language").glob("*.cu"))


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_nvcc_builds_print(path, engine, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # the files a program writes are its own
    flags = ["--expt-relaxed-constexpr"] if "expt-relaxed-constexpr" in path.read_text() else []   # as language.sh builds it
    status = minicuda_main(["run", "--engine", engine, *flags, str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out.splitlines() == path.with_suffix(".expected").read_text().splitlines()

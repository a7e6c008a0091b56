"""C++ beyond classes, as whole programs: each tests/programs/cxx_language/NAME.cu runs
with both engines and prints exactly NAME.expected (host code's output recorded from
g++ on the same program; a kernel's worked out by hand and stated in the program), in a
directory of its own.

The interpreter (the bytecode's specification) runs every program on every suite run; the JIT
runs the QUICK programs there and every program in the slow step (-m slow), since its LLVM
compile of each program's host code is most of this file's time (tests/vm's differential tests
hold the two engines to the same results on every run)."""
import pathlib

import pytest

from minicuda.cli import minicuda_main

PROGRAMS = sorted((pathlib.Path(__file__).parent / "cxx_language").glob("*.cu"))
# the JIT's runs on every suite run: class templates, lambdas, function pointers, destructors,
# new/delete and <algorithm>, each under 1.5 CPU s
QUICK = {"class_templates", "lambdas", "function_pointers", "destructor_order", "new_delete", "std_algorithms"}


def cases() -> list:
    return [pytest.param(path, engine, id=f"{path.stem}-{engine}",
                         marks=[] if engine == "interp" or path.stem in QUICK else [pytest.mark.slow])
            for path in PROGRAMS for engine in ("interp", "jit")]


def test_the_quick_programs_exist():
    assert QUICK <= {path.stem for path in PROGRAMS}


@pytest.mark.parametrize("path,engine", cases())
def test_program_prints_what_nvcc_builds_print(path, engine, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # the files a program writes are its own
    flags = ["--expt-relaxed-constexpr"] if "expt-relaxed-constexpr" in path.read_text() else []   # as language.sh builds it
    status = minicuda_main(["run", "--engine", engine, *flags, str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out.splitlines() == path.with_suffix(".expected").read_text().splitlines()

"""CUDA's built-ins as whole programs: each tests/programs/cuda_intrinsics/NAME.cu runs with
both engines and prints exactly NAME.expected (worked out by hand and stated in the program;
a first line `// minicuda-run: OPTIONS` gives the run's options, e.g. the target).  The
FileCheck tests under cuda_intrinsics/sass/ hold each intrinsic to the SASS instruction
nvcc uses and the legacy warp intrinsics to nvcc's diagnostics."""
import pathlib
import shlex

import pytest

from helpers.lit import read_run_lines, run_pipeline
from minicuda.cli import minicuda_main

FOLDER = pathlib.Path(__file__).parent / "cuda_intrinsics"
PROGRAMS = sorted(FOLDER.glob("*.cu"))
SASS_TESTS = [(path, run) for path in sorted((FOLDER / "sass").glob("*.cu")) for run in read_run_lines(path)]
OPTIONS = "// minicuda-run:"


def run_options(path: pathlib.Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    return shlex.split(first[len(OPTIONS):]) if first.startswith(OPTIONS) else []


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_the_gpu_computes(path, engine, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status = minicuda_main(["run", "--engine", engine, *run_options(path), str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out.splitlines() == path.with_suffix(".expected").read_text().splitlines()


@pytest.mark.parametrize("path,run", SASS_TESTS, ids=[f"{p.stem}@{r.line}" for p, r in SASS_TESTS])
def test_sass_of_the_intrinsics(path, run):
    run_pipeline(run, path.parent)

"""Flush-to-zero, vector constant loads and aggregates in registers as whole programs: each
tests/programs/cuda_features/NAME.cu runs with both engines (a first line
`// minicuda-run: OPTIONS` gives the run's options: -ftz=true, -use_fast_math) and prints
exactly what an H100 printed for it, recorded by tests/data/groundtruth/cuda/features.sh
(nvcc 13.0 -std=c++17 -arch=sm_90 plus those options) in
tests/data/groundtruth/cuda/out/features.txt."""
import pathlib
import re
import shlex

import pytest

from minicuda.cli import minicuda_main

FOLDER = pathlib.Path(__file__).parent / "cuda_features"
RECORD = FOLDER.parent.parent / "data" / "groundtruth" / "cuda" / "out" / "features.txt"
PROGRAMS = sorted(FOLDER.glob("*.cu"))
OPTIONS = "// minicuda-run:"
ENTRY = re.compile(r"^=== (\S+) (exit=\d+|build-failed)\n", re.M)
# nvcc contracts a * b + c into one FFMA (--fmad=true, its default); minicuda keeps the
# FMUL and the FADD, so where the rounding between them shows, the output differs
NO_CONTRACTION = "minicuda does not contract a * b + c into FFMA as nvcc's default --fmad=true does"
NEEDS_CONTRACTION = {"damped_springs", "ftz_fast_math"}


def recorded() -> dict[str, tuple[str, str]]:
    parts = ENTRY.split(RECORD.read_text().split("\n=== end\n")[0] + "\n")
    return {parts[i]: (parts[i + 1], parts[i + 2].partition("--- stderr\n")[0]) for i in range(1, len(parts), 3)}


GPU = recorded()


def run_options(path: pathlib.Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    return shlex.split(first[len(OPTIONS):]) if first.startswith(OPTIONS) else []


def cases():
    for path in PROGRAMS:
        marks = [pytest.mark.xfail(reason=NO_CONTRACTION, strict=True)] if path.stem in NEEDS_CONTRACTION else []
        yield pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("path", list(cases()))
def test_program_prints_what_the_gpu_printed(path, engine, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert GPU[path.stem][0] == "exit=0"
    status = minicuda_main(["run", "--no-cache", "--engine", engine, *run_options(path), str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out == GPU[path.stem][1]


def test_every_program_has_a_gpu_record():
    assert {p.stem for p in PROGRAMS} <= set(GPU)

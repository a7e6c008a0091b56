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
# where minicuda's contraction of a multiply and an add (fma-contract) is not nvcc's: LLVM
# rewrites `a / 2.0f` as `a * 0.5f` and merges it with the program's own `a * 0.5f`,
# keeping only the flags both have, so the product used in `a * 0.5f + b` loses `contract`
# and is not fused (under -use_fast_math both have it, and ptxas fuses: FFMA.FTZ)
SHARED_WITH_A_DIVISION = "a * 0.5f + b shares its product with a / 2.0f: not contracted by nvcc, by minicuda yes"
CONTRACTION_DIFFERS = {"ftz_default": SHARED_WITH_A_DIVISION, "ftz_true": SHARED_WITH_A_DIVISION}


def recorded() -> dict[str, tuple[str, str]]:
    parts = ENTRY.split(RECORD.read_text().split("\n=== end\n")[0] + "\n")
    return {parts[i]: (parts[i + 1], parts[i + 2].partition("--- stderr\n")[0]) for i in range(1, len(parts), 3)}


GPU = recorded()


def run_options(path: pathlib.Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    return shlex.split(first[len(OPTIONS):]) if first.startswith(OPTIONS) else []


def cases():
    for path in PROGRAMS:
        marks = [pytest.mark.xfail(reason=CONTRACTION_DIFFERS[path.stem], strict=True)] \
            if path.stem in CONTRACTION_DIFFERS else []
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

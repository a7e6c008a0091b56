"""The CUDA runtime beyond the first chapters, as whole programs: each
tests/programs/cuda_runtime/NAME.cu (streams, pinned and unified memory, vector types,
warp intrinsics, cooperative groups, nested launches) runs with both engines and prints
exactly NAME.expected, what an H100 printed for it (test_gpu_record).  A first line
`// minicuda-run: OPTIONS` gives options that minicuda run and nvcc both take
(`-rdc=true`, `-arch=sm_60`); a line `// gpu-record: none, REASON` marks a program whose
semantics CUDA 13 removed (device-side cudaDeviceSynchronize, __shfl), whose expected
output follows CUDA 11 as the comment says.  A line `// slow` marks a program that takes
more than a few seconds (pytest.mark.slow)."""
import pathlib
import shlex

import pytest

from minicuda.cli import minicuda_main

FOLDER = pathlib.Path(__file__).parent / "cuda_runtime"
OPTIONS = "// minicuda-run:"
SLOW = "// slow"


def marked(path: pathlib.Path):
    """The program as a test case: slow when a line of it says so."""
    slow = any(line.strip() == SLOW for line in path.read_text().splitlines())
    return pytest.param(path, id=path.stem, marks=[pytest.mark.slow] if slow else [])


PROGRAMS = [marked(path) for path in sorted(FOLDER.glob("*.cu"))]


def run_options(path: pathlib.Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    return shlex.split(first[len(OPTIONS):]) if first.startswith(OPTIONS) else []


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("path", PROGRAMS)
def test_program_prints_what_the_gpu_printed(path, engine, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # the files a program writes are its own
    status = minicuda_main(["run", "--engine", engine, *run_options(path), str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out.splitlines() == path.with_suffix(".expected").read_text().splitlines()


def test_a_slow_line_marks_the_program_slow():
    marks = {case.id: [m.name for m in case.marks] for case in PROGRAMS}
    assert marks["nested_depth_limit"] == ["slow"]
    assert marks["nested_pending_limit"] == []

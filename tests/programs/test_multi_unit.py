"""A program of several translation units, as CUDA samples ship them: the kernels in a
.cu file, the CPU reference in a .cpp file the host compiler builds (`nvcc a.cu
a_cpu.cpp`), a header both include.  Its stdout is what the H100 printed
(multi_unit/saxpy_reduce.expected says how it was recorded), on both engines, whether
the units are linked from sources or from object files minicudac -c wrote."""
from pathlib import Path

import pytest

from minicuda.cli import minicuda_main, minicudac_main

HERE = Path(__file__).parent / "multi_unit"
UNITS = [str(HERE / "saxpy_reduce.cu"), str(HERE / "saxpy_reduce_cpu.cpp")]


def expected() -> str:
    text = (HERE / "saxpy_reduce.expected").read_text()
    return "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))


@pytest.mark.parametrize("engine", ["jit", pytest.param("interp", marks=pytest.mark.slow)])
def test_the_cuda_unit_and_its_cpu_reference_print_what_the_gpu_printed(engine, capsys):
    assert minicuda_main(["run"] + UNITS + ["--engine", engine, "300"]) == 0
    assert capsys.readouterr().out == expected()


@pytest.mark.slow
def test_objects_minicudac_wrote_link_to_the_same_program(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert minicudac_main(["-c"] + UNITS) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saxpy_reduce.o", "saxpy_reduce_cpu.o"]
    assert minicuda_main(["run", "saxpy_reduce.o", "saxpy_reduce_cpu.o", "--engine", "interp", "300"]) == 0
    assert capsys.readouterr().out == expected()

"""The timing model (docs/timing.md) on four pairs of kernels written after it and recorded on
an H100 (tests/data/groundtruth/unseen/timing/README.md: the programs, the command, nvcc 13.0):
independent against dependent loads, a naive against a tiled matrix multiply, warp-divergent
against warp-uniform paths, an array of structs against arrays.  Each launch's modelled
duration is within 2x of the GPU's, and the faster of each pair is the GPU's whenever the two
differ by 30% or more."""
import csv
import pathlib
import re

import pytest

from fidelity.test_unseen_more import model_duration
from minicuda.cli import minicuda_main

HERE = pathlib.Path(__file__).resolve().parent / "unseen" / "timing"
DATA = HERE.parent.parent.parent / "data" / "groundtruth" / "unseen" / "timing"
PAIRS = {"chase": ("sumIndependent", "followChain"), "matmul": ("matmulNaive", "matmulTiled"),
         "diverge": ("byLane", "byWarp"), "aos": ("moveAoS", "moveSoA")}


def section(name: str, program: str) -> str:
    return (DATA / name).read_text().split(f"=== {program}\n", 1)[1].split("\n=== ", 1)[0]


def gpu_durations(program: str) -> dict[str, float]:
    """ncu's gpu__time_duration.sum (ns) of each kernel of `program`."""
    rows = [line for line in section("timing.ncu.csv", program).splitlines() if line.startswith('"')]
    return {re.sub(r"^void |\(.*$", "", row["Kernel Name"]): float(row["Metric Value"].replace(",", ""))
            for row in csv.DictReader(rows) if row["Metric Name"] == "gpu__time_duration.sum"}


def modelled(capsys, program: str) -> tuple[dict[str, float], list[str]]:
    """The model's durations (ns) of each kernel of `program`, and the program's output."""
    status = minicuda_main(["run", "--arch", "hopper", "--metrics", "gpu__time_duration.sum", str(HERE / f"{program}.cu")])
    out = capsys.readouterr().out
    assert status == 0
    return model_duration(out), [line for line in out.splitlines() if not line.startswith(" ") and "==minicuda==" not in line]


@pytest.mark.slow   # the kernels on the interpreter (the model's counters): 10-40 s each
@pytest.mark.parametrize("program", sorted(PAIRS))
def test_modelled_durations_within_2x_and_ordered_as_on_the_gpu(capsys, program):
    ours, output = modelled(capsys, program)
    assert output == section("programs.out", program).splitlines()[:-1]
    gpu = gpu_durations(program)
    assert set(ours) == set(gpu) == set(PAIRS[program])
    a, b = PAIRS[program]
    if max(gpu[a], gpu[b]) >= 1.3 * min(gpu[a], gpu[b]):
        assert (ours[a] < ours[b]) == (gpu[a] < gpu[b]), (ours, gpu)
    for kernel in gpu:
        assert 0.5 <= ours[kernel] / gpu[kernel] <= 2.0, (kernel, ours, gpu)

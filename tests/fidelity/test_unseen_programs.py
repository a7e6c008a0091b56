"""Programs written after the features they exercise, against what an H100 gave for them
(tests/data/groundtruth/unseen/README.md: the command, nvcc 13.0 and the tools' versions).

- transpose.cu: minicuda's memory counters per launch equal ncu's (global sectors,
  requests and efficiency; shared bank conflicts) on all three transposes;
- gauss.cu: the host's lines are the GPU run's host lines exactly (C++'s float overloads:
  exp and sqrt of a float are float); the device's weights are within 2 ulp of the GPU's
  (CUDA's expf is not correctly rounded, minicuda's is: docs/semantics.md);
- racyhist.cu: racecheck reports shared-memory hazards in the racy kernel and none in the
  atomic one, as compute-sanitizer does; the program's own output is the GPU's."""
import csv
import pathlib
import re
import struct

import pytest

from minicuda.cli import minicuda_main

HERE = pathlib.Path(__file__).resolve().parent / "unseen"
DATA = HERE.parent.parent / "data" / "groundtruth" / "unseen"
METRICS = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": int, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": int,
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": int, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": int,
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": int,
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": int,
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct": float,
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct": float,
}


def gpu_output(program: str) -> list[str]:
    text = (DATA / "programs.out").read_text()
    block = text.split(f"=== {program}\n", 1)[1].split("\n=== ", 1)[0]
    return [line for line in block.splitlines() if not line.startswith("exit ")]


def run(capsys, *argv):
    status = minicuda_main(["run", *map(str, argv)])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.slow   # the three transposes on the interpreter (memory counters): about 11 s
def test_transpose_memory_counters_equal_ncus(capsys):
    gpu = {}
    rows = [line for line in (DATA / "transpose.ncu.csv").read_text().splitlines() if line.startswith('"')]
    for row in csv.DictReader(rows):
        if row["Metric Name"] in METRICS:
            kernel = re.sub(r"^void |\(.*$", "", row["Kernel Name"])
            gpu.setdefault(kernel, {})[row["Metric Name"]] = METRICS[row["Metric Name"]](
                row["Metric Value"].replace(",", ""))
    status, out, _ = run(capsys, HERE / "transpose.cu", "--metrics", ",".join(METRICS))
    assert status == 0 and out.splitlines()[:4] == gpu_output("transpose")
    ours, kernel = {}, None
    for line in out.splitlines():
        if m := re.match(r"\s+Kernel: (\S+) <<<", line):
            kernel = m.group(1)
        elif (m := re.match(r"\s+(\S+)\s.*?\s([\d.]+)%?$", line)) and m.group(1) in METRICS:
            ours.setdefault(kernel, {})[m.group(1)] = METRICS[m.group(1)](m.group(2))
    assert set(ours) == set(gpu) == {"transposeNaive", "transposeTile<0>", "transposeTile<1>"}
    assert ours == gpu
    assert gpu["transposeTile<0>"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] > 0
    assert gpu["transposeTile<1>"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0


def _ulps(a: float, b: float) -> int:
    bits = lambda x: struct.unpack("<i", struct.pack("<f", x))[0]
    return abs(bits(a) - bits(b))


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_gauss_host_lines_are_the_gpu_runs_and_device_weights_within_2_ulp(capsys, engine):
    status, out, _ = run(capsys, "--engine", engine, HERE / "gauss.cu")
    assert status == 0
    ours, gpu = out.splitlines(), gpu_output("gauss")
    assert len(ours) == len(gpu)
    weight = re.compile(r"w\[(-?\d)\] host (\S+) device (\S+) ok")
    for mine, theirs in zip(ours, gpu):
        m, g = weight.match(mine), weight.match(theirs)
        if m is None:   # the blur's line: its sum carries the weights' last bits
            numbers = [float(x) for x in re.findall(r"-?\d+\.\d+", mine)]
            assert numbers == pytest.approx([float(x) for x in re.findall(r"-?\d+\.\d+", theirs)], rel=1e-6)
            continue
        assert m.group(2) == g.group(2)   # host: float exp and sqrt, as the native build
        assert _ulps(float(m.group(3)), float(g.group(3))) <= 2
    assert ours[-1] == gpu[-1]   # sizeof(exp(x)) == 4, pow(sigma, 2) a double


def test_racy_histogram_gets_racecheck_errors_where_compute_sanitizer_does(capsys):
    gpu = (DATA / "racyhist.racecheck.txt").read_text()
    status, out, err = run(capsys, "--tool", "racecheck", HERE / "racyhist.cu")
    assert out.splitlines() == gpu_output("racyhist")
    gpu_kernels = set(re.findall(r"at (\w+)\(", gpu))
    our_kernels = set(re.findall(r"access at \S+ in '(\w+)'", err))
    assert gpu_kernels == our_kernels == {"histRacy"}
    errors = int(re.search(r"RACECHECK SUMMARY: \d+ hazards displayed \((\d+) errors", err).group(1))
    assert errors > 0 and "(6417 errors" in gpu
    assert status == 1 and err.rstrip().endswith(f"ERROR SUMMARY: {errors} errors")

"""Nine programs written after the features they exercise, against what an H100 gave for
them (tests/data/groundtruth/unseen/more/README.md: the command, nvcc 13.0 and the tools'
versions).

- stencilrace, barrierskip, halfinit: each sanitizer's verdict is compute-sanitizer's
  (racecheck errors or warnings only, synccheck's silence on a barrier inside a partial
  `if`, initcheck's 128 uninitialised reads, the leak of 1,024 bytes);
- streamchunks, cgtiles, managedvec: streams with pinned memory and events, cooperative
  groups' tiles, managed `float4` memory with bit intrinsics print the GPU run's output on
  both engines;
- rowcol, aos3, banks: the memory counters of every launch equal ncu's; rowcol's modelled
  durations (the strided sum bound by the L1's wavefronts, the coalesced one by its loads'
  round trips, several in flight) within 2x of the GPU's, in the GPU's order."""
import csv
import pathlib
import re

import pytest

from minicuda.cli import minicuda_main

HERE = pathlib.Path(__file__).resolve().parent / "unseen" / "more"
DATA = HERE.parent.parent.parent / "data" / "groundtruth" / "unseen" / "more"


def gpu_output(program: str) -> list[str]:
    block = (DATA / "programs.out").read_text().split(f"=== {program}\n", 1)[1].split("\n=== ", 1)[0]
    lines = block.splitlines()
    assert lines[-1] == "exit 0"
    return lines[:-1]


def gpu_sanitizer(program: str, tool: str) -> str:
    return (DATA / "sanitize.txt").read_text().split(f"=== {program} {tool}\n", 1)[1].split("\n=== ", 1)[0]


def run(capsys, *argv):
    status = minicuda_main(["run", *map(str, argv)])
    out = capsys.readouterr()
    return status, out.out, out.err


def summary(text: str, what: str) -> int:
    return int(re.search(rf"========= {what}: (\d+) error", text).group(1))


def race_counts(text: str) -> tuple[int, int]:
    m = re.search(r"RACECHECK SUMMARY: \d+ hazards displayed \((\d+) errors, (\d+) warnings\)", text)
    return int(m.group(1)), int(m.group(2))


@pytest.mark.parametrize("sched", ["its", "stack"])
def test_racecheck_finds_the_missing_barrier_as_an_error_and_the_partial_one_as_warnings(capsys, sched):
    status, out, err = run(capsys, "--tool", "racecheck", "--sched", sched, HERE / "stencilrace.cu")
    gpu_errors, gpu_warnings = race_counts(gpu_sanitizer("stencilrace", "racecheck"))
    errors, warnings = race_counts(err)
    assert out.splitlines() == gpu_output("stencilrace")
    assert (gpu_errors > 0, gpu_warnings > 0) == (errors > 0, warnings > 0) == (True, True)
    assert status == 1
    # every hazard is in the racy kernel, in the block whose threads raced, as the GPU's are
    assert set(re.findall(r"in '(\w+)'", err)) == {"stencilNoSync"}
    for report in err.split("\n=========\n"):
        if "Race reported" in report:
            blocks = set(re.findall(r"in block (\(\d+,\d+,\d+\))", report))
            named = re.search(r"allocation '[^']*\(block \((\d+), (\d+), (\d+)\)\)'", report)
            assert blocks == {f"({','.join(named.groups())})"}, report


def test_racecheck_gives_a_barrier_inside_a_partial_if_warnings_only(capsys):
    # (under the stack model the same program stops at the divergent barrier: the next test)
    status, out, err = run(capsys, "--tool", "racecheck", HERE / "barrierskip.cu")
    gpu_errors, gpu_warnings = race_counts(gpu_sanitizer("barrierskip", "racecheck"))
    assert (gpu_errors, gpu_warnings > 0) == (0, True)
    errors, warnings = race_counts(err)
    assert (errors, warnings > 0, status) == (0, True, 0)
    assert out.splitlines() == gpu_output("barrierskip")


def test_synccheck_is_silent_on_a_barrier_the_remaining_threads_complete(capsys):
    # sm_70 and later: the barrier completes with the threads that reach it (the GPU's verdict)
    assert summary(gpu_sanitizer("barrierskip", "synccheck"), "ERROR SUMMARY") == 0
    status, out, err = run(capsys, "--tool", "synccheck", HERE / "barrierskip.cu")
    assert (status, summary(err, "ERROR SUMMARY")) == (0, 0)
    assert out.splitlines() == gpu_output("barrierskip")
    # under the stack model half of warp 1 waits at the barrier for lanes that cannot come
    status, out, err = run(capsys, "--sched", "stack", HERE / "barrierskip.cu")
    assert status == 1 and out.splitlines() == gpu_output("barrierskip")[:1]
    assert "barrierskip.cu:12:9: error: __syncthreads() reached by a divergent part of warp 1" in err


def test_initcheck_counts_each_uninitialised_read_and_memcheck_the_leak(capsys):
    gpu = gpu_sanitizer("halfinit", "initcheck")
    status, out, err = run(capsys, "--tool", "initcheck", HERE / "halfinit.cu")
    assert summary(err, "ERROR SUMMARY") == summary(gpu, "ERROR SUMMARY") == 128
    reads = lambda text: sorted(re.findall(r"Uninitialized __global__ memory read of size 4 bytes\n.*\n"
                                           r"=========     by thread \((\d+),0,0\)", text))
    # the GPU prints the first 100 of its 128 reports; each is one of ours
    assert len(reads(gpu)) == 100 and set(reads(gpu)) <= set(reads(err)) and len(reads(err)) == 128
    assert out.splitlines() == gpu_output("halfinit") and status == 1

    gpu = gpu_sanitizer("halfinit", "memcheck")
    status, out, err = run(capsys, "--tool", "memcheck", "--leak-check", "full", HERE / "halfinit.cu")
    assert re.search(r"========= Leaked 1,024 bytes at 0x[0-9a-f]+\n", gpu)
    assert re.search(r"========= Leaked 1,024 bytes at 0x[0-9a-f]+\n", err)
    for line in ("========= LEAK SUMMARY: 1024 bytes leaked in 1 allocations", "========= ERROR SUMMARY: 1 error"):
        assert line in gpu and line in err


# (streamchunks' host loops over 65,536 elements take minutes on the interpreter engine, which
# runs host code too: its kernels and runtime calls are the same code on both engines)
@pytest.mark.parametrize("engine, program", [("jit", "streamchunks"), ("jit", "cgtiles"), ("interp", "cgtiles"),
                                             ("jit", "managedvec"), ("interp", "managedvec")])
def test_runtime_api_programs_print_the_gpus_output(capsys, engine, program):
    status, out, err = run(capsys, "--engine", engine, HERE / f"{program}.cu")
    assert (status, err) == (0, "")
    assert out.splitlines() == gpu_output(program)


MEMORY = ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
          "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"]


def gpu_counters(program: str, path: pathlib.Path = DATA / "memory.ncu.csv") -> dict[str, dict[str, float]]:
    """ncu's metrics of each kernel of `program` in a record's CSV of `=== PROGRAM` sections."""
    block = path.read_text().split(f"=== {program}\n", 1)[1].split("\n=== ", 1)[0]
    rows = [line for line in block.splitlines() if line.startswith('"')]
    counters = {}
    for row in csv.DictReader(rows):
        kernel = re.sub(r"^void |\(.*$", "", row["Kernel Name"])
        counters.setdefault(kernel, {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    return counters


@pytest.mark.slow   # the kernels on the interpreter (memory counters): about 15 s
@pytest.mark.parametrize("program", ["rowcol", "aos3", "banks"])
def test_memory_counters_equal_ncus(capsys, program):
    status, out, _ = run(capsys, HERE / f"{program}.cu", "--metrics", ",".join(MEMORY))
    assert status == 0
    ours = printed_metrics(out, MEMORY)
    gpu = {k: {name: v for name, v in metrics.items() if name in MEMORY} for k, metrics in gpu_counters(program).items()}
    assert ours == gpu
    assert [line for line in out.splitlines() if not line.startswith(" ") and "==minicuda==" not in line] == \
        gpu_output(program)


def printed_metrics(out: str, names: list[str]) -> dict[str, dict[str, float]]:
    """The values `minicuda run --metrics NAMES` printed for each kernel (by ncu's names)."""
    ours, kernel = {}, None
    for line in out.splitlines():
        if m := re.match(r"\s+Kernel: (\S+) <<<", line):
            kernel = m.group(1)
        elif (m := re.match(r"\s+(\S+)\s.*?\s([\d.]+)%?$", line)) and m.group(1) in names:
            ours.setdefault(kernel, {})[m.group(1)] = float(m.group(2))
    return ours


def model_duration(out: str) -> dict[str, float]:
    durations, kernel = {}, None
    for line in out.splitlines():
        if m := re.match(r"\s+Kernel: (\S+) <<<", line):
            kernel = m.group(1)
        elif m := re.match(r"\s+gpu__time_duration.sum\s.*?\s(\d+)$", line):
            durations[kernel] = float(m.group(1))
    return durations


@pytest.mark.slow   # the kernels on the interpreter (the model's counters): about 30 s
def test_the_timing_model_orders_row_and_column_sums_as_the_gpu(capsys):
    status, out, _ = run(capsys, "--arch", "hopper", HERE / "rowcol.cu", "--metrics", "gpu__time_duration.sum")
    assert status == 0
    ours = model_duration(out)
    gpu = {k: m["gpu__time_duration.sum"] for k, m in gpu_counters("rowcol").items()}
    assert gpu["sumRows"] > 1.3 * gpu["sumCols"]
    assert ours["sumRows"] > 1.3 * ours["sumCols"]
    for kernel in gpu:
        assert 0.5 <= ours[kernel] / gpu[kernel] <= 2.0, kernel

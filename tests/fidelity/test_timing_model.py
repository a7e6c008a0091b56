"""The timing model (vm/timing_model.py) against the H100's durations and achieved occupancy
of the timing suite (tests/fidelity/timing/, recorded with ncu: tests/data/groundtruth/timing/),
its parameter file, and cudaEventElapsedTime with and without --time=wall."""
import json
import re
from pathlib import Path

import pytest

from minicuda.vm.timing_model import FITTED, PARAMETERS, copy_seconds, gpu_for, gpu_keys, load_data
from fidelity.timing_groundtruth import BOOK_SIZES, COUNT_SIZES, COUNTS, PAIRS, agreement, recount
from minicuda.cli import minicuda_main

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests/fidelity/timing/events/event_model_time.cu"
ROWS = {row["kernel"]: row for row in agreement()}


BOOK = {row["kernel"]: row for row in agreement(sizes=BOOK_SIZES)}   # sizes nothing was fitted on
SETS = {"suite": ROWS, "book sizes": BOOK}


@pytest.mark.parametrize("where,kernel", [(w, k) for w, rows in SETS.items() for k in sorted(rows)])
def test_duration_within_2x(where, kernel):
    row = SETS[where][kernel]
    assert 0.5 <= row["model_us"] / row["gpu_us"] <= 2.0, row


@pytest.mark.parametrize("where,fast,slow", [(w, a, b) for w, rows in SETS.items() for a, b in PAIRS
                                             if a in rows and b in rows])
def test_faster_variant_as_on_the_gpu(where, fast, slow):
    a, b = SETS[where][fast], SETS[where][slow]
    if max(a["gpu_us"], b["gpu_us"]) < 1.3 * min(a["gpu_us"], b["gpu_us"]):
        pytest.skip("the GPU's times differ by less than 30%")
    assert (a["gpu_us"] < b["gpu_us"]) == (a["model_us"] < b["model_us"]), (a, b)


@pytest.mark.parametrize("where,kernel", [(w, k) for w, rows in SETS.items() for k in sorted(rows)
                                          if rows[k]["waves"] >= 1.0])
def test_achieved_occupancy_within_10_points(where, kernel):
    row = SETS[where][kernel]
    assert abs(row["model_occupancy"] - row["gpu_occupancy"]) <= 10.0, row


def test_every_gpu_has_every_parameter_with_a_source():
    data = load_data()
    assert set(data["gpus"]) >= {"p100", "v100", "a100", "h100", "h200"}
    for key, entry in data["gpus"].items():
        for name in PARAMETERS:
            assert entry[name]["value"] > 0 and entry[name]["source"], (key, name)
    for name in FITTED:
        assert data["fitted"][name]["value"] > 0 and data["fitted"][name]["source"]
    assert {sm: gpu_for(sm).key for sm in (60, 70, 80, 90)} == {60: "p100", 70: "v100", 80: "a100", 90: "h100"}
    assert gpu_for(90, "h200").dram_bytes_per_s > gpu_for(90).dram_bytes_per_s
    assert set(gpu_keys()) == set(data["gpus"])


def _run(capsys, *args) -> str:
    assert minicuda_main(["run", "--arch", "hopper", *args, str(EVENTS)]) == 0
    return capsys.readouterr().out


def _times(line: str) -> list[float]:
    """The program's times (ms), from 'copy T stride1 T stride8 T tile T padded T' and 'host T'."""
    return [float(t) for t in re.findall(r"\w+ (\d+\.\d+)", line)]


def test_event_elapsed_time_is_modelled_unless_wall(tmp_path, capsys):
    out = tmp_path / "m.json"
    printed = _run(capsys, "--metrics-json", str(out), "--metrics", "timing")
    line, table = printed.split("==minicuda== Metric result:")
    assert table.count("sm__warps_active.avg.pct_of_peak_sustained_active") == 5
    assert table.count("achieved_occupancy") == 5 and "long_scoreboard" in table
    copy, *kernels = _times(line)[:5]
    launches = json.loads(out.read_text())
    assert copy == pytest.approx(copy_seconds(1 << 20, "h2d", gpu_for(90)) * 1e3, rel=1e-5)
    assert kernels == pytest.approx([r["gpu__time_duration_us"] / 1e3 for r in launches[:4]], rel=1e-3)
    stride1, stride8, tile, padded = kernels
    assert stride1 < stride8 and padded < tile   # as on the GPU (the suite's 1024x1024 launches)
    host = float(line.split("host ")[1])   # gettimeofday reads the modelled time too (whole us)
    assert abs(host - stride8) <= 0.0015
    wall = _times(_run(capsys, "--time=wall"))
    assert wall[:5] != [copy, *kernels] and min(wall) > 0


@pytest.mark.slow
@pytest.mark.parametrize("program", sorted(COUNT_SIZES))
def test_recorded_counts_are_minicudas(program):
    """minicuda_counts.json is what minicuda counts today (the interpreter: a minute)."""
    assert recount(program) == json.loads(COUNTS.read_text())[program]


@pytest.mark.slow
def test_model_times_a_host_timed_program(tmp_path, capsys):
    """--time model models a program that times its kernels with gettimeofday, as the books'
    cpuSecond does: the printed elapsed is the launch's modelled duration, and the padded
    tile's transpose is the faster one, as on the GPU.  --time auto (the default) leaves such a
    program's clock and speed alone."""
    program = ROOT / "samples" / "transpose.cu"
    durations = []
    for kernel in ("2", "3"):
        out = tmp_path / f"{kernel}.json"
        assert minicuda_main(["run", "--arch", "hopper", "--time=model", "--metrics-json", str(out), str(program),
                              kernel, "256", "256"]) == 0
        printed = float(re.search(r"elapsed (\d+\.\d+) sec", capsys.readouterr().out).group(1))
        launch, = json.loads(out.read_text())
        assert abs(printed - launch["gpu__time_duration_us"] / 1e6) <= 1.5e-6, (printed, launch)
        durations.append(launch["gpu__time_duration_us"])
    assert durations[1] < durations[0]
    for time in ("--time=wall", "--time=auto"):
        assert minicuda_main(["run", "--arch", "hopper", time, "--metrics-json", str(out), str(program),
                              "3", "64", "64"]) == 0
        assert "gpu__time_duration_us" not in json.loads(out.read_text())[0]

"""minicuda bench at tiny sizes: the report's structure and the consistency of its numbers (never its speed)."""
import json
import shutil

import pytest

from minicuda import bench

HAS_CC = bool(shutil.which("cc") or shutil.which("gcc"))


def quick(tmp_path, *options) -> tuple[int, dict]:
    path = tmp_path / "bench.json"
    code = bench.main(["--quick", "--skip", "pocl,numba", "--json", str(path), *options])
    return code, json.loads(path.read_text())


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def check_run(run: dict, args: list[str]) -> None:
    """A launch's counts are positive and consistent, and its rates are its counts over its time."""
    assert run["args"] == args
    assert run["inst_executed"] > 0 and run["wall_s"] > 0
    assert run["inst_executed"] <= run["thread_inst_executed"] <= 32 * run["inst_executed"]
    assert close(run["warp_inst_per_s"], run["inst_executed"] / run["wall_s"])
    assert close(run["thread_inst_per_s"], run["thread_inst_executed"] / run["wall_s"])
    assert len(run["check"]) == 2


def check_kernel(k: dict, sizes: dict) -> None:
    for engine, run in k["runs"].items():
        check_run(run, list(sizes[k["sample"]]))
    runs = k["runs"]
    ref = runs["jit"] if "jit" in runs else runs["interp"]
    assert k["reference_engine"] == ref["engine"]
    if len(runs) == 2:
        assert close(k["jit_over_interp"], runs["jit"]["thread_inst_per_s"] / runs["interp"]["thread_inst_per_s"])
        assert runs["jit"]["thread_inst_executed"] == runs["interp"]["thread_inst_executed"]
    if HAS_CC:
        native = k["native"]
        assert native["args"] == ref["args"] and native["wall_s"] > 0 and native["reps"] >= 3
        assert close(native["thread_inst_per_s_equiv"], ref["thread_inst_executed"] / native["wall_s"])
        assert close(native["minicuda_over_baseline_time"], ref["wall_s"] / native["wall_s"])
    assert k["checks_agree"], k


def test_quick_report_has_every_part_and_consistent_numbers(tmp_path, capsys):
    code, report = quick(tmp_path, "--only", "vectorAdd,mathKernel1")
    assert code == 0
    assert report["machine"]["cores"] >= 1 and report["machine"]["cpu"]
    assert report["versions"]["python"] and report["versions"]["minicuda"]
    assert report["settings"]["mode"] == "quick" and report["settings"]["engines"] == ["interp", "jit"]
    assert [(k["sample"], k["kernel"]) for k in report["kernels"]] == [("simpleDivergence", "mathKernel1"),
                                                                       ("vectorAdd", "vectorAdd")]
    sizes = {s.sample: s.sizes["quick"] for s in bench.SUITES}
    for k in report["kernels"]:
        assert "interp" in k["runs"]
        check_kernel(k, sizes)
    jit_ran = all("jit" in k["runs"] for k in report["kernels"])
    assert jit_ran or any(n.startswith("jit:") for n in report["notes"])
    assert report["end_to_end"] == [] and report["numba_cudasim"] == []
    text = capsys.readouterr().out
    assert "minicuda engines, per kernel launch" in text and "mathKernel1" in text and "vectorAdd" in text


def test_interpreter_and_native_agree_on_every_reduction(tmp_path):
    code, report = quick(tmp_path, "--engine", "interp", "--only", "reduceInteger")
    assert code == 0
    assert [k["kernel"] for k in report["kernels"]] == list(bench.SUITES[0].kernels)
    sizes = {"reduceInteger": bench.SUITES[0].sizes["quick"]}
    for k in report["kernels"]:
        assert list(k["runs"]) == ["interp"]
        check_kernel(k, sizes)


def test_unknown_names_are_usage_errors():
    with pytest.raises(SystemExit) as e:
        bench.main(["--quick", "--only", "noSuchKernel"])
    assert e.value.code == 2

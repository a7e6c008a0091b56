"""minicuda sweep on the local pool: its rows are what minicuda run --metrics-json says
for the same point; --resume runs only the points not done; a point that faults or
runs too long is a row with its status, and the other points run as usual."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pandas", reason="minicuda[sweep] is not installed")
pytest.importorskip("pyarrow", reason="minicuda[sweep] is not installed")

from helpers import ROOT   # noqa: E402
from minicuda.sweep import backends, load_spec, run_sweep   # noqa: E402
from minicuda.sweep.results import comparable_rows, read   # noqa: E402

DATA = Path(__file__).parent / "data"
RUN = "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())"


def spec(tmp_path, text: str):
    path = tmp_path / "sweep.toml"
    path.write_text(text.replace("DATA", str(DATA)).replace("SAMPLES", str(ROOT / "samples")))
    return load_spec(str(path))


def direct_run(tmp_path, *options) -> list[dict]:
    out = tmp_path / "direct.json"
    subprocess.run([sys.executable, "-c", RUN, "run", "-q", "--jobs", "1", "--metrics-json", str(out)] + list(options),
                   check=True, stdout=subprocess.DEVNULL, cwd=tmp_path)
    return json.loads(out.read_text())


@pytest.mark.slow
def test_rows_equal_minicuda_run(tmp_path):
    sweep = spec(tmp_path, '[[program]]\nfiles = ["SAMPLES/simpleDivergence.cu", "SAMPLES/vectorAdd.cu"]\n'
                           '[axes]\narch = ["pascal", "volta"]\n')
    frame = run_sweep(sweep, str(tmp_path / "out"), jobs=2)
    assert set(frame["status"]) == {"ok"}
    assert (tmp_path / "out.parquet").exists() and (tmp_path / "out.csv").exists()
    assert comparable_rows(read(str(tmp_path / "out.parquet"))) == comparable_rows(frame)
    assert len(read(str(tmp_path / "out.csv"))) == len(frame)
    for (program, arch), rows in frame.groupby(["program", "arch"], sort=False):
        launches = direct_run(tmp_path, "--arch", arch, str(Path(sweep.path).parent / program))
        assert [r["kernel"] for r in launches] == list(rows["kernel"])
        for launch, (_, row) in zip(launches, rows.iterrows()):
            assert row["target"] == launch["arch"] and row["model"] == launch["sched"]
            for metric in ("inst_executed", "thread_inst_executed", "branch", "divergent_branch",
                           "branch_efficiency", "warp_execution_efficiency"):
                assert row[metric] == launch[metric], (program, arch, launch["kernel"], metric)
            assert row["block"] == ",".join(map(str, launch["block"]))
    pascal = frame[frame["arch"] == "pascal"]
    assert set(pascal["model"]) == {"stack"} and set(frame[frame["arch"] == "volta"]["model"]) == {"its"}


@pytest.mark.slow
def test_decisions_follow_the_rule_and_resume_skips_done_points(tmp_path, monkeypatch):
    text = '[[program]]\nfiles = ["DATA/branchy.cu"]\nargs = ["2"]\n[axes]\nrule = ["seed", "guide"]\n'
    frame = run_sweep(spec(tmp_path, text), str(tmp_path / "out"), jobs=2)
    seed, guide = frame.iloc[0], frame.iloc[1]
    assert (seed["rule"], guide["rule"]) == ("seed", "guide")
    assert (seed["predicated_branches"], seed["kept_branches"]) == (0, 2)
    assert (guide["predicated_branches"], guide["kept_branches"]) == (1, 1)
    assert "kept 7/7" in seed["decisions"] and "predicated 7/7" in guide["decisions"]
    assert guide["divergent_branch"] < seed["divergent_branch"]

    ran = []
    monkeypatch.setattr(backends, "run_point", lambda task: ran.append(task) or backends.failure_rows(task, "x", ""))
    more = run_sweep(spec(tmp_path, text.replace('"guide"]', '"guide"]\nuniform_threshold = [4, 2]')),
                     str(tmp_path / "out"), jobs=2, resume=True)
    assert sorted(t["columns"]["uniform_threshold"] for t in ran) == [2, 2, 4, 4]   # none was done: new options
    ran.clear()
    again = run_sweep(spec(tmp_path, text), str(tmp_path / "out"), jobs=2, resume=True)
    assert ran == []
    assert comparable_rows(again)[:2] == comparable_rows(frame)


@pytest.mark.slow
def test_failing_points_are_rows(tmp_path):
    sweep = spec(tmp_path, '[[program]]\nfiles = ["DATA/fault.cu", "DATA/branchy.cu"]\n'
                           '[[program]]\nfiles = ["DATA/forever.cu"]\ntimeout = 6\n[axes]\narch = ["volta"]\n')
    frame = run_sweep(sweep, str(tmp_path / "out"), jobs=2)
    status = dict(zip(frame["program"].map(lambda p: Path(p).name), frame["status"]))
    assert status == {"fault.cu": "fault", "forever.cu": "timeout", "branchy.cu": "ok"}
    fault = frame[frame["status"] == "fault"].iloc[0]
    assert fault["exit_code"] == 1 and "cudaErrorIllegalAddress" in fault["message"]
    assert fault["message"].startswith("fault.cu:2:")
    timeout = frame[frame["status"] == "timeout"].iloc[0]
    assert timeout["exit_code"] == 124 and "timed out" in timeout["message"]


@pytest.mark.slow
def test_budget_overrun_and_compile_error_are_rows(tmp_path):
    (tmp_path / "bad.cu").write_text("int main() { return undeclared; }\n")
    sweep = spec(tmp_path, 'max_steps = 500\n[[program]]\nfiles = ["DATA/forever.cu", "bad.cu"]\n')
    frame = run_sweep(sweep, str(tmp_path / "out"), jobs=2)
    assert list(frame["status"]) == ["budget", "compile-error"]
    assert frame.iloc[1]["message"].startswith("bad.cu:1:21: error: ")


def test_command_says_what_to_install_without_the_extra(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(f'[[program]]\nfiles = ["{DATA}/branchy.cu"]\n')
    code = ("import sys, builtins; real = builtins.__import__\n"
            "def no_pyarrow(name, *a, **k):\n"
            "    if name.split('.')[0] == 'pyarrow': raise ImportError(name=name)\n"
            "    return real(name, *a, **k)\n"
            "builtins.__import__ = no_pyarrow\n" + RUN.replace("; ", "\n"))
    done = subprocess.run([sys.executable, "-c", code, "sweep", str(path)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "pip install 'minicuda[sweep]'" in done.stderr and "Traceback" not in done.stderr


def test_progress_line_counts_points_and_failures():
    import io

    from minicuda.sweep.run import Progress

    stream = io.StringIO()
    meter = Progress(3, stream)
    meter.add([{"status": "ok"}])
    meter.add([{"status": "timeout"}])
    meter.close()
    lines = stream.getvalue().split("\r")
    assert lines[-1].startswith("minicuda sweep: points 2/3, 1 failed, ") and lines[-1].endswith("\n")
    quiet = Progress(3, None)
    quiet.add([{"status": "ok"}])
    assert quiet.done == 1

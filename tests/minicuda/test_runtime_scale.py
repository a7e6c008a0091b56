"""minicuda bench --runtime-scaling: its programs run at every size asked, and the
report has a row per case and engine with a time per size (never a speed)."""
import json

import pytest

from minicuda import bench
from minicuda.bench import runtime_scale


@pytest.mark.slow
def test_quick_runtime_scaling_reports_every_case(tmp_path, capsys):
    path = tmp_path / "rs.json"
    assert bench.main(["--runtime-scaling", "cudaMalloc,malloc", "--quick", "--json", str(path)]) == 0
    text = capsys.readouterr().out
    assert "cudaMalloc (allocations)" in text and "malloc (pairs)" in text and "growth" in text
    rows = json.loads(path.read_text())
    sizes = runtime_scale.SIZES["quick"]
    assert {(r["case"], r["engine"], r["size"]) for r in rows} == \
        {(case, engine, n) for case in ("cudaMalloc", "malloc") for engine in ("jit", "interp") for n in sizes[case]} | \
        {("cudaMalloc", "run", n) for n in sizes["cudaMalloc"]}   # the whole minicuda run, for issue 12's 2 s goal
    assert all(r["seconds"] > 0 for r in rows)
    assert "cudaMalloc (allocations)  run" in text


@pytest.mark.slow
def test_the_whole_run_row_is_left_out_without_the_jit():
    rows = runtime_scale.run_scaling("quick", ["cudaMalloc"], engines=("interp",))
    assert {r.engine for r in rows} == {"interp"}


def test_a_whole_run_that_fails_is_reported(tmp_path):   # (its exit status, not a speed)
    path = tmp_path / "bad.cu"
    path.write_text("int main() { return 1; }\n")
    with pytest.raises(RuntimeError, match="ended with status 1"):
        runtime_scale.measure_whole_run(str(path), "bad", 1, 1)


def test_an_unknown_case_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        bench.main(["--runtime-scaling", "calloc"])
    assert e.value.code == 2
    assert "no case calloc" in capsys.readouterr().err


def test_the_host_call_rows_end_with_calls_per_second():
    rows = [runtime_scale.RuntimeTime("call", "jit", 1_000, 0.5), runtime_scale.RuntimeTime("call", "jit", 10_000, 2.0),
            runtime_scale.RuntimeTime("cudaMalloc", "jit", 1_000, 0.5)]
    lines = runtime_scale.render_scaling(rows).splitlines()
    assert lines[2].startswith("call (calls)") and lines[2].endswith("   5,000 calls/s")
    assert lines[3].startswith("cudaMalloc (allocations)") and "/s" not in lines[3]

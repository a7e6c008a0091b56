"""minicuda bench --runtime-scaling: its programs run at every size asked, and the
report has a row per case and engine with a time per size (never a speed)."""
import json

import pytest

from minicuda import bench
from minicuda.bench import runtime_scale


def test_quick_runtime_scaling_reports_every_case(tmp_path, capsys):
    path = tmp_path / "rs.json"
    assert bench.main(["--runtime-scaling", "cudaMalloc,malloc", "--quick", "--json", str(path)]) == 0
    text = capsys.readouterr().out
    assert "cudaMalloc (allocations)" in text and "malloc (pairs)" in text and "growth" in text
    rows = json.loads(path.read_text())
    sizes = runtime_scale.SIZES["quick"]
    assert {(r["case"], r["engine"], r["size"]) for r in rows} == \
        {(case, engine, n) for case in ("cudaMalloc", "malloc") for engine in ("jit", "interp") for n in sizes[case]}
    assert all(r["seconds"] > 0 for r in rows)


def test_an_unknown_case_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        bench.main(["--runtime-scaling", "calloc"])
    assert e.value.code == 2
    assert "no case calloc" in capsys.readouterr().err

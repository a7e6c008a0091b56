"""minicuda bench --host-loops: each case prints the same run by minicuda and built as C,
and the table reads its numbers back (never their speed)."""
import json
import shutil

import pytest

from minicuda import bench
from minicuda.bench.host_loops import LoopTime, render_host_loops

HAS_CC = bool(shutil.which("cc") or shutil.which("gcc"))


def test_the_table_gives_each_case_its_ratio_and_verdict():
    table = render_host_loops([LoopTime("add", 3.0, 1.5), LoopTime("fill", 4.0, 8.0), LoopTime("compare", 2.0, None)])
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:]}
    assert rows["add"] == ["add", "3.00", "1.50", "2.00", "not", "met"]
    assert rows["fill"] == ["fill", "4.00", "8.00", "0.50", "met"]
    assert rows["compare"] == ["compare", "2.00", "-", "-", "-"]


def test_unknown_cases_are_usage_errors():
    with pytest.raises(SystemExit) as e:
        bench.main(["--host-loops", "add,noSuchLoop"])
    assert e.value.code == 2


@pytest.mark.slow
@pytest.mark.skipif(not HAS_CC, reason="no C compiler")
def test_quick_host_loops_agree_with_c(tmp_path, capsys):
    path = tmp_path / "loops.json"
    assert bench.main(["--host-loops", "helper,compare", "--quick", "--json", str(path)]) == 0
    results = json.loads(path.read_text())
    assert [r["case"] for r in results] == ["helper", "compare"]
    assert all(r["minicuda_ns"] >= 0 and r["c_ns"] is not None for r in results)
    assert "Host loops" in capsys.readouterr().out

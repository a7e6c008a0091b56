"""minicuda sweep --plot: the standard pictures from a results file; a picture whose
axis does not vary is left out with a note; a file that is no results file is an error."""
import pytest

pytest.importorskip("matplotlib", reason="minicuda[sweep] is not installed")
pytest.importorskip("pyarrow", reason="minicuda[sweep] is not installed")

from minicuda.sweep import main, plot_results   # noqa: E402
from minicuda.sweep.results import write   # noqa: E402



def rows(block_sizes=(32, 64)):
    out = []
    for arch in ("pascal", "volta"):
        for rule in ("seed", "guide"):
            for block in block_sizes:
                out.append({"program": "k.cu", "arch": arch, "sched": "auto", "opt": "-O3", "rule": rule,
                            "uniform_threshold": None, "divergent_threshold": None, "seed": None, "defines": "",
                            "args": "", "point": f"{arch}{rule}{block}", "status": "ok", "exit_code": 0,
                            "message": "", "seconds": 1.0, "launch": 0, "kernel": "k",
                            "threads_per_block": block, "branch_efficiency": 50.0 + block / 4,
                            "divergent_branch": 4 if rule == "seed" else 2})
    out.append(dict(out[0], point="failed", status="fault", kernel=None, launch=None, branch_efficiency=None))
    return out


def test_plot_writes_the_three_pictures(tmp_path):
    parquet, csv = write(rows(), str(tmp_path / "res"))
    written, notes = plot_results(parquet, str(tmp_path / "svg"))
    names = sorted(p.rsplit("/", 1)[1] for p in written)
    assert names == ["branch_efficiency.svg", "branch_efficiency_vs_block.svg", "divergent_vs_threshold.svg"]
    assert notes == []
    svg = (tmp_path / "svg" / "divergent_vs_threshold.svg").read_text()
    assert "<svg" in svg and "guide" in svg
    written, _ = plot_results(csv, str(tmp_path / "png"), "png")
    assert all(open(p, "rb").read(4) == b"\x89PNG" for p in written)


def test_plot_leaves_out_an_axis_that_does_not_vary(tmp_path, capsys):
    parquet, _ = write(rows(block_sizes=(32,)), str(tmp_path / "res"))
    assert main(["--plot", parquet]) == 0
    out, err = capsys.readouterr()
    assert "left out branch_efficiency_vs_block: no kernel ran at more than one block size" in err
    assert len(out.splitlines()) == 2


def test_plot_of_a_file_that_is_no_results_file(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    assert main(["--plot", str(bad)]) == 1
    assert "is not a sweep's results file" in capsys.readouterr().err
    assert main(["--plot", str(tmp_path / "none.parquet")]) == 1
    assert "cannot read" in capsys.readouterr().err

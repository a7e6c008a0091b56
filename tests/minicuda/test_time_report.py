"""--time-report (minicuda run, minicudac): where the time went, as clang's -ftime-report.

The report goes to stderr after the program's output; its rows name each stage, pass,
kernel and runtime call with how often it ran, and they add up to the total."""
import re

import pytest

from minicuda.cli import minicuda_main, minicudac_main
from minicuda.timing import TIMES

SOURCE = """\
#include <cstdio>
__global__ void twice(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2;
}
int main() {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    for (int r = 0; r < 3; r++) twice<<<2, 128>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d %d\\n", h[1], h[255]);
    cudaFree(d);
    return 0;
}
"""
ROW = re.compile(r"^\s+(\d+\.\d+) \(\s*([\d.]+)%\)\s+(\d+\.\d+) \(\s*([\d.]+)%\)\s+(\d+)  (.+)$")


def report_rows(err: str) -> dict[str, tuple[float, float, int]]:
    """name -> (wall seconds, wall percent, count) from the report on stderr."""
    rows = {}
    for line in err.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(6)] = (float(m.group(1)), float(m.group(2)), int(m.group(5)))
    return rows


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "twice.cu"
    path.write_text(SOURCE)
    return str(path)


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_run_report_names_each_kernel_and_runtime_call_with_its_count(program, capsys, engine):
    assert minicuda_main(["run", "--time-report", "--no-cache", "--engine", engine, program]) == 0
    out, err = capsys.readouterr()
    assert out == "8 2040\n"   # the program's output alone: the report is on stderr
    assert "minicuda time report" in err and "time report" not in out
    rows = report_rows(err)
    assert rows["kernel twice"][2] == 3
    assert rows["runtime cudaMemcpy"][2] == 2
    assert rows["runtime cudaMalloc"][2] == 1 and rows["runtime printf"][2] == 1
    assert rows["compile: parse"][2] == 1 and rows["compile: sema"][2] == 1
    assert any(name.startswith("compile: pass ") for name in rows)
    assert rows["host code (main and the static constructors and destructors)"][2] == 1
    assert "start-up (Python and minicuda's imports)" in rows
    # each row is a phase's own time: the rows add up to the total from process start
    total = float(re.search(r"Total: (\d+\.\d+) s wall", err).group(1))
    assert sum(wall for wall, _, _ in rows.values()) == pytest.approx(total, rel=0.01, abs=0.002)
    assert sum(pct for _, pct, _ in rows.values()) == pytest.approx(100.0, abs=0.1 * len(rows))
    assert not TIMES.on   # a later run in this process is not timed


def test_run_without_the_option_prints_no_report(program, capsys):
    assert minicuda_main(["run", program]) == 0
    out, err = capsys.readouterr()
    assert out == "8 2040\n" and "time report" not in err


def test_a_run_from_the_compile_cache_shows_the_look_up_instead_of_the_compile(program, capsys, tmp_path,
                                                                              monkeypatch):
    monkeypatch.setenv("MINICUDA_CACHE_DIR", str(tmp_path / "cache"))
    assert minicuda_main(["run", program]) == 0
    capsys.readouterr()
    assert minicuda_main(["run", "--time-report", program]) == 0
    rows = report_rows(capsys.readouterr().err)
    assert "compile cache: look-up and load" in rows
    assert "compile: parse" not in rows and not any(name.startswith("compile: pass ") for name in rows)


def test_minicudac_ftime_report_lists_the_frontend_stages_and_passes(program, capsys):
    assert minicudac_main([program, "--emit=sass-like", "-ftime-report"]) == 0
    out, err = capsys.readouterr()
    assert "EXIT" in out and "time report" not in out
    rows = report_rows(err)
    for stage in ("compile: preprocess", "compile: parse", "compile: sema", "compile: lower", "compile: pass regalloc"):
        assert stage in rows
    assert not any(name.startswith(("kernel ", "runtime ")) for name in rows)


def test_a_failing_compile_still_reports(tmp_path, capsys):
    bad = tmp_path / "bad.cu"
    bad.write_text("int main() { return x; }\n")
    assert minicuda_main(["run", "--time-report", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "undeclared identifier" in err and "minicuda time report" in err

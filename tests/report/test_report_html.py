"""`minicuda run --report=html`: the page parsed with html.parser; its numbers are the
metrics of the same run (--metrics-json), its links point at what exists, it fetches
nothing, and mathKernel1's lane timeline shows the two paths of its divergent branch
one after the other under pascal."""
import json
import sys
from pathlib import Path

import pytest

from helpers.html_tree import parse_html
from helpers.lanes import EVEN, FULL, ODD, runs
from minicuda.cli import minicuda_main

pytest.importorskip("jinja2", reason="the [report] extra is not installed: pip install 'minicuda[report]'")

ROOT = Path(__file__).resolve().parents[2]
DIVERGENCE = str(ROOT / "samples" / "simpleDivergence.cu")


def report(tmp_path, capsys, *argv):
    page, metrics = tmp_path / "report.html", tmp_path / "m.json"
    status = minicuda_main(["run", *argv, "--report=html", "-o", str(page), "--source-view",
                            "--metrics-json", str(metrics)])
    capsys.readouterr()
    assert status == 0
    return parse_html(page.read_text()), json.loads(metrics.read_text())


@pytest.fixture(scope="module")
def pascal(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pascal")
    page, metrics = tmp / "report.html", tmp / "m.json"
    assert minicuda_main(["run", "-G", "--arch", "pascal", DIVERGENCE, "--report=html", "-o", str(page),
                          "--source-view", "--metrics-json", str(metrics)]) == 0
    return parse_html(page.read_text()), json.loads(metrics.read_text())


def section(doc, kernel):
    return doc.find("section", "kernel", data_kernel=kernel)


def number(cell) -> float:
    return float(cell.text().strip().rstrip("%"))


def test_the_totals_are_the_runs(pascal):
    doc, launches = pascal
    for launch in launches:
        totals = section(doc, launch["kernel"]).find("table", "totals")
        for name in ("inst_executed", "thread_inst_executed", "branch", "divergent_branch", "branch_efficiency",
                     "warp_execution_efficiency"):
            assert number(totals.find("td", data_metric=name)) == pytest.approx(launch[name], abs=0.01), name


def test_each_source_line_shows_its_metrics(pascal):
    doc, launches = pascal
    for launch in launches:
        rows = {int(r.attrs["data-line"]): r for r in section(doc, launch["kernel"]).iter("tr", "src-line")}
        for line in launch["lines"]:
            row = rows[line["line"]]
            if not line["inst_executed"]:   # compiled, never run (mathKernel4's then-side): no numbers
                assert not list(row.iter("td", data_metric="inst_executed"))
                continue
            for name in ("inst_executed", "thread_inst_executed", "branch", "divergent_branch"):
                assert number(row.find("td", data_metric=name)) == line[name]
            assert number(row.find("td", data_metric="active_lanes")) == pytest.approx(line["active_lanes"], abs=0.05)
            predicated = row.find("td", data_metric="predicated").text().strip()
            assert predicated == {True: "yes", False: "no", None: ""}[line["predicated"]]


def test_the_instructions_add_up_and_link_to_lines_and_blocks(pascal):
    doc, launches = pascal
    for launch in launches:
        s = section(doc, launch["kernel"])
        rows = list(s.iter("tr", "sass-ins"))
        assert sum(number(r.find("td", data_metric="inst_executed")) for r in rows) == launch["inst_executed"]
        lines = {r.attrs["data-line"] for r in s.iter("tr", "src-line")}
        blocks = {g.attrs["id"] for g in s.iter("g", "cfg-block")}
        for r in rows:
            assert r.attrs["data-block"] in blocks
            if number(r.find("td", data_metric="inst_executed")):
                assert r.attrs["data-line"] in lines


def test_each_instruction_shows_its_active_lane_histogram(pascal):
    doc, _ = pascal
    for kernel in ("mathKernel1", "mathKernel4"):
        for r in section(doc, kernel).iter("tr", "sass-ins"):
            count = number(r.find("td", data_metric="inst_executed"))
            if not count:
                assert not list(r.iter("svg", "lane-histogram"))
                continue
            svg = r.find("svg", "lane-histogram")
            histogram = [int(n) for n in svg.attrs["data-histogram"].split(",")]
            assert len(histogram) == 33 and sum(histogram) == count
            lanes = sum(k * n for k, n in enumerate(histogram)) / count
            assert number(r.find("td", data_metric="active_lanes")) == pytest.approx(lanes, abs=0.05)
            bars = {int(b.attrs["data-lanes"]): int(b.attrs["data-count"])
                    for b in svg.iter("rect") if "data-lanes" in b.attrs}
            assert bars == {k: n for k, n in enumerate(histogram) if k and n}
    # mathKernel1's two sides of `if (tid % 2 == 0)` run with 16 lanes each, every time
    sides = [r for r in section(doc, "mathKernel1").iter("tr", "sass-ins") if r.attrs["data-line"] in ("52", "56")]
    assert sides and all(r.find("svg", "lane-histogram").attrs["data-histogram"].split(",")[16] ==
                         r.find("td", data_metric="inst_executed").text().strip() for r in sides)


def test_the_predication_decisions_and_the_cfg_marks(pascal):
    doc, _ = pascal
    s = section(doc, "mathKernel1")
    decision = s.find("table", "decisions").find("tr", data_line="50")
    assert "kept" in decision.text() and "-O0 keeps every branch" in decision.text()
    assert [g for g in s.iter("g", "divergent")] and [g for g in s.iter("g", "reconvergence")]


def test_the_timeline_serialises_the_two_paths_under_pascal(pascal):
    doc, _ = pascal
    timeline = section(doc, "mathKernel1").find("svg", "timeline")
    columns = [g.attrs["data-group"] for g in timeline.iter("g", "issue")]
    assert runs(columns) in ([FULL, ODD, EVEN, FULL], [FULL, EVEN, ODD, FULL])
    for g in timeline.iter("g", "issue"):   # the filled cells are the group's lanes
        assert sum(int(r.attrs["data-lanes"]) for r in g.iter("rect", "lane")) == bin(int(g.attrs["data-group"], 16)).count("1")
    assert len(columns) == 30   # its warp's share of the kernel's 60 warp instructions (two warps, one path each; -G's shape: a BRA ending every block, the signed remainder's hammock)


def test_the_timeline_of_another_warp_and_volta(tmp_path, capsys):
    doc, _ = report(tmp_path, capsys, "-G", "--arch", "volta", DIVERGENCE, "--timeline-warp", "0:1")
    s = section(doc, "mathKernel1")
    assert "block 0, warp 1" in s.find("p", "note").text()
    columns = [g.attrs["data-group"] for g in s.find("svg", "timeline").iter("g", "issue")]
    assert {EVEN, ODD} <= set(columns) and columns[0] == FULL


def test_the_page_fetches_nothing(pascal):
    doc, _ = pascal
    assert not list(doc.iter("link")) and not list(doc.iter("iframe")) and not list(doc.iter("img"))
    for script in doc.iter("script"):
        assert "src" not in script.attrs and script.text().strip()
    for e in doc.iter():
        for name in ("href", "src"):
            assert not e.attrs.get(name, "#").split(":")[0] in ("http", "https"), e.attrs


def test_without_jinja2_the_command_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    status = minicuda_main(["run", DIVERGENCE, "--report=html", "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert status == 1 and "pip install 'minicuda[report]'" in err and "Traceback" not in err


LOCK = """\
__global__ void spin(int *lock, int *count) {
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    *count += 1;
    atomicExch(lock, 0);
}
int main() {
    int *d;
    cudaMalloc(&d, 2 * sizeof(int));
    cudaMemset(d, 0, 2 * sizeof(int));
    spin<<<1, 32>>>(d, d + 1);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_a_launch_that_deadlocks_is_reported_up_to_its_fault(tmp_path, capsys):
    source = tmp_path / "lock.cu"
    source.write_text(LOCK)
    page = tmp_path / "r.html"
    minicuda_main(["run", "--arch", "pascal", str(source), "--report=html", "-o", str(page)])
    assert "SIMT deadlock" in capsys.readouterr().err
    s = section(parse_html(page.read_text()), "spin")
    assert "SIMT deadlock" in s.find("p", "failure").text()
    spin_line = s.find("tr", "src-line", data_line="2")
    spun = number(spin_line.find("td", data_metric="inst_executed"))
    assert spun == number(s.find("table", "totals").find("td", data_metric="inst_executed")) and spun > 100
    assert len(list(s.find("svg", "timeline").iter("g", "issue"))) > 10

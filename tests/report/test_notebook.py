"""Jupyter's rich display (`_repr_html_`) of a launch's metrics and of a compiled program:
the HTML parsed with html.parser, its numbers the object's own, the lane timeline of a
profiled launch drawn as the report draws it, nothing fetched and no script."""
from pathlib import Path

import numpy as np
import pytest

import minicuda
from helpers.html_tree import parse_html
from helpers.lanes import EVEN, FULL, ODD, runs
from minicuda.vm.launcher import Device
from minicuda.vm.metrics import METRICS

pytest.importorskip("jinja2", reason="the [report] extra is not installed: pip install 'minicuda[report]'")

DIVERGENCE = str(Path(__file__).resolve().parents[2] / "samples" / "simpleDivergence.cu")


@pytest.fixture(scope="module")
def program():
    return minicuda.compile(DIVERGENCE, arch="sm_60", opt=0)


def cell(doc, name):
    return doc.find("td", data_metric=name).text().strip()


def self_contained(doc):
    assert not list(doc.iter("script")) and not list(doc.iter("link")) and not list(doc.iter("img"))


def test_a_launch_shows_its_metrics_table(program):
    m = program.mathKernel1[1, 64](np.zeros(64, np.float32))
    doc = parse_html(m._repr_html_())
    self_contained(doc)
    assert doc.find("div", "minicuda-launch").attrs["data-kernel"] == "mathKernel1"
    for metric in METRICS:
        assert cell(doc, metric.name) == str(metric.value(m)), metric.name
    assert int(cell(doc, "inst_executed")) == m.inst_executed > 0
    assert float(cell(doc, "branch_efficiency").rstrip("%")) == pytest.approx(m.branch_efficiency, abs=0.01)
    assert not list(doc.iter("svg"))   # not profiled: no timeline


def test_a_profiled_launch_shows_its_warps_timeline(program):
    device = Device(program, profile=True, timeline_warp=(0, 0))
    m = device.launch("mathKernel1", 1, 64, np.zeros(64, np.float32))
    doc = parse_html(m._repr_html_())
    self_contained(doc)
    assert int(cell(doc, "divergent_branch")) == m.divergent_branch == 2
    timeline = doc.find("svg", "timeline")
    columns = [g.attrs["data-group"] for g in timeline.iter("g", "issue")]
    assert len(columns) == len(m.issue_trace.issues)
    assert columns == [f"{i.group:#010x}" for i in m.issue_trace.issues]
    assert runs(columns) in ([FULL, ODD, EVEN, FULL], [FULL, EVEN, ODD, FULL])   # pascal: the paths one after the other
    assert f"{len(columns)} instructions issued" in doc.find("p", "note").text()


def test_a_program_shows_its_functions_decisions_and_launches(program):
    program.mathKernel1[1, 64](np.zeros(64, np.float32))
    doc = parse_html(program._repr_html_())
    self_contained(doc)
    usage = program.resource_usage
    kernels = {r.attrs["data-function"]: r for r in doc.find("table", "functions").iter("tr") if "data-function" in r.attrs}
    assert "main" not in kernels and "mathKernel1" in kernels   # device code only
    for name, row in kernels.items():
        assert int(row.find("td", data_metric="registers").text()) == usage[name].registers
    lines = [int(r.attrs["data-line"]) for r in doc.find("table", "decisions").iter("tr") if "data-line" in r.attrs]
    assert lines == [d.line for d in program.branch_decisions if d.function != "main"]
    # the launches run on its device so far, summed per kernel
    launched = [m for m in program.device().launches if m.kernel == "mathKernel1"]
    totals = doc.find("div", "kernel-totals", data_kernel="mathKernel1")
    assert int(totals.find("td", data_metric="launches").text()) == len(launched) >= 1
    assert int(totals.find("td", data_metric="inst_executed").text()) == sum(m.inst_executed for m in launched)


def test_without_jinja2_the_display_says_what_to_install(program, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_jinja(name, *args, **kwargs):
        if name == "jinja2":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jinja)
    text = program._repr_html_()
    assert text.startswith("<pre>") and "pip install &#x27;minicuda[report]&#x27;" in text

"""`minicuda run --report=html --compare-archs`: the page carries, per kernel, the chosen
warp's lane timeline under pascal (the SIMT stack) and under volta (independent thread
scheduling), each named; mathKernel1's two paths run one after the other under pascal.
Read with html.parser."""
from pathlib import Path

import pytest

from helpers.html_tree import parse_html
from helpers.lanes import EVEN, FULL, ODD, runs
from minicuda.cli import minicuda_main

pytest.importorskip("jinja2", reason="the [report] extra is not installed: pip install 'minicuda[report]'")

ROOT = Path(__file__).resolve().parents[2]
DIVERGENCE = str(ROOT / "samples" / "simpleDivergence.cu")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    path = tmp_path_factory.mktemp("compare") / "report.html"
    assert minicuda_main(["run", "-G", "--arch", "volta", DIVERGENCE, "--report=html", "-o", str(path),
                          "--compare-archs"]) == 0
    return parse_html(path.read_text())


def views(doc, kernel):
    section = doc.find("section", "kernel", data_kernel=kernel)
    return {v.attrs["data-arch"]: v for v in section.find("div", "compare").iter("div", "timeline-view")}


def test_each_kernel_shows_both_archs_named(page):
    for kernel in ("warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"):
        both = views(page, kernel)
        assert list(both) == ["pascal", "volta"], kernel
        assert both["pascal"].find("h4").text() == "pascal (sm_60, SIMT stack)"
        assert both["volta"].find("h4").text() == "volta (sm_70, independent thread scheduling)"
        for view in both.values():
            assert list(view.find("svg", "timeline").iter("g", "issue")), kernel


def test_pascal_serialises_the_two_paths_of_mathkernel1(page):
    both = views(page, "mathKernel1")
    pascal = [g.attrs["data-group"] for g in both["pascal"].find("svg", "timeline").iter("g", "issue")]
    assert runs(pascal) in ([FULL, ODD, EVEN, FULL], [FULL, EVEN, ODD, FULL])
    assert f"{len(pascal)} instructions issued" in both["pascal"].find("p", "note").text()
    volta = [g.attrs["data-group"] for g in both["volta"].find("svg", "timeline").iter("g", "issue")]
    assert {EVEN, ODD} <= set(volta) and volta[0] == FULL


def test_each_arch_runs_its_own_reconvergence_markers(page):
    both = views(page, "mathKernel1")

    def opcodes(view):
        return {g.find("title").text().rsplit(": ", 1)[1].split()[0] for g in view.iter("g", "issue")}

    assert "SSY" in opcodes(both["pascal"]) and "BSSY" not in opcodes(both["pascal"])
    assert "BSSY" in opcodes(both["volta"]) and "SSY" not in opcodes(both["volta"])


def test_the_page_names_the_comparison_and_keeps_the_runs_own_timeline(page):
    assert "compared under pascal and volta" in page.find("p", "meta").text()
    assert ".compare > .timeline-view" in page.find("style").text()   # the styles as written, not escaped
    section = page.find("section", "kernel", data_kernel="mathKernel1")
    own = [v for v in section.iter("div", "timeline-view") if "data-arch" not in v.attrs]
    assert len(own) == 1 and own[0].find("svg", "timeline") is not None


@pytest.mark.parametrize("argv, message", [
    (["--compare-archs"], "--compare-archs runs the program under pascal and volta for the HTML report"),
    (["--compare-archs", "--report=html", "-o", "r.html", "-"], "--compare-archs compiles one source file"),
])
def test_compare_archs_needs_the_report_and_a_source(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    files = argv[-1:] if argv[-1] == "-" else [DIVERGENCE]
    status = minicuda_main(["run", *(a for a in argv if a != "-"), *files, *(["-x", "cu"] if files == ["-"] else [])])
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "r.html").exists()


def test_a_program_that_does_not_compile_for_pascal_shows_why(tmp_path, capsys):
    source = tmp_path / "match.cu"
    source.write_text("__global__ void k(int *out) { out[threadIdx.x] = __match_any_sync(0xffffffff, threadIdx.x % 2); }\n"
                      "int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); return 0; }\n")
    path = tmp_path / "report.html"
    assert minicuda_main(["run", str(source), "--report=html", "-o", str(path), "--compare-archs"]) == 0
    err = capsys.readouterr().err
    assert "does not compile for sm_60; the report shows why" in err and "Traceback" not in err
    both = views(parse_html(path.read_text()), "k")
    note = both["pascal"].find("p", "note").text()
    assert note.startswith("It does not compile for pascal:") and "__match_any_sync" in note and "error:" in note
    assert list(both["volta"].find("svg", "timeline").iter("g", "issue"))


def test_a_run_that_fails_under_an_arch_keeps_its_timeline_and_says_so(tmp_path, capsys):
    source = tmp_path / "status.cu"
    source.write_text("__global__ void k(int *out) { if (threadIdx.x % 2) out[threadIdx.x] = 1; }\n"
                      "int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); return 3; }\n")
    path = tmp_path / "report.html"
    assert minicuda_main(["run", str(source), "-G", "--report=html", "-o", str(path), "--compare-archs"]) == 3
    both = views(parse_html(path.read_text()), "k")
    for arch, view in both.items():
        assert list(view.find("svg", "timeline").iter("g", "issue"))
        run = view.parent
        assert run.find("p", "failure-note").text() == f"The program exited with status 3 under {arch}."

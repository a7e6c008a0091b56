"""`minicudac --emit=cfg-svg`: the CFG as SVG, parsed back with xml.etree: a box per block
named by its id, the IPDOM in its heading, divergent branches and reconvergence points
marked, an edge per CFG edge, under graphviz's layout and minicuda's own."""
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import minicuda
from minicuda.cli import minicudac_main
from minicuda.passes.cfg import build_cfg
from minicuda.passes.postdom import ipdom_of
from minicuda.report.cfg_svg import dot_available, function_svg

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
DIVERGENCE = str(ROOT / "samples" / "simpleDivergence.cu")
LAYOUTS = ["layered", pytest.param("dot", marks=pytest.mark.skipif(not dot_available(), reason=(
    "graphviz's dot or the graphviz package is missing (apt-get install graphviz; pip install 'minicuda[report]')")))]


@pytest.fixture(scope="module")
def kernel1():
    return minicuda.compile(DIVERGENCE, arch="sm_60", opt=0).module.functions["mathKernel1"]


def blocks(svg: ET.Element, fn_name: str) -> dict[str, ET.Element]:
    prefix = f"cfg-{fn_name}-"
    return {g.get("id")[len(prefix):]: g for g in svg.iter(NS + "g")
            if (g.get("id") or "").startswith(prefix) and "cfg-block" in (g.get("class") or "")}


def text_of(g: ET.Element) -> str:
    return "\n".join("".join(t.itertext()) for t in g.iter(NS + "text"))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_block_with_its_ipdom_and_marks(kernel1, layout):
    svg = ET.fromstring(function_svg(kernel1, layout))
    found = blocks(svg, "mathKernel1")
    assert sorted(found) == sorted(b.label for b in kernel1.blocks)
    ipdom = ipdom_of(build_cfg(kernel1))
    for label, g in found.items():
        heading = " ".join(text_of(g).splitlines()[0].split())   # (dot writes runs of spaces as no-break ones)
        assert heading.startswith(f"{label}: ipdom {'exit' if ipdom[label] in (None, 'EXIT') else ipdom[label]}")
    divergent = [label for label, g in found.items() if "divergent" in g.get("class").split()]
    assert len(divergent) == 2   # the if (tid % 2 == 0) and its signed remainder's hammock (-G: ptxas's)
    lines = Path(DIVERGENCE).read_text().splitlines()
    branch_lines = found[divergent[0]].get("data-lines").split()
    assert any("if (tid % 2 == 0)" in lines[int(n) - 1] for n in branch_lines)
    rejoin = [label for label, g in found.items() if "reconvergence" in g.get("class").split()]
    assert sorted(rejoin) == sorted(ipdom[label] for label in divergent)
    assert text_of(found[rejoin[0]]).splitlines()[0].endswith("reconvergence point")


def test_the_layered_layout_draws_each_edge_once(kernel1):
    svg = ET.fromstring(function_svg(kernel1, "layered"))
    cfg = build_cfg(kernel1)
    edges = [p for p in svg.iter(NS + "path") if "cfg-edge" in (p.get("class") or "")]
    assert len(edges) == sum(len(cfg.succs(b.label)) for b in kernel1.blocks)


def test_a_loop_has_a_back_edge():
    fn = minicuda.compile("__global__ void k(int *a, int n) { for (int i = 0; i < n; i++) a[i] += i; }",
                          opt=0).module.functions["k"]
    svg = ET.fromstring(function_svg(fn, "layered"))
    assert [p for p in svg.iter(NS + "path") if "back" in (p.get("class") or "").split()]


def test_minicudac_emit_cfg_svg(tmp_path, capsys):
    out = tmp_path / "cfg.svg"
    assert minicudac_main([DIVERGENCE, "-G", "-arch", "sm_60", "--emit=cfg-svg", "-o", str(out)]) == 0
    svg = ET.parse(out).getroot()
    assert svg.tag == NS + "svg"
    titles = [t.text for t in svg.findall(NS + "text")]
    assert "kernel mathKernel1" in titles and "host main" in titles
    assert blocks(svg, "mathKernel4")

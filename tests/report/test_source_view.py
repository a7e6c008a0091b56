"""Per-source-line metrics (`minicuda run --source-view`, the per-line section of
--metrics-json): the lines of a launch sum to its totals, a divergent branch shows on
its line, and both engines give the same numbers."""
import json
from pathlib import Path

import pytest

import minicuda
from minicuda.cli import minicuda_main
from minicuda.vm.machine import Machine

ROOT = Path(__file__).resolve().parents[2]
DIVERGENCE = str(ROOT / "samples" / "simpleDivergence.cu")
SUMMED = ("inst_executed", "thread_inst_executed", "branch", "divergent_branch")

# a kernel calling a device function that holds the divergent branch (-G keeps the call)
CALLS = """\
__device__ int pick(int i) {
    if (i % 4 == 0)
        return i * 2;
    return i + 1;
}
__global__ void k(int *a) {
    int i = threadIdx.x;
    a[i] = pick(i);
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    k<<<2, 48>>>(d);
    cudaDeviceSynchronize();
    return 0;
}
"""

COOPERATIVE = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *a) {
    a[blockIdx.x * 32 + threadIdx.x] = threadIdx.x % 2 ? 1 : 2;
    cg::this_grid().sync();
    if (threadIdx.x == 0)
        a[blockIdx.x] += a[((blockIdx.x + 1) % gridDim.x) * 32 + 1];
}
int main() {
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    void *args[] = {&d};
    cudaLaunchCooperativeKernel((void *)k, dim3(2), dim3(32), args, 0, 0);
    cudaDeviceSynchronize();
    return 0;
}
"""


def source_line(path: str, text: str) -> int:
    return next(n for n, line in enumerate(Path(path).read_text().splitlines(), 1) if text in line)


def metrics_json(capsys, tmp_path, *argv) -> list[dict]:
    out = tmp_path / "m.json"
    assert minicuda_main(["run", *argv, "--source-view", "--metrics-json", str(out)]) == 0
    capsys.readouterr()
    return json.loads(out.read_text())


def test_lines_sum_to_the_launch_totals(capsys, tmp_path):
    path = tmp_path / "calls.cu"
    path.write_text(CALLS)
    for launch in metrics_json(capsys, tmp_path, "-G", "--arch", "pascal", str(path)):
        for name in SUMMED:
            assert sum(line[name] for line in launch["lines"]) == launch[name], name
    lines = {line["line"]: line for line in launch["lines"]}
    assert lines[2]["functions"] == ["pick"] and lines[2]["divergent_branch"] == 4   # both warps of both blocks diverge
    assert lines[2]["branch_efficiency"] < 100 and lines[2]["predicated"] is False


def test_the_divergent_branch_of_mathkernel1_is_on_its_if(capsys, tmp_path):
    launches = metrics_json(capsys, tmp_path, "-G", "--arch", "pascal", DIVERGENCE)
    kernel1 = next(m for m in launches if m["kernel"] == "mathKernel1")
    divergent = [line for line in kernel1["lines"] if line["divergent_branch"]]
    assert [line["line"] for line in divergent] == [source_line(DIVERGENCE, "if (tid % 2 == 0)")]
    assert divergent[0]["divergent_branch"] == kernel1["divergent_branch"] == 2
    assert divergent[0]["predicated"] is False and "-O0" in divergent[0]["reason"]
    body = next(line for line in kernel1["lines"] if line["line"] == source_line(DIVERGENCE, "a = 100.0f;"))
    assert body["active_lanes"] == 16.0   # the even threads alone


def test_the_source_view_prints_the_annotated_source(capsys):
    assert minicuda_main(["run", "-G", "--arch", "pascal", DIVERGENCE, "--metrics", "branch", "--source-view"]) == 0
    out = capsys.readouterr().out
    view = out[out.index("Source view: mathKernel1"):]
    view = view[:view.index("==minicuda==", 1)]
    row = next(r for r in view.splitlines() if r.endswith("if (tid % 2 == 0)"))
    cells = row.split("|")[0].split()
    assert cells[:6] == [str(source_line(DIVERGENCE, "if (tid % 2 == 0)")), "30", "896", "8", "2", "75.0%"]
    assert cells[-1] == "no"
    assert any(r.rstrip().endswith("float a, b;") for r in view.splitlines())   # lines that ran nothing too


def test_both_engines_give_the_same_lines():
    program = minicuda.compile(CALLS, arch="sm_70", opt=0)
    runs = []
    for engine in ("interp", "jit"):
        machine = Machine(program, engine=engine, profile=True)
        assert machine.run(["calls"]) == 0
        runs.append([(ln.file, ln.line, ln.inst_executed, ln.thread_inst_executed, ln.branch, ln.divergent_branch)
                     for m in machine.launches for ln in m.profile.lines()])
    assert runs[0] == runs[1] and runs[0]


def test_a_plain_run_keeps_the_jit_and_counts_nothing_per_line():
    machine = Machine(minicuda.compile(CALLS, arch="sm_70", opt=0), engine="jit")
    assert machine.run(["calls"]) == 0
    assert machine.engine.name == "jit" and machine.launches[0].profile is None


@pytest.mark.parametrize("argv, message", [
    (["--report=html"], "--report=html needs -o FILE"),
    (["-o", "x.html"], "-o names the file --report=html writes"),
    (["--timeline-warp", "0:1"], "--timeline-warp chooses the warp"),
    (["--report=html", "-o", "x.html", "--timeline-warp", "0-1"], "is not BLOCK:WARP"),
])
def test_report_options_misused(capsys, argv, message):
    with pytest.raises(SystemExit) if "0-1" in argv else _nothing():
        status = minicuda_main(["run", DIVERGENCE, *argv])
        assert status == 2
    assert message in capsys.readouterr().err


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_cooperative_launch_is_counted_per_line_too(capsys, tmp_path):
    path = tmp_path / "coop.cu"
    path.write_text(COOPERATIVE)
    launches = metrics_json(capsys, tmp_path, str(path))
    assert len(launches) == 1 and launches[0]["lines"]
    for name in SUMMED:
        assert sum(line[name] for line in launches[0]["lines"]) == launches[0][name], name

"""`minicuda run` on nested launches (dynamic parallelism): --metrics' totals per kernel,
--metrics-json, --trace's launch lines, and which engine runs the grids.

The program: `root` runs 3 blocks of one warp; thread 0 of each launches `leaf<<<2, 32>>>`,
then the block meets at a barrier (without it the if would end the kernel, and ptxas, as
minicuda, makes it a predicated EXIT: no branch).
By hand: root is 1 grid whose 3 warps each take the `threadIdx.x == 0` branch once,
divergently (lane 0 one way, 31 lanes the other): 3 branches, 3 divergent, 0% branch
efficiency.  leaf is 3 grids (one per root block) of straight-line code on full warps: no
branches, 100% warp execution efficiency, each grid the same count of instructions."""
import json

import pytest

from minicuda.cli import minicuda_main
from minicuda.vm.interp import Interpreter

SOURCE = """\
#include <cstdio>
__global__ void leaf(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }
__global__ void root(int *out) {
    if (threadIdx.x == 0) leaf<<<2, 32>>>(out + blockIdx.x * 64);
    __syncthreads();
}
int main() {
    int *d;
    cudaMalloc(&d, 3 * 64 * sizeof(int));
    root<<<3, 32>>>(d);
    cudaDeviceSynchronize();
    int h[3 * 64];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%d %d\\n", h[0], h[3 * 64 - 1]);
    return 0;
}
"""

# CUDA 11's device-side wait (below sm_90): kernels of such a program run on the interpreter
DEVICE_SYNC = """\
#include <cstdio>
__global__ void leaf() { printf("leaf %d\\n", threadIdx.x); }
__global__ void root() {
    leaf<<<1, 2>>>();
    cudaDeviceSynchronize();
    printf("root after its child\\n");
}
int main() { root<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }
"""

COUNTS = ("inst_executed", "thread_inst_executed", "branch", "divergent_branch")


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "nested.cu"
    path.write_text(SOURCE)
    return path


def run_json(capsys, tmp_path, program, engine, *options):
    out = tmp_path / f"{engine}.json"
    status = minicuda_main(["run", "--engine", engine, "-rdc=true", *options, "--metrics-json", str(out), str(program)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert captured.out.splitlines()[0] == "0 31"
    return captured, json.loads(out.read_text())


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_metrics_json_sums_each_kernels_grids(capsys, tmp_path, program, engine):
    _, entries = run_json(capsys, tmp_path, program, engine)
    launches = [e for e in entries if not e.get("totals")]
    totals = {e["kernel"]: e for e in entries if e.get("totals")}
    assert [(e["kernel"], e.get("depth", 0), e.get("parent")) for e in launches] == \
        [("root", 0, None)] + [("leaf", 1, "root")] * 3
    assert list(totals) == ["root", "leaf"]
    assert (totals["root"]["grids"], totals["leaf"]["grids"]) == (1, 3)
    assert "grid" not in totals["leaf"] and "block" not in totals["leaf"]
    for kernel, total in totals.items():
        for count in COUNTS:
            assert total[count] == sum(e[count] for e in launches if e["kernel"] == kernel)
    root, leaf = totals["root"], totals["leaf"]
    assert (root["branch"], root["divergent_branch"], root["branch_efficiency"]) == (3, 3, 0.0)
    assert (leaf["branch"], leaf["divergent_branch"], leaf["branch_efficiency"]) == (0, 0, 100.0)
    assert leaf["warp_execution_efficiency"] == 100.0
    assert leaf["thread_inst_executed"] == 32 * leaf["inst_executed"] == 3 * 32 * launches[1]["inst_executed"]
    efficiency = 100 * root["thread_inst_executed"] / (32 * root["inst_executed"])
    assert root["warp_execution_efficiency"] == round(efficiency, 2)


def test_engines_agree_on_nested_metrics(capsys, tmp_path, program):
    assert run_json(capsys, tmp_path, program, "interp")[1] == run_json(capsys, tmp_path, program, "jit")[1]


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_metrics_table_ends_with_totals_per_kernel(capsys, tmp_path, program, engine):
    captured, entries = run_json(capsys, tmp_path, program, engine, "--metrics",
                                 "branch,divergent_branch,inst_executed,branch_efficiency")
    leaf_inst = entries[-1]["inst_executed"]
    lines = captured.out.splitlines()
    start = lines.index("==minicuda== Metric totals per kernel (nested launches):")
    assert [line.split() for line in lines[start + 1:]] == [
        ["Kernel:", "root,", "1", "grid", "[sm_70,", "its]"],
        ["branch", "Branches", "3"], ["divergent_branch", "Divergent", "Branches", "3"],
        ["inst_executed", "Instructions", "Executed", str(entries[-2]["inst_executed"])],
        ["branch_efficiency", "Branch", "Efficiency", "0.00%"],
        ["Kernel:", "leaf,", "3", "grids", "[sm_70,", "its]"],
        ["branch", "Branches", "0"], ["divergent_branch", "Divergent", "Branches", "0"],
        ["inst_executed", "Instructions", "Executed", str(leaf_inst)],
        ["branch_efficiency", "Branch", "Efficiency", "100.00%"]]
    assert lines[:start].count("    Kernel: leaf <<<(2,1,1), (32,1,1)>>> [sm_70, its] depth 1, launched by root") == 3


def test_no_totals_without_nested_launches(capsys, tmp_path):
    path = tmp_path / "flat.cu"
    path.write_text("__global__ void k() {}\nint main() { k<<<1, 1>>>(); k<<<2, 1>>>(); cudaDeviceSynchronize(); }\n")
    out = tmp_path / "m.json"
    assert minicuda_main(["run", "--metrics", "branch", "--metrics-json", str(out), str(path)]) == 0
    assert "totals" not in capsys.readouterr().out
    assert [e["kernel"] for e in json.loads(out.read_text())] == ["k", "k"]


def test_trace_prints_a_line_as_each_child_grid_starts(capsys, program):
    assert minicuda_main(["run", "-rdc=true", "--trace", str(program)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("launch ")] == [
        f"launch leaf <<<(2,1,1), (32,1,1), 0>>> depth 1 from root block ({b},0,0) thread (0,0,0)" for b in range(3)]
    first_leaf = next(i for i, line in enumerate(err) if line.startswith("launch "))
    root_lines = [i for i, line in enumerate(err) if "nested.cu:4:" in line]
    assert root_lines and max(root_lines) < first_leaf   # root has finished: its children run after it


def test_trace_names_the_launching_thread_and_depth(capsys, tmp_path):
    path = tmp_path / "chain.cu"
    path.write_text("__global__ void k(int d) {\n"
                    "    if (d < 2 && threadIdx.y == 1 && blockIdx.y == 2) k<<<dim3(1, 3), dim3(1, 2), 8>>>(d + 1);\n"
                    "}\nint main() { k<<<dim3(1, 3), dim3(1, 2)>>>(0); cudaDeviceSynchronize(); }\n")
    assert minicuda_main(["run", "-rdc=true", "--trace", str(path)]) == 0
    assert [line for line in capsys.readouterr().err.splitlines() if line.startswith("launch ")] == [
        "launch k <<<(1,3,1), (1,2,1), 8>>> depth 1 from k block (0,2,0) thread (0,1,0)",
        "launch k <<<(1,3,1), (1,2,1), 8>>> depth 2 from k block (0,2,0) thread (0,1,0)"]


def test_jit_runs_nested_grids_natively(capsys, tmp_path, program, monkeypatch):
    interpreted = []
    launch = Interpreter.launch
    monkeypatch.setattr(Interpreter, "launch", lambda self, kernel, *rest: interpreted.append(kernel) or
                        launch(self, kernel, *rest))
    run_json(capsys, tmp_path, program, "jit")
    assert interpreted == []
    run_json(capsys, tmp_path, program, "interp")
    assert interpreted == ["root", "leaf", "leaf", "leaf"]   # the check sees the interpreter's launches


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_device_sync_programs_run_on_the_interpreter(capsys, tmp_path, monkeypatch, engine):
    path = tmp_path / "sync.cu"
    path.write_text(DEVICE_SYNC)
    interpreted = []
    launch = Interpreter.launch
    monkeypatch.setattr(Interpreter, "launch", lambda self, kernel, *rest: interpreted.append(kernel) or
                        launch(self, kernel, *rest))
    assert minicuda_main(["run", "--engine", engine, "-rdc=true", "-arch=sm_80", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["leaf 0", "leaf 1", "root after its child"]
    assert captured.err == ""   # the same output and metrics: no note without -v
    assert interpreted == ["root", "leaf"]

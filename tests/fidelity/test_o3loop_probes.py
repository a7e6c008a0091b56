"""-O3 loops against nvcc 13 on probe kernels that vary one thing at a time
(tests/data/groundtruth/fidelity/o3loop: probes.cu, record.sh, the ncu counters of each
launch in probes.tsv, the sm_90 SASS and the PTX): guarded loads in `#pragma unroll` bodies
(3, 7 and 16 taps, with a multiply, two loads, a store, a data-dependent test, shared memory,
not unrolled) and alone; loops stepped by a division (`m /= 2`, `m /= 3`, unsigned, from an
unknown start); data-dependent trip counts (CSR rows, with and without an early test, a
do-while, `#pragma unroll 1`); switches of 2 to 8 cases, sparse, storing, uniform.

Every launch's divergent branches equal the GPU's; its branches too, except the differences
listed (a strict xfail each, saying what differs: a change that makes one agree must take it
off the list).  The program prints one checksum per launch: both engines print the GPU's."""
import json
import pathlib

import pytest

from minicuda.bench.fidelity import gpu_launches
from minicuda.cli import minicuda_main

DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "groundtruth" / "fidelity" / "o3loop"
PROBES = DATA / "probes.cu"

# kernel -> why minicuda's branch count differs from the GPU's
BRANCHES_DIFFER: dict[str, str] = {}
# kernel -> why minicuda's divergent-branch count differs from the GPU's
DIVERGENT_DIFFER: dict[str, str] = {}


def gpu() -> dict[str, tuple[int, int]]:
    """kernel -> (branches, divergent branches) of its one launch on the GPU."""
    return {launch.kernel: (launch.branches, launch.divergent)
            for launch in gpu_launches(DATA / "probes.tsv", DATA) if launch.build == "O3"}


_RUNS: dict[str, tuple[str, list[dict]]] = {}


def minicuda_run(tmp_path_factory, engine: str) -> tuple[str, list[dict]]:
    """(what the program printed, the metrics of each launch) on one engine, run once."""
    if engine not in _RUNS:
        metrics = tmp_path_factory.mktemp("o3loop") / "metrics.json"
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = minicuda_main(["run", str(PROBES), "-arch", "sm_90", "-q", "--engine", engine,
                                  "--metrics-json", str(metrics)])
        assert code == 0
        _RUNS[engine] = out.getvalue(), json.loads(metrics.read_text())
    return _RUNS[engine]


def test_the_probes_and_their_record_are_there():
    assert len(gpu()) == 39
    assert "release 13.0" in (DATA / "versions.txt").read_text()
    assert "nvcc -O3 -arch=sm_90" in (DATA / "command.txt").read_text()
    assert (DATA / "programs_O3.txt").read_text().count("\n") == 39


@pytest.mark.slow   # the 39 launches on both engines, about 60 CPU s each
@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_each_launch_computes_the_gpus_checksum(tmp_path_factory, engine):
    printed, _ = minicuda_run(tmp_path_factory, engine)
    assert printed == (DATA / "programs_O3.txt").read_text()


def cases(differ: dict[str, str]):
    for kernel in sorted(gpu()):
        marks = [pytest.mark.xfail(reason=differ[kernel], strict=True)] if kernel in differ else []
        yield pytest.param(kernel, marks=marks, id=kernel)


def counts(tmp_path_factory, kernel: str) -> tuple[int, int]:
    _, launches = minicuda_run(tmp_path_factory, "jit")
    launch = next(m for m in launches if m["kernel"] == kernel)
    return launch["branch"], launch["divergent_branch"]


@pytest.mark.slow
@pytest.mark.parametrize("kernel", list(cases(DIVERGENT_DIFFER)))
def test_divergent_branches_as_the_gpus(tmp_path_factory, kernel):
    assert counts(tmp_path_factory, kernel)[1] == gpu()[kernel][1]


@pytest.mark.slow
@pytest.mark.parametrize("kernel", list(cases(BRANCHES_DIFFER)))
def test_branches_as_the_gpus(tmp_path_factory, kernel):
    assert counts(tmp_path_factory, kernel)[0] == gpu()[kernel][0]

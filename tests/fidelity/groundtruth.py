"""The fidelity suite's GPU data: tests/data/groundtruth/fidelity/fidelity.tsv, which
tests/fidelity/record.sh wrote on an H100 (sm_90, nvcc 13.0, ncu 2025.3) for every kernel
in tests/fidelity/kernels/, built with -O3 and with -G. One GpuLaunch per row; each
kernel file launches its kernel once, so (kernel, build) names a launch.  The reader is
minicuda.bench.fidelity's (`minicuda bench --fidelity` prints the agreement table)."""
import json
import pathlib

from minicuda.bench.fidelity import BUILDS, GpuLaunch, dims, gpu_launches as _read
from minicuda.cli import minicuda_main

FIDELITY_DIR = pathlib.Path(__file__).resolve().parent
KERNELS_DIR = FIDELITY_DIR / "kernels"
DATA_DIR = FIDELITY_DIR.parent / "data" / "groundtruth" / "fidelity"
COUNTERS = DATA_DIR / "fidelity.tsv"

__all__ = ["BUILDS", "COUNTERS", "DATA_DIR", "FIDELITY_DIR", "GpuLaunch", "KERNELS_DIR", "dims", "gpu_launch",
           "gpu_launches", "minicuda_metrics"]


def gpu_launches(path: pathlib.Path = COUNTERS) -> list[GpuLaunch]:
    """Every launch in the table, in file order (all of -O3, then all of -G)."""
    return _read(path, KERNELS_DIR)


def gpu_launch(kernel: str, build: str) -> GpuLaunch:
    """The launch of `kernel` in `build` ("O3" or "G")."""
    for launch in gpu_launches():
        if launch.kernel == kernel and launch.build == build:
            return launch
    raise KeyError(f"{kernel} at {build}: not in {COUNTERS.name}")


_RUNS: dict[tuple[pathlib.Path, str], dict] = {}   # (program, build) -> minicuda's metrics, one run each


def minicuda_metrics(tmp_path, capsys, program: pathlib.Path, build: str) -> dict:
    """minicuda's metrics of the program's one launch, built as nvcc's `build` for sm_90 (the
    program prints "KERNEL OK", KERNEL its file's stem); each program and build runs once."""
    if (program, build) not in _RUNS:
        metrics = tmp_path / "metrics.json"
        options = ["-G"] if build == "G" else []
        code = minicuda_main(["run", str(program), "-arch", "sm_90", "-q", *options, "--metrics-json", str(metrics)])
        assert (code, capsys.readouterr().out) == (0, f"{program.stem} OK\n")
        _RUNS[(program, build)] = json.loads(metrics.read_text())[0]
    return _RUNS[(program, build)]


def branch_counts_at_g(program, tmp_path, capsys) -> tuple[str, dict[str, tuple[int, int]]]:
    """`minicuda run PROGRAM -G -arch sm_90`: what it printed, and per kernel its branches and
    divergent branches (the counters the -G probe folders' tests compare with ncu's)."""
    import json
    from minicuda.cli import minicuda_main
    metrics = tmp_path / "metrics.json"
    assert minicuda_main(["run", str(program), "-G", "-arch", "sm_90", "-q", "--metrics-json", str(metrics)]) == 0
    return capsys.readouterr().out, {m["kernel"]: (m["branch"], m["divergent_branch"])
                                     for m in json.loads(metrics.read_text())}


def gpu_branch_counts(folder) -> dict[str, tuple[int, int]]:
    """Per kernel, ncu's branches and divergent branches at -G in a probe folder's ncu_G.csv
    (gcalls/compare.py reads it)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gcalls_compare", DATA_DIR / "gcalls" / "compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {k: (b, d) for k, (b, d, _) in module.gpu_counts("G", folder).items()}

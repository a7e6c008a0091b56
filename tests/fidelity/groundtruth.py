"""The fidelity suite's GPU data: tests/data/groundtruth/fidelity/fidelity.tsv, which
tests/fidelity/record.sh wrote on an H100 (sm_90, nvcc 13.0, ncu 2025.3) for every kernel
in tests/fidelity/kernels/, built with -O3 and with -G. One GpuLaunch per row; each
kernel file launches its kernel once, so (kernel, build) names a launch.  The reader is
minicuda.bench.fidelity's (`minicuda bench --fidelity` prints the agreement table)."""
import pathlib

from minicuda.bench.fidelity import BUILDS, GpuLaunch, dims, gpu_launches as _read

FIDELITY_DIR = pathlib.Path(__file__).resolve().parent
KERNELS_DIR = FIDELITY_DIR / "kernels"
DATA_DIR = FIDELITY_DIR.parent / "data" / "groundtruth" / "fidelity"
COUNTERS = DATA_DIR / "fidelity.tsv"

__all__ = ["BUILDS", "COUNTERS", "DATA_DIR", "FIDELITY_DIR", "GpuLaunch", "KERNELS_DIR", "dims", "gpu_launch",
           "gpu_launches"]


def gpu_launches(path: pathlib.Path = COUNTERS) -> list[GpuLaunch]:
    """Every launch in the table, in file order (all of -O3, then all of -G)."""
    return _read(path, KERNELS_DIR)


def gpu_launch(kernel: str, build: str) -> GpuLaunch:
    """The launch of `kernel` in `build` ("O3" or "G")."""
    for launch in gpu_launches():
        if launch.kernel == kernel and launch.build == build:
            return launch
    raise KeyError(f"{kernel} at {build}: not in {COUNTERS.name}")

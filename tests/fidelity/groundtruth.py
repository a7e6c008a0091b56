"""The fidelity suite's GPU data: tests/data/groundtruth/fidelity/fidelity.tsv, which
tests/fidelity/record.sh wrote on an H100 (sm_90, nvcc 13.0, ncu 2025.3) for every kernel
in tests/fidelity/kernels/, built with -O3 and with -G. One GpuLaunch per row; each
kernel file launches its kernel once, so (kernel, build) names a launch."""
import csv
import pathlib
from dataclasses import dataclass

FIDELITY_DIR = pathlib.Path(__file__).resolve().parent
KERNELS_DIR = FIDELITY_DIR / "kernels"
DATA_DIR = FIDELITY_DIR.parent / "data" / "groundtruth" / "fidelity"
COUNTERS = DATA_DIR / "fidelity.tsv"
BUILDS = ("O3", "G")


@dataclass(frozen=True)
class GpuLaunch:
    """One launch's counters as ncu read them, summed over the launch's warps."""
    build: str              # "O3" or "G"
    kernel: str             # also the name of its file in kernels/
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    branches: int           # smsp__sass_branch_targets.sum
    divergent: int          # smsp__sass_branch_targets_threads_divergent.sum
    uniform: int            # smsp__sass_branch_targets_threads_uniform.sum
    warp_instructions: int  # smsp__inst_executed.sum
    thread_instructions: int  # smsp__thread_inst_executed.sum
    registers: int          # launch__registers_per_thread

    @property
    def source(self) -> pathlib.Path:
        return KERNELS_DIR / f"{self.kernel}.cu"


def gpu_launches(path: pathlib.Path = COUNTERS) -> list[GpuLaunch]:
    """Every launch in the table, in file order (all of -O3, then all of -G)."""
    launches, build = [], None
    for row in csv.reader(path.read_text().splitlines(), delimiter="\t"):
        if row[0].startswith("# build "):
            build = row[0].removeprefix("# build ")
        elif row[0].isdigit():
            launches.append(GpuLaunch(build, row[1], dims(row[2]), dims(row[3]), int(row[4]), int(row[5]),
                                      int(row[6]), int(row[8]), int(row[9]), int(row[11])))
    return launches


def gpu_launch(kernel: str, build: str) -> GpuLaunch:
    """The launch of `kernel` in `build` ("O3" or "G")."""
    for launch in gpu_launches():
        if launch.kernel == kernel and launch.build == build:
            return launch
    raise KeyError(f"{kernel} at {build}: not in {COUNTERS.name}")


def dims(text: str) -> tuple[int, int, int]:
    """"(2, 1, 1)" as (2, 1, 1)."""
    x, y, z = (int(d) for d in text.strip("()").split(","))
    return x, y, z

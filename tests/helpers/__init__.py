"""What tests in every folder share: where the checkout's files are, and the H200
ground truth vendored under tests/data/groundtruth (so no test depends on a folder
outside the checkout).

Importable as `helpers` because pyproject's pytest settings put tests/ on sys.path
(test modules are imported with --import-mode=importlib, so same-named test files
in different folders do not clash)."""
import csv
import pathlib
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.cu"))
GROUNDTRUTH_DIR = ROOT / "tests" / "data" / "groundtruth"
GROUNDTRUTH = GROUNDTRUTH_DIR / "seed_kernels.cu"
H200_COUNTERS = GROUNDTRUTH_DIR / "h200_seed_kernels.tsv"


@dataclass(frozen=True)
class H200Launch:
    """One row of h200_seed_kernels.tsv: a launch of one seed kernel as nvcc built it."""
    build: str      # "O3" or "G"
    kernel: str
    threads: int    # grid x block, all dimensions
    branches: int
    divergent: int

    @property
    def warps(self) -> int:
        return self.threads // 32


def h200_launches() -> list[H200Launch]:
    """The H200's counters for every launch in the table, in file order."""
    launches, build = [], None
    for row in csv.reader(H200_COUNTERS.read_text().splitlines(), delimiter="\t"):
        if row[0].startswith("# build "):
            build = row[0].removeprefix("# build ")
        elif row[0].isdigit():
            launches.append(H200Launch(build, row[1], _threads(row[2]) * _threads(row[3]), int(row[4]), int(row[5])))
    return launches


def h200_divergent_per_warp(build: str) -> dict[str, int]:
    """Divergent branches per warp of each seed kernel in one build ("O3" or "G"):
    a property of the kernel, so every launch size in the table must agree."""
    per_warp: dict[str, int] = {}
    for launch in h200_launches():
        if launch.build != build:
            continue
        count, rest = divmod(launch.divergent, launch.warps)
        if rest or per_warp.setdefault(launch.kernel, count) != count:
            raise ValueError(f"{H200_COUNTERS.name}: {launch.kernel} at -{build} has no single per-warp count")
        per_warp[launch.kernel] = count
    return per_warp


def _threads(dims: str) -> int:
    x, y, z = (int(d) for d in dims.strip("()").split(","))
    return x * y * z

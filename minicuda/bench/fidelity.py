"""minicuda bench --fidelity: the fidelity suite's agreement table, minicuda beside the GPU.

The suite (a source checkout's tests/fidelity/kernels/, 47 kernels) was run on an H100
(sm_90, nvcc 13.0, ncu 2025.3) built with -O3 and with -G; tests/data/groundtruth/
fidelity/fidelity.tsv holds its counters per launch (tests/fidelity/record.sh wrote it).
Each kernel's program launches its kernel once, so (kernel, build) names a launch.  For
every launch the table puts the GPU's branches, divergent branches and warp instructions
beside those of `minicuda run KERNEL.cu -arch sm_90 [-G] --metrics-json`, and sums up the
agreement per build (the numbers docs/fidelity.md quotes).
"""
from __future__ import annotations

import csv
import json
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from minicuda.bench.suites import PACKAGE_ROOT

KERNELS_DIR = PACKAGE_ROOT / "tests" / "fidelity" / "kernels"
DATA_DIR = PACKAGE_ROOT / "tests" / "data" / "groundtruth" / "fidelity"
BUILDS = ("O3", "G")
_CHILD = "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main())"


@dataclass(frozen=True)
class GpuLaunch:
    """One launch's counters as ncu read them, summed over the launch's warps."""
    build: str              # "O3" or "G"
    kernel: str             # also the name of its file in the kernels folder
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    branches: int           # smsp__sass_branch_targets.sum
    divergent: int          # smsp__sass_branch_targets_threads_divergent.sum
    uniform: int            # smsp__sass_branch_targets_threads_uniform.sum
    warp_instructions: int  # smsp__inst_executed.sum
    thread_instructions: int  # smsp__thread_inst_executed.sum
    registers: int          # launch__registers_per_thread
    kernels_dir: Path = KERNELS_DIR

    @property
    def source(self) -> Path:
        return self.kernels_dir / f"{self.kernel}.cu"


def gpu_launches(path: Path = DATA_DIR / "fidelity.tsv", kernels_dir: Path = KERNELS_DIR) -> list[GpuLaunch]:
    """Every launch in the table, in file order (all of -O3, then all of -G)."""
    launches, build = [], None
    for row in csv.reader(path.read_text().splitlines(), delimiter="\t"):
        if row[0].startswith("# build "):
            build = row[0].removeprefix("# build ")
        elif row[0].isdigit():
            launches.append(GpuLaunch(build, row[1], dims(row[2]), dims(row[3]), int(row[4]), int(row[5]),
                                      int(row[6]), int(row[8]), int(row[9]), int(row[11]), kernels_dir))
    return launches


def dims(text: str) -> tuple[int, int, int]:
    """"(2, 1, 1)" as (2, 1, 1)."""
    x, y, z = (int(d) for d in text.strip("()").split(","))
    return x, y, z


@dataclass(frozen=True)
class Row:
    """One launch: the GPU's counters and minicuda's (None when its run wrote none)."""
    gpu: GpuLaunch
    ours: dict | None

    @property
    def divergent_equal(self) -> bool:
        return self.ours is not None and self.ours["divergent_branch"] == self.gpu.divergent

    @property
    def branches_equal(self) -> bool:
        return self.ours is not None and self.ours["branch"] == self.gpu.branches

    def as_dict(self) -> dict:
        g, o = self.gpu, self.ours or {}
        return {"kernel": g.kernel, "build": g.build, "gpu_branch": g.branches, "gpu_divergent_branch": g.divergent,
                "gpu_inst_executed": g.warp_instructions, "branch": o.get("branch"),
                "divergent_branch": o.get("divergent_branch"), "inst_executed": o.get("inst_executed"),
                "divergent_equal": self.divergent_equal, "branches_equal": self.branches_equal}


def minicuda_metrics(launch: GpuLaunch, json_dir: Path | None = None, timeout: float = 600.0) -> dict | None:
    """minicuda's metrics for the launch (its run's --metrics-json, or json_dir's
    KERNEL.BUILD.json where given), or None when the run wrote none.  The run is a child
    `minicuda run` (the command line is a layer above the benchmark's modules)."""
    if json_dir is None:
        json_dir = Path(tempfile.mkdtemp(prefix="minicuda-fidelity-"))
        options = ["-G"] if launch.build == "G" else []
        subprocess.run([sys.executable, "-c", _CHILD, "run", str(launch.source), "-arch", "sm_90", "-q",
                        *options, "--metrics-json", str(json_dir / f"{launch.kernel}.{launch.build}.json")],
                       capture_output=True, timeout=timeout)
    path = json_dir / f"{launch.kernel}.{launch.build}.json"
    if not path.exists() or not path.read_text().strip():
        return None
    return json.loads(path.read_text())[0]


def compare(launches: list[GpuLaunch], json_dir: Path | None = None, progress=lambda text: None,
            timeout: float = 600.0) -> list[Row]:
    rows = []
    for launch in launches:
        progress(f"fidelity {launch.kernel} {launch.build}")
        try:
            rows.append(Row(launch, minicuda_metrics(launch, json_dir, timeout)))
        except subprocess.TimeoutExpired:
            rows.append(Row(launch, None))
    return rows


def summary(rows: list[Row], build: str) -> str:
    """The agreement of one build's launches in one line."""
    mine = [r for r in rows if r.gpu.build == build]
    ratios = [r.ours["inst_executed"] / r.gpu.warp_instructions for r in mine if r.ours is not None]
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0] if ratios else float("nan")] * 3
    return (f"-{build}: divergent branches equal on {sum(r.divergent_equal for r in mine)} of {len(mine)} launches, "
            f"branches on {sum(r.branches_equal for r in mine)} of {len(mine)}; warp instructions minicuda/GPU: "
            f"median {quartiles[1]:.2f} (quartiles {quartiles[0]:.2f}, {quartiles[2]:.2f}; "
            f"min {min(ratios, default=0):.2f}, max {max(ratios, default=0):.2f}).")


def render(rows: list[Row]) -> str:
    """The markdown table and one summary line per build present."""
    lines = ["| kernel | build | GPU br | GPU div | GPU winst | minicuda br | minicuda div | minicuda winst | div equal | br equal |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        g = r.gpu
        if r.ours is None:
            lines.append(f"| {g.kernel} | {g.build} | {g.branches} | {g.divergent} | {g.warp_instructions} "
                         f"| - | - | - | no run | no run |")
            continue
        o = r.ours
        lines.append(f"| {g.kernel} | {g.build} | {g.branches} | {g.divergent} | {g.warp_instructions} | "
                     f"{o['branch']} | {o['divergent_branch']} | {o['inst_executed']} | "
                     f"{'yes' if r.divergent_equal else 'NO'} | {'yes' if r.branches_equal else 'no'} |")
    lines.append("")
    lines += [summary(rows, build) for build in BUILDS if any(r.gpu.build == build for r in rows)]
    return "\n".join(lines)

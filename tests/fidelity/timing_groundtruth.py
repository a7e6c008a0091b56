"""The timing suite's ground truth (tests/data/groundtruth/timing/, recorded by
tests/fidelity/timing/record.sh on an H100) and the timing model's figures for the same
launches, from minicuda's counts of them (minicuda_counts.json; `PYTHONPATH=tests python
tests/fidelity/timing_groundtruth.py --counts` re-derives it, and prints the agreement table)."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

from minicuda.vm.timing_model import gpu_for, model_launch

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "groundtruth" / "timing"
PROGRAMS = ROOT / "tests" / "fidelity" / "timing"
COUNTS = DATA / "minicuda_counts.json"
# program -> the size its launches were recorded at (argv[1])
SIZES = {"sum_matrix": 1024, "transpose_naive": 1024, "transpose_shared": 1024, "strided_copy": 1048576,
         "reduce": 1048576, "matmul_tiled": 128}
# program -> the size minicuda counts them at: the same block shapes and the same work per block
# (every kernel here but matmul does the same per block whatever the size), fewer blocks, as the
# interpreter counts at some 10^4 warp instructions a second; the counts are scaled to the
# recorded grid (`scaled`)
COUNT_SIZES = {"sum_matrix": 128, "transpose_naive": 128, "transpose_shared": 128, "strided_copy": 32768,
               "reduce": 65536, "matmul_tiled": 128}
# the larger sizes recorded too (the book's): the model reads the same counts, scaled to their
# grids; nothing was fitted on them (matmul's work per block grows with its size: not scaled)
BOOK_SIZES = {"sum_matrix": 2048, "transpose_naive": 2048, "transpose_shared": 2048, "strided_copy": 4194304,
              "reduce": 16777216}
# the launches of each program, in order: a name for the agreement table
LAUNCHES = {"sum_matrix": ["sumMatrix 8x8", "sumMatrix 16x16", "sumMatrix 32x32", "sumMatrix 32x16"],
            "transpose_naive": ["transpose write columns", "transpose write rows"],
            "transpose_shared": ["tile transpose unpadded", "tile transpose padded"],
            "strided_copy": ["copy stride 1", "copy stride 8"],
            "reduce": ["reduce neighbored", "reduce interleaved"],
            "matmul_tiled": ["matmul tile 8", "matmul tile 16"]}
# the variant pairs the ordering target compares
PAIRS = [("transpose write columns", "transpose write rows"), ("tile transpose unpadded", "tile transpose padded"),
         ("copy stride 1", "copy stride 8"), ("reduce neighbored", "reduce interleaved"),
         ("matmul tile 8", "matmul tile 16"), ("sumMatrix 8x8", "sumMatrix 16x16"),
         ("sumMatrix 8x8", "sumMatrix 32x32"), ("sumMatrix 16x16", "sumMatrix 32x16")]


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def gpu_launches(program: str, size: int | None = None) -> list[dict]:
    """The recorded launches of a program: ncu's metrics by name, one dict per launch in order."""
    path = DATA / f"{program}.{size or SIZES[program]}.csv"
    rows = list(csv.reader(line for line in path.read_text().splitlines() if line.startswith('"')))
    header, launches = rows[0], {}
    col = {name: header.index(name) for name in ("ID", "Metric Name", "Metric Value", "Grid Size", "Block Size")}
    for r in rows[1:]:
        entry = launches.setdefault(r[col["ID"]], {"grid": r[col["Grid Size"]], "block": r[col["Block Size"]]})
        entry[r[col["Metric Name"]]] = r[col["Metric Value"]]
    return [launches[k] for k in sorted(launches, key=int)]


def launch_counts(record: dict, grid: tuple):
    """A --metrics-json launch record as the object the timing model reads, its counts scaled
    from its grid to `grid` (the same work per block)."""
    scale = (grid[0] * grid[1] * grid[2]) / (record["grid"][0] * record["grid"][1] * record["grid"][2])
    fields = {k: v * scale for k, v in record.items() if isinstance(v, int) and k != "active_blocks_per_sm"}
    return SimpleNamespace(**fields, grid=grid, block=tuple(record["block"]),
                           inst_classes={k: v * scale for k, v in record["inst_classes"].items()},
                           global_footprint=record["global_footprint_sectors"] * scale,
                           occupancy=SimpleNamespace(blocks=record["active_blocks_per_sm"]))


def _dims(text: str) -> tuple:
    return tuple(int(x) for x in text.strip("()").split(","))


def agreement(gpu: str = "h100", sizes: dict | None = None) -> list[dict]:
    """One row per recorded launch: the GPU's duration and achieved occupancy and the model's
    (at `sizes`, BOOK_SIZES, or by default SIZES)."""
    counts = json.loads(COUNTS.read_text())
    rows = []
    for program, size in (sizes or SIZES).items():
        for name, measured, record in zip(LAUNCHES[program], gpu_launches(program, size), counts[program]):
            assert _dims(measured["block"]) == tuple(record["block"]), (program, name)
            timing = model_launch(launch_counts(record, _dims(measured["grid"])), gpu_for(90, gpu))
            waves = _number(measured["launch__waves_per_multiprocessor"])
            rows.append({"kernel": name, "gpu_us": _number(measured["gpu__time_duration.sum"]) / 1e3,
                         "model_us": timing.duration_s * 1e6,
                         "gpu_occupancy": _number(measured["sm__warps_active.avg.pct_of_peak_sustained_active"]),
                         "model_occupancy": timing.achieved_occupancy, "waves": waves,
                         "stalls": timing.stalls, "limiter": timing.limiter})
    return rows


MAIN = "import sys; from minicuda.cli import minicuda_main; sys.exit(minicuda_main(sys.argv[1:]))"


def recount(program: str) -> list[dict]:
    """minicuda's counts of a program's launches at its counting size (the interpreter)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{program}.json"
        subprocess.run([sys.executable, "-c", MAIN, "run", "--arch", "hopper", "--metrics", "timing",
                        "--metrics-json", str(out), str(PROGRAMS / f"{program}.cu"), str(COUNT_SIZES[program])],
                       check=True, capture_output=True)
        return kept(json.loads(out.read_text()))


def kept(records: list[dict]) -> list[dict]:
    """What the model reads of --metrics-json launch records."""
    keep = ("kernel", "grid", "block", "inst_executed", "inst_classes", "global_footprint_sectors",
            "active_blocks_per_sm", "barriers", "alu_chain")
    return [{k: v for k, v in r.items() if k in keep or k.startswith(("global_", "local_", "shared_"))}
            for r in records]


def table(sizes: dict | None = None) -> str:
    """The agreement table of docs/timing.md (markdown)."""
    lines = ["| kernel | GPU us | model us | model / GPU | GPU occupancy | model occupancy | waves | model's limiter, "
             "first stall |", "|---|---|---|---|---|---|---|---|"]
    for r in agreement(sizes=sizes):
        lines.append(f"| {r['kernel']} | {r['gpu_us']:.2f} | {r['model_us']:.2f} | {r['model_us'] / r['gpu_us']:.2f} | "
                     f"{r['gpu_occupancy']:.1f}% | {r['model_occupancy']:.1f}% | {r['waves']:.2f} | "
                     f"{r['limiter']}, {r['stalls'][0][0]} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if "--counts" in sys.argv:
        COUNTS.write_text(json.dumps({p: recount(p) for p in COUNT_SIZES}, indent=1) + "\n")
    print(table())
    print(table(BOOK_SIZES))

"""The timing suite's ground truth (tests/data/groundtruth/timing/, recorded by
tests/fidelity/timing/record.sh on an H100) and the timing model's figures for the same
launches, from minicuda's counts of them (minicuda_counts.json; `PYTHONPATH=tests python
tests/fidelity/timing_groundtruth.py --counts` re-derives it, and prints the agreement table).

`PYTHONPATH=tests python tests/fidelity/timing_groundtruth.py --set heldout2` (or heldout) prints
instead a held-out set's pairs (SET/timing/*.cu, recorded twice in
tests/data/groundtruth/fidelity/SET/timing/): each launch's duration and achieved occupancy on
the GPU beside minicuda's timing model (`minicuda run --arch hopper --metrics`), and for each
pair which kernel is faster."""
from __future__ import annotations

import csv
import json
import re
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


HELDOUT_SETS = ("heldout", "heldout2")
DURATION, OCCUPANCY = "gpu__time_duration.sum", "sm__warps_active.avg.pct_of_peak_sustained_active"


def ncu_sections(path: Path) -> dict[str, dict[str, dict[str, float]]]:
    """program -> kernel -> metric of a record's CSV of `=== PROGRAM` sections (ncu --csv)."""
    sections = {}
    for block in path.read_text().split("=== ")[1:]:
        program, _, body = block.partition("\n")
        rows = [line for line in body.splitlines() if line.startswith('"')]
        kernels = sections.setdefault(program.strip(), {})
        for row in csv.DictReader(rows):
            kernel = re.sub(r"^void |\(.*$", "", row["Kernel Name"])
            kernels.setdefault(kernel, {})[row["Metric Name"]] = _number(row["Metric Value"])
    return sections


def modelled(program: Path) -> dict[str, dict[str, float]]:
    """kernel -> the timing model's duration (ns) and achieved occupancy (%) for an H100, as
    `minicuda run --arch hopper --metrics` prints them."""
    done = subprocess.run([sys.executable, "-c", MAIN, "run", "--arch", "hopper", "--metrics", f"{DURATION},{OCCUPANCY}",
                           str(program)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{program.name}: minicuda exited {done.returncode}: {done.stderr.strip()[-300:]}")
    ours, kernel = {}, None
    for line in done.stdout.splitlines():
        if m := re.match(r"\s+Kernel: (\S+) <<<", line):
            kernel = m.group(1)
        elif (m := re.match(r"\s+(\S+)\s.*?\s([\d.]+)%?$", line)) and m.group(1) in (DURATION, OCCUPANCY):
            ours.setdefault(kernel, {})[m.group(1)] = float(m.group(2))
    return ours


def pairs_table(folder: str) -> str:
    """A held-out set's pairs: the GPU's durations (both recordings) and occupancy beside the
    model's, then per pair the faster kernel on each (markdown)."""
    data = ROOT / "tests" / "data" / "groundtruth" / "fidelity" / folder / "timing"
    first, second = ncu_sections(data / "timing.ncu.csv"), ncu_sections(data / "timing.repeat.ncu.csv")
    lines = ["| program | kernel | GPU us | GPU us (repeat) | model us | model / GPU | GPU occupancy | model occupancy |",
             "|---|---|---|---|---|---|---|---|"]
    orders = []
    for program in sorted(first):
        try:
            ours = modelled(ROOT / "tests" / "fidelity" / folder / "timing" / f"{program}.cu")
        except RuntimeError as error:
            lines.append(f"| {program} | (no run: {error}) | | | | | | |")
            continue
        gpu = first[program]
        for kernel, theirs in gpu.items():
            mine = ours.get(kernel, {})
            model_us = mine.get(DURATION, float("nan")) / 1e3
            lines.append(f"| {program} | {kernel} | {theirs[DURATION] / 1e3:.2f} | {second[program][kernel][DURATION] / 1e3:.2f} "
                         f"| {model_us:.2f} | {model_us / (theirs[DURATION] / 1e3):.2f} | {theirs[OCCUPANCY]:.1f}% "
                         f"| {mine.get(OCCUPANCY, float('nan')):.1f}% |")
        a, b = gpu
        faster = lambda d: a if d[a][DURATION] < d[b][DURATION] else b
        apart = max(gpu[a][DURATION], gpu[b][DURATION]) / min(gpu[a][DURATION], gpu[b][DURATION])
        model = faster(ours) if {a, b} <= set(ours) else "-"
        orders.append(f"- {program}: the GPU's faster {faster(gpu)} ({apart:.2f}x apart), the model's {model}")
    return "\n".join(lines + [""] + orders)


if __name__ == "__main__":
    if "--set" in sys.argv:
        which = sys.argv[sys.argv.index("--set") + 1:][:1]
        if which[0:1] == [] or which[0] not in HELDOUT_SETS:
            sys.exit(f"timing_groundtruth.py: --set takes one of {', '.join(HELDOUT_SETS)}")
        print(pairs_table(which[0]))
        sys.exit(0)
    if "--counts" in sys.argv:
        COUNTS.write_text(json.dumps({p: recount(p) for p in COUNT_SIZES}, indent=1) + "\n")
    print(table())
    print(table(BOOK_SIZES))

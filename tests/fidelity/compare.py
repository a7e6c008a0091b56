"""Prints the fidelity suite's agreement table (markdown): for every kernel and build, the
GPU's branches / divergent branches / warp instructions beside minicuda's.

    python tests/fidelity/compare.py                 # runs minicuda on every kernel, both builds
    python tests/fidelity/compare.py --json-dir DIR  # reads DIR/KERNEL.BUILD.json instead
                                                     # (minicuda run ... --metrics-json written)

minicuda runs with -arch sm_90 (-G for the G build), as nvcc built the GPU's programs."""
import argparse
import contextlib
import io
import json
import pathlib
import statistics
import sys
import tempfile

from minicuda.cli import minicuda_main

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from groundtruth import GpuLaunch, gpu_launches  # noqa: E402  (a script beside its data loader)


def minicuda_metrics(launch: GpuLaunch, json_dir: pathlib.Path | None) -> dict | None:
    """minicuda's metrics for the launch, or None when its run wrote none."""
    if json_dir is None:
        json_dir = pathlib.Path(tempfile.mkdtemp())
        options = ["-G"] if launch.build == "G" else []
        with contextlib.redirect_stdout(io.StringIO()):
            minicuda_main(["run", str(launch.source), "-arch", "sm_90", "-q", *options,
                           "--metrics-json", str(json_dir / f"{launch.kernel}.{launch.build}.json")])
    path = json_dir / f"{launch.kernel}.{launch.build}.json"
    if not path.exists() or not path.read_text().strip():
        return None
    return json.loads(path.read_text())[0]


def table(json_dir: pathlib.Path | None) -> str:
    lines = ["| kernel | build | GPU br | GPU div | GPU winst | minicuda br | minicuda div | minicuda winst | div equal | br equal |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    agree = {"O3": [0, 0, 0], "G": [0, 0, 0]}
    ratios: dict[str, list[float]] = {"O3": [], "G": []}
    for launch in gpu_launches():
        ours = minicuda_metrics(launch, json_dir)
        if ours is None:
            lines.append(f"| {launch.kernel} | {launch.build} | {launch.branches} | {launch.divergent} | "
                         f"{launch.warp_instructions} | - | - | - | no run | no run |")
            continue
        div_ok, br_ok = ours["divergent_branch"] == launch.divergent, ours["branch"] == launch.branches
        counts = agree[launch.build]
        counts[0] += 1
        counts[1] += div_ok
        counts[2] += br_ok
        ratios[launch.build].append(ours["inst_executed"] / launch.warp_instructions)
        lines.append(f"| {launch.kernel} | {launch.build} | {launch.branches} | {launch.divergent} | "
                     f"{launch.warp_instructions} | {ours['branch']} | {ours['divergent_branch']} | "
                     f"{ours['inst_executed']} | {'yes' if div_ok else 'NO'} | {'yes' if br_ok else 'no'} |")
    lines.append("")
    for build, (runs, div_ok, br_ok) in agree.items():
        quartiles = statistics.quantiles(ratios[build], n=4) if len(ratios[build]) > 1 else [float("nan")] * 3
        lines.append(f"-{build}: divergent branches equal on {div_ok} of {runs} launches, branches on {br_ok} of {runs}; "
                     f"warp instructions minicuda/GPU: median {quartiles[1]:.2f} (quartiles {quartiles[0]:.2f}, "
                     f"{quartiles[2]:.2f}; min {min(ratios[build], default=0):.2f}, max {max(ratios[build], default=0):.2f}).")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json-dir", type=pathlib.Path)
    print(table(parser.parse_args().json_dir))

"""Prints the fidelity suite's agreement table (markdown): for every kernel and build, the
GPU's branches / divergent branches / warp instructions beside minicuda's.

    python tests/fidelity/compare.py                 # runs minicuda on every kernel, both builds
    python tests/fidelity/compare.py --json-dir DIR  # reads DIR/KERNEL.BUILD.json instead
                                                     # (minicuda run ... --metrics-json written)

The same table as `minicuda bench --fidelity` (minicuda/bench/fidelity.py), which runs
minicuda with -arch sm_90 (-G for the G build), as nvcc built the GPU's programs."""
import argparse
import pathlib
import sys

from minicuda.bench.fidelity import compare, render

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from groundtruth import gpu_launches  # noqa: E402  (a script beside its data loader)


def table(json_dir: pathlib.Path | None) -> str:
    return render(compare(gpu_launches(), json_dir))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json-dir", type=pathlib.Path)
    print(table(parser.parse_args().json_dir))

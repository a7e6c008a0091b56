"""Prints the fidelity suite's agreement table (markdown): for every kernel and build, the
GPU's branches / divergent branches / warp instructions beside minicuda's.

    python tests/fidelity/compare.py                 # runs minicuda on every kernel, both builds
    python tests/fidelity/compare.py --json-dir DIR  # reads DIR/KERNEL.BUILD.json instead
                                                     # (minicuda run ... --metrics-json written)
    python tests/fidelity/compare.py --set SET       # a set of kernels recorded apart from the
                                                     # suite: SET/branches/ beside this script,
                                                     # its data in ../data/groundtruth/fidelity/SET/
                                                     # (unseen, heldout, heldout2)
    python tests/fidelity/compare.py --unseen        # the same as --set unseen
    python tests/fidelity/compare.py --heldout       # the same as --set heldout
    python tests/fidelity/compare.py --heldout2      # the same as --set heldout2

The same table as `minicuda bench --fidelity` (minicuda/bench/fidelity.py), which runs
minicuda with -arch sm_90 (-G for the G build), as nvcc built the GPU's programs."""
import argparse
import pathlib
import sys

from minicuda.bench.fidelity import compare, render

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from groundtruth import DATA_DIR, FIDELITY_DIR, gpu_launches  # noqa: E402  (a script beside its data loader)
from minicuda.bench.fidelity import gpu_launches as read_launches  # noqa: E402

SETS = ("unseen", "heldout", "heldout2")


def table(json_dir: pathlib.Path | None, folder: str | None = None) -> str:
    """The agreement table of the suite, or of the set `folder` (one of SETS)."""
    launches = (read_launches(DATA_DIR / folder / "fidelity.tsv", FIDELITY_DIR / folder / "branches")
                if folder else gpu_launches())
    return render(compare(launches, json_dir))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json-dir", type=pathlib.Path)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--set", choices=SETS, help="a set's kernels (SET/branches/) instead of the suite")
    for name in SETS:
        which.add_argument(f"--{name}", dest="set", action="store_const", const=name,
                           help=f"the kernels of {name}/branches/ instead of the suite (--set {name})")
    args = parser.parse_args()
    print(table(args.json_dir, args.set))

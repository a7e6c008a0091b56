"""minicuda -G beside the GPU on loopshape.cu: per kernel, ncu's branches and divergent
branches (nvcc -G, sm_90) and minicuda's (`minicuda run -G -arch sm_90 --metrics-json`),
with gcalls/compare.py's functions.

    python tests/data/groundtruth/fidelity/gshape/compare.py

Read by tests/fidelity/test_loop_shape.py, which holds minicuda to the GPU kernel by kernel."""
import importlib.util
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("gcalls_compare", HERE.parent / "gcalls" / "compare.py")
gcalls = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gcalls)


def gpu_counts(build: str = "G") -> dict[str, tuple[int, int, int]]:
    return gcalls.gpu_counts(build, HERE)


if __name__ == "__main__":
    gcalls.main(HERE, "loopshape.cu")

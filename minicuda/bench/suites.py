"""What minicuda bench measures: the samples' kernels, their sizes and the end-to-end targets.

A Suite is one sample's driver (native/SAMPLE_driver.cu): its kernels, in the order
of the driver's mask bits, and its arguments per preset (quick, small, full).  The
driver, the native C program and the OpenCL run of a suite all print one line
`bench KERNEL VALUES...` per kernel they ran; `check_lines` reads them back.
Nothing here runs anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

NATIVE_DIR = Path(__file__).resolve().parent / "native"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent   # holds samples/ in a source checkout
ENGINES = ("interp", "jit")

TARGET_WALL_S = 60.0          # an end-to-end run, whole process
TARGET_THREAD_RATE = 3e8      # geometric mean of thread inst/s over a run's launches
TARGET_RSS_RATIO = 2.0        # (peak RSS - RSS after import and compile) / peak live allocations


@dataclass(frozen=True)
class Suite:
    """A sample, its driver's kernels (in the order of the driver's mask bits) and its sizes.

    `sizes` maps a preset (quick, small, full) to the driver's arguments before the
    mask; `warmup` maps arguments to the smallest run with the same block shape."""
    sample: str
    kernels: tuple[str, ...]
    sizes: dict[str, tuple[str, ...]]
    warmup: Callable[..., tuple[str, ...]]

    def mask(self, kernels) -> str:
        return str(sum(1 << i for i, k in enumerate(self.kernels) if k in kernels))


SUITES = (
    Suite("reduceInteger",
          ("reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved", "reduceUnrolling2", "reduceUnrolling4",
           "reduceUnrolling8", "reduceUnrollWarps8", "reduceCompleteUnrollWarps8", "reduceCompleteUnroll"),
          {"quick": ("64", "512"), "small": ("512", "8192"), "full": ("512", str(1 << 24))},
          lambda blocksize, size: (blocksize, str(8 * int(blocksize)))),
    Suite("sumMatrix", ("sumMatrixOnGPU2D",),
          {"quick": ("32", "32", "16", "16"), "small": ("128", "128", "32", "32"),
           "full": (str(1 << 14), str(1 << 14), "32", "32")},
          lambda nx, ny, dimx, dimy: (dimx, dimy, dimx, dimy)),
    Suite("simpleDivergence", ("warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"),
          {"quick": ("64", "64"), "small": ("64", "4096"), "full": ("64", str(1 << 22))},
          lambda blocksize, size: (blocksize, blocksize)),
    Suite("vectorAdd", ("vectorAdd",),
          {"quick": ("512",), "small": ("50000",), "full": (str(1 << 24),)},
          lambda n: ("256",)),
)

# kernel -> (sample, {preset: driver arguments}) for Numba's CUDA simulator (a Python thread per CUDA thread)
NUMBA_KERNELS = {
    "sumMatrixOnGPU2D": ("sumMatrix", {"quick": ("16", "16", "8", "8"), "small": ("128", "128", "32", "32")}),
    "reduceNeighbored": ("reduceInteger", {"quick": ("64", "128"), "small": ("64", "2048")}),
}


@dataclass(frozen=True)
class Target:
    """An end-to-end run of a whole sample with the JIT; `expect`/`reject`: output that says it worked or not."""
    sample: str
    args: tuple[str, ...]
    expect: str | None = None
    reject: str | None = None


TARGETS = (
    Target("reduceInteger", ("512", str(1 << 24)), reject="Test failed"),
    Target("sumMatrix", (str(1 << 14), str(1 << 14)), expect="Arrays match."),
)


def suite_of(sample: str) -> Suite:
    return next(s for s in SUITES if s.sample == sample)


def selected(suite: Suite, only: list[str]) -> list[str]:
    """The suite's kernels that --only names (by kernel or by sample); all when --only is not given."""
    if not only or suite.sample in only:
        return list(suite.kernels)
    return [k for k in suite.kernels if k in only]


def check_lines(text: str) -> dict[str, list[str]]:
    """The 'bench KERNEL VALUES...' lines of a driver's or baseline's output, by kernel."""
    return {parts[1]: parts[2:] for parts in (line.split() for line in text.splitlines()) if parts[:1] == ["bench"]}

"""The PoCL baseline: a suite's kernels in OpenCL C (native/SAMPLE.cl) on a CPU device through pyopencl.

`cl_launch` restates each driver's launch for OpenCL: its grid and block, its input
filled the way the drivers fill it, and how to read the two check values from the
output buffer.  The time is the kernel's alone (profiling events), the mean of runs
lasting min_seconds after a warm-up.  pyopencl is optional: OpenCL() imports it, and
its absence, like a machine without a CPU device, is a note of the report.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from minicuda.bench.results import Baseline, Unavailable
from minicuda.bench.suites import NATIVE_DIR, Suite


@dataclass
class CLLaunch:
    """A kernel's OpenCL launch: buffers (copied in before every run), scalars after them,
    and the check values from the buffer `output` after the run."""
    grid: tuple[int, int]
    block: tuple[int, int]
    arrays: list[np.ndarray]
    scalars: list
    output: int
    check: Callable[[np.ndarray], list[str]]


def fill_int(n: int) -> np.ndarray:
    """The drivers' integer input: (i * 37 + 11) & 0xFF."""
    i = np.arange(n, dtype=np.uint32)
    return ((i * np.uint32(37) + np.uint32(11)) & np.uint32(0xFF)).astype(np.int32)


def fill_float(n: int, mul: int, add: int) -> np.ndarray:
    """The drivers' float input: ((i * mul + add) & 0xFF) / 10."""
    i = np.arange(n, dtype=np.uint32)
    return ((i * np.uint32(mul) + np.uint32(add)) & np.uint32(0xFF)).astype(np.float32) / np.float32(10.0)


def three_places(x) -> str:
    """A float check value as the drivers print it (%.3f)."""
    return f"{float(x):.3f}"


def cl_launch(suite: Suite, kernel: str, args: list[str]) -> CLLaunch:
    """The OpenCL version of the driver's launch of `kernel` at `args`."""
    a = [int(x) for x in args]
    if suite.sample == "reduceInteger":
        blocksize, size = a
        fold = (1, 1, 1, 2, 4, 8, 8, 8, 8)[suite.kernels.index(kernel)]
        grid = -(-size // blocksize) // fold
        return CLLaunch((grid, 1), (blocksize, 1), [fill_int(size), np.zeros(grid, np.int32)], [np.uint32(size)], 1,
                        lambda out: [str(out[0]), str(out[grid - 1])])
    if suite.sample == "sumMatrix":
        nx, ny, dimx, dimy = a
        inputs = [fill_float(nx * ny, 37, 11), fill_float(nx * ny, 53, 7), np.zeros(nx * ny, np.float32)]
        return CLLaunch((-(-nx // dimx), -(-ny // dimy)), (dimx, dimy), inputs, [np.int32(nx), np.int32(ny)], 2,
                        lambda out: [three_places(out[0]), three_places(out[-1])])
    if suite.sample == "vectorAdd":
        (n,) = a
        inputs = [fill_float(n, 37, 11), fill_float(n, 53, 7), np.zeros(n, np.float32)]
        return CLLaunch((-(-n // 256), 1), (256, 1), inputs, [np.int32(n)], 2,
                        lambda out: [three_places(out[0]), three_places(out[n - 1])])
    blocksize, size = a   # simpleDivergence
    grid = -(-size // blocksize)
    return CLLaunch((grid, 1), (blocksize, 1), [np.zeros(grid * blocksize, np.float32)], [], 0,
                    lambda out: [three_places(out[0] + out[1]), three_places(out[size - 2] + out[size - 1])])


class OpenCL:
    """A PoCL (or other) CPU device through pyopencl, with a profiling queue."""

    def __init__(self):
        try:
            import pyopencl as cl
        except ImportError as e:
            raise Unavailable(f"pocl: pyopencl is not importable ({e}); "
                              "pip install pyopencl pocl-binary-distribution") from None
        try:
            devices = [d for p in cl.get_platforms() for d in p.get_devices(device_type=cl.device_type.CPU)]
        except cl.Error as e:
            raise Unavailable(f"pocl: no OpenCL platform ({e})") from None
        if not devices:
            raise Unavailable("pocl: OpenCL finds no CPU device")
        self.cl, self.device = cl, devices[0]
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context, properties=cl.command_queue_properties.PROFILING_ENABLE)
        self.description = (f"{self.device.platform.version}, device {self.device.name.strip()}, "
                            f"{self.device.max_compute_units} compute units")

    def build(self, suite: Suite, args: list[str]):
        options = [f"-DBLOCK_SIZE={args[0]}"] if suite.sample == "reduceInteger" else []
        source = (NATIVE_DIR / f"{suite.sample}.cl").read_text()
        try:
            return self.cl.Program(self.context, source).build(options=options)
        except self.cl.Error as e:
            raise Unavailable(f"pocl: {suite.sample}.cl does not build: {str(e)[:300]}") from None

    def time(self, program, kernel: str, launch: CLLaunch, args: list[str], min_seconds: float) -> Baseline:
        """Mean kernel time (profiling events) over runs lasting min_seconds (at least three), after a warm-up."""
        cl = self.cl
        buffers = [cl.Buffer(self.context, cl.mem_flags.READ_WRITE, a.nbytes) for a in launch.arrays]
        k = cl.Kernel(program, kernel)
        k.set_args(*buffers, *launch.scalars)
        gsize = (launch.grid[0] * launch.block[0], launch.grid[1] * launch.block[1])

        def once() -> float:
            for buffer, array in zip(buffers, launch.arrays):
                cl.enqueue_copy(self.queue, buffer, array)
            event = cl.enqueue_nd_range_kernel(self.queue, k, gsize, launch.block)
            event.wait()
            return (event.profile.end - event.profile.start) * 1e-9

        once()
        times = []
        while len(times) < 3 or sum(times) < min_seconds:
            times.append(once())
        out = np.empty_like(launch.arrays[launch.output])
        cl.enqueue_copy(self.queue, out, buffers[launch.output])
        self.queue.finish()
        return Baseline(list(args), sum(times) / len(times), len(times), launch.check(out))

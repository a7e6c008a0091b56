"""Two of the samples' kernels on Numba's CUDA simulator, for `minicuda bench`.

Run as a script with NUMBA_ENABLE_CUDASIM=1 in the environment (the simulator is
chosen when numba is imported): `python numba_sim.py KERNEL ARGS...` with the
arguments of the kernel's minicuda driver (sumMatrixOnGPU2D: nx ny dimx dimy;
reduceNeighbored: blocksize size).  It runs the kernel once on the driver's input
and prints one JSON object: kernel, grid, block, threads, seconds (the launch
alone) and the driver's check values.  `--version` prints numba's version.
"""
import json
import sys
import time

import numpy as np
from numba import cuda


@cuda.jit
def sumMatrixOnGPU2D(MatA, MatB, MatC, nx, ny):
    ix = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    iy = cuda.threadIdx.y + cuda.blockIdx.y * cuda.blockDim.y
    idx = iy * nx + ix
    if ix < nx and iy < ny:
        MatC[idx] = MatA[idx] + MatB[idx]


@cuda.jit
def reduceNeighbored(g_idata, g_odata, n):
    tid = cuda.threadIdx.x
    idx = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    stride = 1
    while stride < cuda.blockDim.x:
        # every thread reaches the barrier: the simulator, like OpenCL, needs the whole block there
        if idx < n and tid % (2 * stride) == 0:
            g_idata[base + tid] += g_idata[base + tid + stride]
        cuda.syncthreads()
        stride *= 2
    if idx < n and tid == 0:
        g_odata[cuda.blockIdx.x] = g_idata[base]


def fill_float(n: int, mul: int, add: int) -> np.ndarray:
    i = np.arange(n, dtype=np.uint32)
    return ((i * np.uint32(mul) + np.uint32(add)) & np.uint32(0xFF)).astype(np.float32) / np.float32(10.0)


def run_sum_matrix(nx: int, ny: int, dimx: int, dimy: int) -> dict:
    a, b = fill_float(nx * ny, 37, 11), fill_float(nx * ny, 53, 7)
    c = np.zeros_like(a)
    grid, block = ((nx + dimx - 1) // dimx, (ny + dimy - 1) // dimy), (dimx, dimy)
    start = time.perf_counter()
    sumMatrixOnGPU2D[grid, block](a, b, c, nx, ny)
    seconds = time.perf_counter() - start
    return {"grid": list(grid), "block": list(block), "seconds": seconds, "check": [f"{c[0]:.3f}", f"{c[-1]:.3f}"]}


def run_reduce_neighbored(blocksize: int, size: int) -> dict:
    i = np.arange(size, dtype=np.uint32)
    data = ((i * np.uint32(37) + np.uint32(11)) & np.uint32(0xFF)).astype(np.int32)
    grid = (size + blocksize - 1) // blocksize
    out = np.zeros(grid, np.int32)
    start = time.perf_counter()
    reduceNeighbored[grid, blocksize](data, out, size)
    seconds = time.perf_counter() - start
    return {"grid": [grid, 1], "block": [blocksize, 1], "seconds": seconds, "check": [str(out[0]), str(out[-1])]}


RUNNERS = {"sumMatrixOnGPU2D": run_sum_matrix, "reduceNeighbored": run_reduce_neighbored}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--version"]:
        import numba
        print(numba.__version__)
        return 0
    kernel, args = argv[0], [int(a) for a in argv[1:]]
    result = {"kernel": kernel, **RUNNERS[kernel](*args)}
    result["threads"] = int(np.prod(result["grid"]) * np.prod(result["block"]))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

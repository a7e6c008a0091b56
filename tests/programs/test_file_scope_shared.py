"""File-scope `__shared__` variables: an `extern __shared__` array declared outside
every function is the dynamic shared memory of each kernel (and device function)
that uses it, as one declared inside the kernel is; arrays of different types all
start at offset 0 of that memory, as in CUDA; a sized file-scope `__shared__`
variable is one per block."""
import pytest

from minicuda.cli import minicuda_main

REVERSE = """#include <stdio.h>
extern __shared__ float s[];
__global__ void k(float *o) { s[threadIdx.x] = threadIdx.x; __syncthreads(); o[threadIdx.x] = s[31 - threadIdx.x]; }
int main() { float *d; cudaMalloc(&d, 128); k<<<1, 32, 128>>>(d); float h[32];
  cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);
  printf("%f %s\\n", h[0], cudaGetErrorString(cudaGetLastError())); }
"""

SEVERAL_KERNELS = """#include <stdio.h>
extern __shared__ float s[];
extern __shared__ int bits[];
__device__ float mirrored(int i) { return s[31 - i]; }
__global__ void twice(float *o) { s[threadIdx.x] = threadIdx.x * 2.0f; __syncthreads(); o[threadIdx.x] = mirrored(threadIdx.x); }
__global__ void pun(int *o) { s[threadIdx.x] = 1.0f; __syncthreads(); o[threadIdx.x] = bits[threadIdx.x]; }
int main() {
  float *d; int *e; cudaMalloc(&d, 128); cudaMalloc(&e, 128);
  twice<<<2, 32, 128>>>(d); pun<<<1, 32, 32 * sizeof(float)>>>(e);
  float h[32]; int b[32];
  cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost); cudaMemcpy(b, e, 128, cudaMemcpyDeviceToHost);
  printf("%g %g %x %s\\n", h[0], h[31], b[5], cudaGetErrorString(cudaGetLastError())); }
"""

SIZED = """#include <stdio.h>
__shared__ int tile[32];
__global__ void k(int *o) { tile[threadIdx.x] = blockIdx.x * 100 + threadIdx.x; __syncthreads(); o[blockIdx.x * 32 + threadIdx.x] = tile[31 - threadIdx.x]; }
int main() { int *d; cudaMalloc(&d, 256); k<<<2, 32>>>(d); int h[64];
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost); printf("%d %d %s\\n", h[0], h[63], cudaGetErrorString(cudaGetLastError())); }
"""

CASES = [(REVERSE, "31.000000 no error\n"), (SEVERAL_KERNELS, "62 0 3f800000 no error\n"), (SIZED, "31 100 no error\n")]


@pytest.mark.parametrize("engine", ["jit", "interp"])
@pytest.mark.parametrize("arch", ["volta", "pascal"])
@pytest.mark.parametrize("source, expected", CASES, ids=["extern", "several-kernels-two-types", "sized"])
def test_file_scope_shared_memory_is_each_blocks(tmp_path, capsys, source, expected, engine, arch):
    path = tmp_path / "p.cu"
    path.write_text(source)
    assert minicuda_main(["run", str(path), "--engine", engine, "--arch", arch]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == expected

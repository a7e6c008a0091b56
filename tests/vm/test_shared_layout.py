"""A block's shared memory under both engines: static `__shared__` arrays, the launch's
dynamic (`extern __shared__`) array of several types, declared in a kernel or at file
scope, and kernels whose code differs only in which shared array they name (the JIT
compiles their text once).  As on a GPU, the dynamic array starts after the kernel's
static ones, 16-byte aligned, and holds a double or a float pair at its natural alignment."""
import io

import pytest

import minicuda
from minicuda.vm.machine import Machine

ENGINES = ["interp", "jit"]

# staticA, dynamicC and staticB compile to the same text: only the array they name differs
SAME_CODE = r"""
#include <cstdio>
__global__ void staticA(int *out, int k)
{
    __shared__ int a[32];
    a[threadIdx.x] = threadIdx.x * k;
    __syncthreads();
    out[threadIdx.x] = a[31 - threadIdx.x];
}
__global__ void dynamicC(int *out, int k)
{
    extern __shared__ int c[];
    c[threadIdx.x] = threadIdx.x * k;
    __syncthreads();
    out[threadIdx.x] = c[31 - threadIdx.x];
}
__global__ void staticB(int *out, int k)
{
    __shared__ int b[32];
    b[threadIdx.x] = threadIdx.x * k;
    __syncthreads();
    out[threadIdx.x] = b[31 - threadIdx.x];
}
int main(void)
{
    int *d, h[32];
    cudaMalloc(&d, sizeof(h));
    staticA<<<1, 32>>>(d, 3);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("staticA %d %d\n", h[0], h[31]);
    dynamicC<<<1, 32, 32 * sizeof(int)>>>(d, 5);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("dynamicC %d %d\n", h[0], h[31]);
    staticB<<<1, 32>>>(d, 7);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("staticB %d %d\n", h[0], h[31]);
    return 0;
}
"""

# one file-scope dynamic array, a double array in one kernel and float pairs after a
# static char array in the other; a device function that is not inlined (it recurses)
# writes it from both
FILE_SCOPE = r"""
#include <cstdio>
struct F2 { float x; float y; };
extern __shared__ double dd[];

__device__ int put(int t, double v, int depth)
{
    if (depth > 0) return put(t, v, depth - 1) + 1;
    dd[t] = v;
    return 0;
}

__global__ void doubles(double *out)
{
    int t = threadIdx.x;
    put(t, t * 0.25, 2);
    __syncthreads();
    out[t] = dd[31 - t];
}

__global__ void pairsAfterStatic(double *out)
{
    __shared__ char pad[3];
    __shared__ double scale[2];
    F2 *f2 = (F2 *)dd;
    int t = threadIdx.x;
    if (t < 3) pad[t] = t + 1;
    if (t < 2) scale[t] = 10.0 * (t + 1);
    f2[t].x = t;
    f2[t].y = 0.5f;
    __syncthreads();
    out[t] = f2[31 - t].x + f2[t].y + pad[t % 3] + scale[t % 2];
    if (t == 0)
        printf("after static: %d %d, aligned: %d\n", (char *)dd >= pad + sizeof(pad),
               (char *)dd >= (char *)scale + sizeof(scale), (int)((size_t)dd % 16));
}

__global__ void recursesOnly(double *out)
{
    int t = threadIdx.x;
    put(t, -t, 1);
    __syncthreads();
    out[t] = dd[t];
}

int main(void)
{
    double *d, h[32];
    cudaMalloc(&d, sizeof(h));
    for (int round = 0; round < 2; round++) {
        doubles<<<1, 32, 32 * sizeof(double)>>>(d);
        cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
        printf("doubles %g %g\n", h[0], h[31]);
        pairsAfterStatic<<<1, 32, 32 * sizeof(F2)>>>(d);
        cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
        printf("pairs %g %g %g\n", h[0], h[1], h[31]);
        recursesOnly<<<1, 32, 32 * sizeof(double)>>>(d);
        cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
        printf("recurses %g %g\n", h[0], h[31]);
    }
    return 0;
}
"""


def run(source: str, engine: str, opt: int) -> tuple[int, str, str]:
    """The exit status, stdout and stderr (where a failed launch is reported)."""
    out, err = io.BytesIO(), io.BytesIO()
    machine = Machine(minicuda.compile(source, opt=opt), engine=engine, stdout=out, stderr=err)
    return machine.run(["prog"]), out.getvalue().decode(), err.getvalue().decode()


@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("engine", ENGINES)
def test_kernels_of_the_same_code_read_their_own_shared_array(engine, opt):
    assert run(SAME_CODE, engine, opt) == (0, "staticA 93 0\ndynamicC 155 0\nstaticB 217 0\n", "")


@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("engine", ENGINES)
def test_a_file_scope_dynamic_array_starts_after_each_kernels_static_ones(engine, opt):
    # pairs: t=0 reads x 31, y 0.5, pad[0] 1, scale[0] 10; t=1: 30 + 0.5 + 2 + 20; t=31: 0 + 0.5 + 2 + 20
    expected = "doubles 7.75 0\nafter static: 1 1, aligned: 0\npairs 42.5 52.5 22.5\nrecurses 0 -31\n"
    assert run(FILE_SCOPE, engine, opt) == (0, expected * 2, "")


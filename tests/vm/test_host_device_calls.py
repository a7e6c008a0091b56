"""A __host__ __device__ function is host code when the host calls it and device code
when a kernel does: every thread of the warp runs it, and a division by zero in it
gives the GPU's value in a kernel and SIGFPE on the host."""
import io

import pytest

import minicuda
from minicuda.vm.errors import VMError
from minicuda.vm.machine import Machine

SOURCE = r"""
#include <cstdio>
__host__ __device__ unsigned mix(unsigned a, unsigned d) { unsigned b = a + 1, c = a * 7; return (a ^ b ^ c) + 100 / d; }
__global__ void k(unsigned *out, unsigned d) { out[threadIdx.x] = mix(threadIdx.x, d); }
int main(int argc, char **argv)
{
    unsigned *out, h[32];
    cudaMalloc(&out, sizeof(h));
    k<<<1, 32>>>(out, argc - 1);
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%u %u %u\n", h[3], h[31], h[17]);
    printf("%u\n", mix(3, argc - 1));
    return 0;
}
"""


def mix(a: int, d: int) -> int:
    return ((a ^ (a + 1) ^ (a * 7)) + (100 // d if d else 0xFFFFFFFF)) & 0xFFFFFFFF


@pytest.mark.parametrize("opt", [0, 3])
@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_every_thread_of_a_kernel_runs_a_host_device_function(engine, opt):
    out = io.BytesIO()
    machine = Machine(minicuda.compile(SOURCE, opt=opt), engine=engine, stdout=out)
    assert machine.run(["prog", "x"]) == 0
    assert out.getvalue().decode() == f"{mix(3, 1)} {mix(31, 1)} {mix(17, 1)}\n{mix(3, 1)}\n"


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_zero_divisor_gives_the_gpu_value_in_the_kernel_and_sigfpe_on_the_host(engine):
    out = io.BytesIO()
    machine = Machine(minicuda.compile(SOURCE), engine=engine, stdout=out)
    with pytest.raises(VMError) as e:
        machine.run(["prog"])
    assert e.value.kind == "sigfpe"
    assert out.getvalue().decode() == f"{mix(3, 0)} {mix(31, 0)} {mix(17, 0)}\n"

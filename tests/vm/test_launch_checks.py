"""CUDA's launch checks (vm/launch_checks.py): a launch CUDA refuses runs nothing, its
error is the last error once (not sticky: the next cudaGetLastError and
cudaDeviceSynchronize are cudaSuccess) and the program goes on; a valid launch of
billions of blocks starts at once.

The expected lines are what CUDA 13 printed on an H100: the lead's probe
(tests/data/groundtruth/issue12/launch.cu, out/launch.txt) for the dimensions, dynamic
shared memory and __launch_bounds__, and tests/data/groundtruth/launch/ (README.md) for
registers, cudaFuncSetAttribute's edge cases and static shared memory in device functions.
"""
from __future__ import annotations

import io

import pytest

import minicuda
from minicuda.diagnostics import CompileError
from minicuda.ir import format_module, parse_module
from minicuda.vm.errors import VMError
from minicuda.vm.machine import Machine

REPORT = r"""
#include <stdio.h>
#define REPORT(name) do { cudaError_t e = cudaGetLastError(); cudaError_t e2 = cudaGetLastError(); \
  cudaError_t s = cudaDeviceSynchronize(); printf("%-14s %s \"%s\" | again %s | sync %s\n", name, \
  cudaGetErrorName(e), cudaGetErrorString(e), cudaGetErrorName(e2), cudaGetErrorName(s)); } while (0)
"""


def run(src: str, arch: str = "hopper", engine: str = "interp", max_steps: int | None = None) -> str:
    out = io.BytesIO()
    machine = Machine(minicuda.compile(REPORT + src, arch=arch), engine=engine, stdout=out, stderr=io.BytesIO(),
                      max_steps=max_steps)
    assert machine.run(["prog"]) == 0
    return out.getvalue().decode()


def refused(name: str) -> str:
    return f'{name:<14} cudaErrorInvalidValue "invalid argument" | again cudaSuccess | sync cudaSuccess'


def accepted(name: str) -> str:
    return f'{name:<14} cudaSuccess "no error" | again cudaSuccess | sync cudaSuccess'


DIMENSIONS = [   # (name, grid, block, accepted on the H100)
    ("grid -1", "-1", "32", False),
    ("grid 2^31", "2147483648u", "1", False),
    ("grid y 70000", "dim3(1, 70000)", "1", False),
    ("grid z 65536", "dim3(1, 1, 65536)", "1", False),
    ("grid 0", "0", "32", False),
    ("block 0", "1", "0", False),
    ("block z 128", "1", "dim3(1, 1, 128)", False),
    ("block z 64", "1", "dim3(1, 1, 64)", True),
    ("block 1025", "1", "1025", False),
    ("block 32x64", "1", "dim3(32, 64)", False),
    ("block x 2048", "1", "dim3(2048, 1)", False),
    ("block -1", "1", "-1", False),
    ("grid y 65535", "dim3(1, 65535)", "1", True),
    ("block 1024", "1", "dim3(8, 4, 32)", True),
]


def test_launch_dimensions_as_cuda_checks_them():
    launches = "".join(f'    k<<<{grid}, {block}>>>(n); REPORT("{name}");\n' for name, grid, block, _ in DIMENSIONS)
    src = ("__global__ void k(int *n) { atomicAdd(n, 1); }\n"
           "int main() {\n    int *n, h;\n    cudaMalloc(&n, 4);\n    cudaMemset(n, 0, 4);\n" + launches +
           '    cudaMemcpy(&h, n, 4, cudaMemcpyDeviceToHost);\n    printf("threads %d\\n", h);\n}\n')
    expected = [accepted(name) if ok else refused(name) for name, _, _, ok in DIMENSIONS]
    assert run(src, engine="jit").splitlines() == expected + [f"threads {64 + 65535 + 1024}"]


def test_a_refused_launch_is_the_last_error_until_read_and_peek_keeps_it():
    src = r"""
__global__ void k(int *p) { p[0] = 7; }
int main() {
    int *d, h = 0;
    cudaMalloc(&d, 4);
    k<<<1, 2048>>>(d);
    cudaMalloc(&d, 4);   // a call that succeeds leaves the last error as it is
    printf("%s %s\n", cudaGetErrorName(cudaPeekAtLastError()), cudaGetErrorName(cudaPeekAtLastError()));
    printf("%s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaGetLastError()));
    k<<<1, 1>>>(d);
    cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
    printf("%d %s\n", h, cudaGetErrorName(cudaGetLastError()));
}
"""
    assert run(src) == ("cudaErrorInvalidValue cudaErrorInvalidValue\ncudaErrorInvalidValue cudaSuccess\n"
                        "7 cudaSuccess\n")


@pytest.mark.parametrize("arch, grid_x", [("fermi", 65535), ("kepler", 2147483647), ("hopper", 2147483647)])
def test_the_largest_grid_is_the_architectures(arch, grid_x):
    src = r"""
__global__ void k(int *p) { }
int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("%d %d %d\n", prop.maxGridSize[0], prop.maxGridSize[1], prop.maxGridSize[2]);
    k<<<65536, 1>>>(0);
    printf("%s\n", cudaGetErrorName(cudaGetLastError()));
}
"""
    over = "cudaErrorInvalidValue" if grid_x < 65536 else "cudaSuccess"
    assert run(src, arch=arch, engine="jit") == f"{grid_x} 65535 65535\n{over}\n"


@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("grid", ["2147483647", "dim3(65535, 65535)"])
def test_a_launch_of_billions_of_blocks_starts_at_once(engine, grid):
    """Nothing per block before the first one runs: a small budget stops it in a few blocks."""
    src = "__global__ void k(int *p) { if (blockIdx.x == 0) p[0] = 1; }\n" \
          f"int main() {{ int *d; cudaMalloc(&d, 4); k<<<{grid}, 1>>>(d); cudaDeviceSynchronize(); }}\n"
    with pytest.raises(VMError, match="instruction budget exhausted after 2000 warp instructions"):
        run(src, engine=engine, max_steps=2000)


DYNAMIC = r"""
__global__ void kd(float *p) { extern __shared__ float dyn[]; dyn[threadIdx.x] = 1; p[0] = dyn[0]; }
__global__ void ks(float *p) { extern __shared__ float dyn[]; __shared__ float st[10240]; st[threadIdx.x] = 1;
                               dyn[threadIdx.x] = 2; p[0] = st[0] + dyn[0]; }
int main() {
    float *d; cudaMalloc(&d, 4096);
    kd<<<1, 32, 128>>>(d); REPORT("dyn 128");
    kd<<<1, 32, 49152>>>(d); REPORT("dyn 48K");
    kd<<<1, 32, 49153>>>(d); REPORT("dyn 48K+1");
    kd<<<1, 32, 1 << 20>>>(d); REPORT("dyn 1M");
    ks<<<1, 32, 8192>>>(d); REPORT("st40K+dyn8K");
    ks<<<1, 32, 12288>>>(d); REPORT("st40K+dyn12K");
    cudaError_t a = cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    printf("setattr 100K  %s\n", cudaGetErrorName(a));
    kd<<<1, 32, 100 * 1024>>>(d); REPORT("dyn 100K opt");
    kd<<<1, 32, 101 * 1024>>>(d); REPORT("dyn 101K opt");
    a = cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
    printf("setattr 227K  %s\n", cudaGetErrorName(a));
    a = cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1);
    printf("setattr 227K+1 %s %s\n", cudaGetErrorName(a), cudaGetErrorName(cudaGetLastError()));
    a = cudaFuncSetAttribute(ks, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
    printf("setattr ks 200K %s %s\n", cudaGetErrorName(a), cudaGetErrorName(cudaGetLastError()));
    kd<<<1, 32, 228 * 1024>>>(d); REPORT("dyn 228K");
}
"""


def test_dynamic_shared_memory_and_its_opt_in_on_hopper():
    assert run(DYNAMIC).splitlines() == [
        accepted("dyn 128"), accepted("dyn 48K"), refused("dyn 48K+1"), refused("dyn 1M"),
        accepted("st40K+dyn8K"), refused("st40K+dyn12K"),
        "setattr 100K  cudaSuccess", accepted("dyn 100K opt"), refused("dyn 101K opt"),
        "setattr 227K  cudaSuccess", "setattr 227K+1 cudaErrorInvalidValue cudaErrorInvalidValue",
        "setattr ks 200K cudaErrorInvalidValue cudaErrorInvalidValue", refused("dyn 228K")]


@pytest.mark.parametrize("arch, optin", [("pascal", 48 << 10), ("volta", 96 << 10), ("ampere", 163 << 10),
                                         ("hopper", 227 << 10)])
def test_the_opt_in_maximum_is_the_architectures(arch, optin):
    src = r"""
__global__ void kd(float *p) { extern __shared__ float dyn[]; dyn[threadIdx.x] = 1; p[0] = dyn[0]; }
int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("%zu ", prop.sharedMemPerBlockOptin);
    printf("%s ", cudaGetErrorName(cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, OPTIN)));
    printf("%s\n", cudaGetErrorName(cudaFuncSetAttribute(kd, cudaFuncAttributeMaxDynamicSharedMemorySize, OPTIN + 1)));
}
""".replace("OPTIN", str(optin))
    assert run(src, arch=arch) == f"{optin} cudaSuccess cudaErrorInvalidValue\n"


def test_cuda_func_set_attribute_edge_cases():
    """A maximum of 0 refuses any dynamic shared memory; the carveout is -1..100; NULL is
    no function and any other pointer no kernel handle (tests/data/groundtruth/launch)."""
    src = r"""
__global__ void kd(float *p) { extern __shared__ float dyn[]; if (p) p[0] = 1; }
void R(const char *w, int r) {
    cudaError_t l = cudaGetLastError();
    printf("%s ret=%s last=%s sync=%s\n", w, cudaGetErrorName(r), cudaGetErrorName(l), cudaGetErrorName(cudaDeviceSynchronize()));
}
#define S(w, f, a, v) R(w, cudaFuncSetAttribute((const void *)f, a, v))
int main() {
    float *d; cudaMalloc(&d, 16);
    S("set 0", kd, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    kd<<<1, 32, 1>>>(d); R("kd 1 after 0", cudaSuccess);
    kd<<<1, 32, 0>>>(d); R("kd 0 after 0", cudaSuccess);
    S("set -1", kd, cudaFuncAttributeMaxDynamicSharedMemorySize, -1);
    S("carve 50", kd, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
    S("carve 101", kd, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
    S("carve -1", kd, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    S("carve -2", kd, cudaFuncAttributePreferredSharedMemoryCarveout, -2);
    S("attr 99", kd, (cudaFuncAttribute)99, 1);
    S("device ptr", d, cudaFuncAttributeMaxDynamicSharedMemorySize, 1000);
    S("NULL", 0, cudaFuncAttributeMaxDynamicSharedMemorySize, 1000);
    printf("%s\n", cudaGetErrorString(cudaErrorInvalidResourceHandle));
}
"""
    ok, bad = "ret=cudaSuccess last=cudaSuccess", "ret=cudaErrorInvalidValue last=cudaErrorInvalidValue"
    assert run(src).splitlines() == [
        f"set 0 {ok} sync=cudaSuccess",
        "kd 1 after 0 ret=cudaSuccess last=cudaErrorInvalidValue sync=cudaSuccess",
        f"kd 0 after 0 {ok} sync=cudaSuccess",
        f"set -1 {bad} sync=cudaSuccess", f"carve 50 {ok} sync=cudaSuccess", f"carve 101 {bad} sync=cudaSuccess",
        f"carve -1 {ok} sync=cudaSuccess", f"carve -2 {bad} sync=cudaSuccess", f"attr 99 {bad} sync=cudaSuccess",
        "device ptr ret=cudaErrorInvalidResourceHandle last=cudaErrorInvalidResourceHandle sync=cudaSuccess",
        "NULL ret=cudaErrorInvalidDeviceFunction last=cudaErrorInvalidDeviceFunction sync=cudaSuccess",
        "invalid resource handle"]


def test_launch_bounds():
    src = r"""
template <int N> __global__ void __launch_bounds__(N) kt(int *p) { if (p) p[0] = N; }
__global__ void __launch_bounds__(64) kb(int *p) { if (p) p[0] = 1; }
__global__ void __launch_bounds__(128, 4) kb2(int *p) { if (p) p[0] = 1; }
int main() {
    kb<<<1, 64>>>(0); REPORT("lb64 64");
    kb<<<1, 256>>>(0); REPORT("lb64 256");
    kb2<<<1, 129>>>(0); REPORT("lb128 129");
    kb<<<-1, 65>>>(0); REPORT("lb64 grid -1");
    kt<32><<<1, 32>>>(0); REPORT("lb<32> 32");
    kt<32><<<1, 33>>>(0); REPORT("lb<32> 33");
}
"""
    assert run(src).splitlines() == [accepted("lb64 64"), refused("lb64 256"), refused("lb128 129"),
                                     refused("lb64 grid -1"), accepted("lb<32> 32"), refused("lb<32> 33")]


def test_launch_bounds_survive_a_sass_round_trip():
    program = minicuda.compile("__global__ void __launch_bounds__(256, 2) k(int *p) { p[0] = 1; }\n"
                               "__global__ void __launch_bounds__(96) k1(int *p) { p[0] = 1; }\n")
    module = parse_module(format_module(program.module))
    assert module.functions["k"].launch_bounds == (256, 2) and module.functions["k1"].launch_bounds == (96,)


def test_launch_bounds_must_be_integer_constants():
    with pytest.raises(CompileError, match="'__launch_bounds__' attribute requires parameter 0 to be an integer "
                                           "constant"):
        minicuda.compile("int n = 4;\n__global__ void __launch_bounds__(n) k(int *p) { p[0] = 1; }\n")


def test_only_a_kernel_has_an_address_for_the_runtime():
    """A host function's address is a function pointer now, but no kernel's: the runtime refuses it."""
    assert run("#include <cstdio>\nvoid h(void) {}\nint main() { printf(\"%d\\n\", (int)cudaFuncSetAttribute("
               "(const void *)h, cudaFuncAttributeMaxDynamicSharedMemorySize, 0)); return 0; }\n") == "400\n"
    with pytest.raises(CompileError, match="a pointer to the __device__ function 'd' in host code is not supported"):
        minicuda.compile("__device__ void d(void) {}\nint main() { return (long)(const void *)d != 0; }\n")


def _many_registers() -> str:
    """The H100 probe's kernel, written out: 160 floats live at once (168 registers there and here)."""
    n = 160
    loads = "".join(f"    float v{i} = in[{i} * 1024 + threadIdx.x];\n" for i in range(n))
    chain = "".join(f"    a = a * v{i} + v{(i * 7 + 3) % n};\n" for i in range(n))
    return f"__global__ void kr(const float *in, float *out) {{\n{loads}    float a = 0;\n{chain}" \
           f"    out[threadIdx.x] = a;\n}}\n"


@pytest.mark.slow
def test_a_block_whose_registers_do_not_fit_is_too_many_resources():
    src = _many_registers() + r"""
int main() {
    float *d; cudaMalloc(&d, 1 << 24);
    for (int t = 1024; t >= 128; t /= 2) { kr<<<1, t>>>(d, d + (1 << 20)); printf("%d: ", t); REPORT("kr"); }
}
"""
    too_many = ('kr             cudaErrorLaunchOutOfResources "too many resources requested for launch" | '
                'again cudaSuccess | sync cudaSuccess')
    assert run(src, engine="jit").splitlines() == [f"1024: {too_many}", f"512: {too_many}",
                                                   f"256: {accepted('kr')}", f"128: {accepted('kr')}"]


SHARED_IN_A_FUNCTION = r"""
__device__ float f(int i) { __shared__ float a[SIZE_F]; a[i] = i; __syncthreads(); return a[i ^ 1]; }
__global__ void k(float *p) { __shared__ float b[SIZE_K]; b[threadIdx.x] = 1; __syncthreads();
                              p[threadIdx.x] = f(threadIdx.x) + b[threadIdx.x ^ 1]; }
__global__ void other(float *p) { __shared__ float c[SIZE_K]; c[threadIdx.x] = 1; __syncthreads();
                                  p[threadIdx.x] = c[threadIdx.x ^ 1]; }
int main() { float *d; cudaMalloc(&d, 4096); k<<<1, 32>>>(d); float h[2]; cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);
             printf("%s %g %g\n", cudaGetErrorString(cudaGetLastError()), h[0], h[1]); }
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_device_functions_shared_array_is_the_blocks(engine):
    """Each block has one: the kernel's thread i reads what thread i ^ 1 stored (one warp, in step)."""
    src = SHARED_IN_A_FUNCTION.replace("__syncthreads();", "__syncwarp();").replace("SIZE_F", "64").replace("SIZE_K", "64")
    assert run(src, engine=engine) == "no error 2 1\n"


@pytest.mark.parametrize("size_f, size_k, messages", [   # ptxas on the H100 (tests/data/groundtruth/launch)
    (20000, 16, ["entry function 'k' uses too much shared data (0x138c0 bytes, 0xc000 max)"]),
    (8192, 8192, ["entry function 'k' uses too much shared data (0x10000 bytes, 0xc000 max)"]),
    (12288, 1, ["entry function 'k' uses too much shared data (0xc004 bytes, 0xc000 max)"]),
    (16, 12288, ["entry function 'k' uses too much shared data (0xc040 bytes, 0xc000 max)"]),
    (16, 12289, ["entry function 'k' uses too much shared data (0xc044 bytes, 0xc000 max)",
                 "entry function 'other' uses too much shared data (0xc004 bytes, 0xc000 max)"]),
])
def test_static_shared_memory_counts_what_a_kernels_calls_declare(size_f, size_k, messages):
    src = SHARED_IN_A_FUNCTION.replace("SIZE_F", str(size_f)).replace("SIZE_K", str(size_k))
    with pytest.raises(CompileError) as e:
        minicuda.compile(REPORT + src)
    assert sorted(d.message for d in e.value.diagnostics) == messages


def _int_parameters(n: int) -> str:
    params, args = ", ".join(f"int a{i}" for i in range(n)), ", ".join(str(i) for i in range(n))
    return (f"__global__ void k(int *out, {params}) {{ out[0] = a0 + a{n - 1}; }}\n"
            f"int main() {{ int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d, {args}); int h = 0; "
            f"cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf(\"%s %d\\n\", cudaGetErrorString(cudaGetLastError()), h); }}\n")


@pytest.mark.parametrize("arch, n, required, limit", [
    pytest.param("hopper", 8190, 32768, 32764, marks=pytest.mark.slow),
    pytest.param("hopper", 10000, 40008, 32764, marks=pytest.mark.slow),
    ("pascal", 1023, 4100, 4096)])
def test_kernel_parameters_past_the_parameter_space(arch, n, required, limit):
    with pytest.raises(CompileError, match=rf"<input>:6:17: error: Formal parameter space overflowed \({required} bytes "
                                           rf"required, max {limit} bytes allowed\) in function 'k'"):
        minicuda.compile(REPORT + _int_parameters(n), arch=arch)


def test_kernel_parameters_at_the_limit_run():
    assert run(_int_parameters(1022), arch="pascal") == "no error 1021\n"


"""Memory limits: allocations that cannot be satisfied, static objects too large to place,
launches whose frames do not fit, host frames beyond the native stack.

Each case is what CUDA 13 on an H100 and glibc do (GPU.md): malloc returns NULL,
cudaMalloc returns cudaErrorMemoryAllocation and sets the last error, a cudaMemset or
cudaMemcpy beyond its allocation is cudaErrorInvalidValue; nothing reaches numpy's
MemoryError.
"""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

import minicuda
from minicuda.cli import minicuda_main
from minicuda.vm.errors import VMError
from minicuda.vm.machine import Machine
from minicuda.vm.memory import RESERVED_BYTES, Memory, MemoryFault, OutOfMemory, default_limit

LIMIT = 2 << 30   # the simulated memory of these tests (the default depends on the machine)


def run(src: str, engine: str = "interp") -> tuple[int, str]:
    out = io.BytesIO()
    machine = Machine(minicuda.compile(src, arch="hopper"), engine=engine, stdout=out, stderr=io.BytesIO(),
                      memory_limit=LIMIT)
    return machine.run(["prog"]), out.getvalue().decode()


def test_memory_refuses_allocations_past_its_limit():
    memory = Memory(limit=1 << 20)
    memory.alloc(1 << 19, "global")
    with pytest.raises(OutOfMemory):
        memory.alloc((1 << 19) + 1, "global")
    with pytest.raises(OutOfMemory):
        memory.alloc(1 << 64, "host")


def test_the_default_limit_leaves_room_under_an_address_space_limit():
    script = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)); "
              "from minicuda.vm.memory import default_limit; print(default_limit())")
    limited = int(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)
    assert 0 < limited <= (4 << 30) - RESERVED_BYTES


def test_an_allocation_the_os_refuses_is_out_of_memory():
    memory = Memory(limit=1 << 62)   # more than any machine maps
    with pytest.raises(OutOfMemory):
        memory.alloc(1 << 61, "global")
    assert memory.live_bytes == 0


def test_fill_and_copy_check_the_whole_range_before_touching_memory():
    memory = Memory()
    a = memory.alloc(16, "host")
    b = memory.alloc(16, "host")
    memory.fill(a, 7, 16)
    memory.copy(b, a, 16)
    assert memory.read(b, 16) == bytes([7]) * 16
    with pytest.raises(MemoryFault, match="write of 1099511627776 bytes"):
        memory.fill(a, 0, 1 << 40)
    with pytest.raises(MemoryFault, match="read of 17 bytes"):
        memory.copy(b, a, 17)


HOST_ALLOCATIONS = r"""
#include <cstdio>
#include <cstdlib>
int main()
{
    void *a = malloc(1ull << 50);
    void *b = malloc((size_t)-1);
    void *c = calloc(1ull << 40, 1ull << 40);
    char *small = (char *)malloc(16);
    small[0] = 42;
    char *r = (char *)realloc(small, 1ull << 50);
    printf("%d %d %d %d %d\n", a == NULL, b == NULL, c == NULL, r == NULL, small[0]);
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_malloc_calloc_realloc_of_huge_sizes_return_null(engine):
    assert run(HOST_ALLOCATIONS, engine) == (0, "1 1 1 1 42\n")


CUDA_ALLOCATIONS = r"""
#include <cstdio>
int main()
{
    float *p = (float *)8;
    cudaError_t e = cudaMalloc(&p, 1ull << 50);
    printf("%s %s %d ", cudaGetErrorName(e), cudaGetErrorString(e), p == (float *)8);
    printf("%d %d\n", cudaGetLastError(), cudaGetLastError());
    e = cudaMalloc(&p, 0);
    printf("zero %d %d\n", e, p == NULL);
    float *d[3];
    int failed = 0;
    for (int i = 0; i < 3; i++)
        failed += cudaMalloc(&d[i], 1ull << 30) == cudaErrorMemoryAllocation;
    printf("GiB failed %d\n", failed);
    cudaGetLastError();
    cudaMalloc(&p, 1024);
    char host[16];
    printf("%d ", cudaMemset(p, 0, 1ull << 40));
    printf("%d ", cudaMemset(p, 0, 2048));
    printf("%d ", cudaDeviceSynchronize());
    printf("%d ", cudaMemcpy(host, p, 1ull << 40, cudaMemcpyDeviceToHost));
    printf("%d\n", cudaMemset(p, 1, 1024));
    return 0;
}
"""


def test_cuda_allocations_that_do_not_fit_are_cuda_errors():
    code, out = run(CUDA_ALLOCATIONS)
    assert code == 0
    assert out.splitlines() == ["cudaErrorMemoryAllocation out of memory 1 2 0", "zero 0 1", "GiB failed 2",
                                "1 1 0 1 0"]


def test_host_memset_beyond_the_object_is_a_host_fault_not_memory_error():
    src = "#include <cstring>\n#include <cstdlib>\nint main() { char *p = (char *)malloc(16); memset(p, 0, 1ull << 40); return 0; }"
    with pytest.raises(VMError, match=r"segmentation fault in memset\(\): out-of-bounds access: write of 1099511627776"):
        run(src)


@pytest.mark.parametrize("decl, message", [
    ("__device__ char g[1ull << 40];", "'__device__' variable 'g' needs 1.0 TiB; the device has 80 GiB of global memory"),
    ("__device__ char g[3ull << 30];", "'__device__' variable 'g' needs 3.0 GiB; minicuda simulates 2.0 GiB of memory"),
    ("char g[3ull << 30];", "variable 'g' needs 3.0 GiB; minicuda simulates 2.0 GiB of memory"),
])
def test_static_objects_too_large_to_place_fail_at_load(decl, message):
    program = minicuda.compile(decl + "\nint main() { return 0; }", arch="hopper")
    with pytest.raises(VMError, match=message.replace("(", r"\(")):
        Machine(program, engine="interp", memory_limit=LIMIT)


def test_static_object_error_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "big.cu"
    path.write_text("__device__ char g[1ull << 40];\n__global__ void k() { g[1] = 1; }\n"
                    "int main() { k<<<1, 1>>>(); return 0; }\n")
    assert minicuda_main(["run", "--arch", "sm_90", str(path)]) == 1
    err = capsys.readouterr().err
    assert "minicuda: error: '__device__' variable 'g' needs 1.0 TiB; the device has 80 GiB" in err
    assert "internal compiler error" not in err


LAUNCHES = r"""
#include <cstdio>
__global__ void k(float *p)
{
    float loc[1 << 24];
    loc[threadIdx.x] = 1;
    p[threadIdx.x] = loc[threadIdx.x / 2];
}
__global__ void dyn(float *p)
{
    extern __shared__ float s[];
    s[threadIdx.x] = 1;
    p[threadIdx.x] = s[0];
}
int main()
{
    float *p;
    cudaMalloc(&p, 4096);
    k<<<4, 256>>>(p);
    cudaError_t e = cudaGetLastError();
    printf("%s %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    dyn<<<1, 32, 1ull << 40>>>(p);
    printf("%s\n", cudaGetErrorName(cudaGetLastError()));
    dyn<<<1, 32, 128>>>(p);
    printf("%s\n", cudaGetErrorName(cudaGetLastError()));
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_launches_whose_memory_does_not_fit_fail_as_cuda_does(engine):
    assert run(LAUNCHES, engine) == (0, "cudaErrorMemoryAllocation out of memory\ncudaErrorInvalidValue\n"
                                        "cudaSuccess\n")


HOST_FRAME = """#include <cstdio>
int f()
{
    char big[16 << 20];
    big[0] = 1;
    return big[0];
}
int main()
{
    printf("before\\n");
    return f();
}
"""


def test_a_host_frame_beyond_the_native_stack_is_a_stack_overflow(tmp_path, capsys):
    path = tmp_path / "frame.cu"
    path.write_text(HOST_FRAME)
    assert minicuda_main(["run", str(path)]) == 139
    captured = capsys.readouterr()
    assert captured.out == "before\n"
    assert f"{path}:11:12: error: host stack overflow in 'f': the call at depth 2 needs 16777248 bytes more of " \
           f"the 8 MiB stack\nSegmentation fault\n" == captured.err



def test_a_host_frame_the_simulated_memory_cannot_hold_is_a_stack_overflow():
    src = HOST_FRAME.replace("16 << 20", "1 << 20")
    machine = Machine(minicuda.compile(src), engine="interp", stdout=io.BytesIO(), memory_limit=1 << 20)
    with pytest.raises(VMError, match="stack overflow in host code: the frame of 'f' \\(1.0 MiB\\)") as e:
        machine.run(["prog"])
    assert e.value.kind == "sigsegv" and e.value.loc.line == 11   # the call

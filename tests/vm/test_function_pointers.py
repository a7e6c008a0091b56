"""Calls through function pointers (an indirect CALL: its callee is a register holding a
function's handle) and the C library calling the program back (qsort, bsearch): both
engines agree, a pointer to no function faults as a native call through it does, the
.sass text keeps the register callee, and device code gets a located error."""
import io

import pytest

import minicuda
from minicuda.cli import minicuda_main
from minicuda.diagnostics import CompileError
from minicuda.ir import format_module, parse_module
from minicuda.vm.machine import Machine

CALLBACKS = """#include <cstdio>
#include <cstdlib>
static int byValue(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int twice(int x) { return 2 * x; }
int negate(int x) { return -x; }
int main(int argc, char **argv)
{
    int v[6] = {5, -2, 9, 0, 3, 3};
    qsort(v, 6, sizeof(int), byValue);
    int (*ops[2])(int) = {twice, &negate};
    int key = 3;
    int *hit = (int *)bsearch(&key, v, 6, sizeof(int), byValue);
    printf("%d %d %d %d %d %d | %d %d | %d\\n", v[0], v[1], v[2], v[3], v[4], v[5], ops[0](v[5]), (*ops[1])(v[0]),
           hit != nullptr && *hit == 3);
    if (argc > 1) {
        int (*wild)(int) = (int (*)(int))(long)atoi(argv[1]);
        printf("%d\\n", wild(1));
    }
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_calls_through_pointers_and_library_callbacks(engine, tmp_path, capsys):
    path = tmp_path / "callbacks.cu"
    path.write_text(CALLBACKS)
    assert minicuda_main(["run", "--engine", engine, str(path)]) == 0
    assert capsys.readouterr().out == "-2 0 3 3 5 9 | 18 2 | 1\n"


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_call_through_a_pointer_to_no_function_is_sigsegv(engine, tmp_path, capsys):
    path = tmp_path / "callbacks.cu"
    path.write_text(CALLBACKS)
    assert minicuda_main(["run", "--engine", engine, str(path), "4096"]) == 139
    err = capsys.readouterr().err
    assert f"{path}:17:24: error: segmentation fault: a call through the function pointer 0x1000, which points " \
           f"to no function" in err and "Segmentation fault" in err


def test_the_register_callee_survives_the_sass_text():
    program = minicuda.compile(CALLBACKS)
    text = format_module(program.module)
    assert any(line.split()[:1] == ["CALL"] and line.split()[1].startswith("R") for line in text.splitlines())
    out = io.BytesIO()
    machine = Machine(parse_module(text), engine="interp", stdout=out, stderr=io.BytesIO())
    assert machine.run(["prog"]) == 0
    assert out.getvalue() == b"-2 0 3 3 5 9 | 18 2 | 1\n"


@pytest.mark.parametrize("source", [
    "__device__ int f(int x) { return x; }\n__global__ void k(long *o) { *o = (long)&f; }\n",
    "__device__ int f(int x) { return x; }\n__global__ void k(int (**o)(int)) { *o = f; }\n",
])
def test_a_function_pointer_made_in_device_code_is_a_located_error(source):
    with pytest.raises(CompileError, match=r":2:.*function pointers in device code are not supported yet"):
        minicuda.compile(source)


HOST_POINTER_ON_DEVICE = """#include <cstdio>
#include <algorithm>
bool greater(int a, int b) { return a > b; }
__host__ __device__ int applyHD(int (*f)(int), int x) { return f(x); }
__host__ __device__ int inc(int x) { return x + 1; }
__global__ void k(int (*f)(int), int *out) { *out = applyHD(f, 2); }
int main() {
    int v[5] = {3, 1, 4, 1, 5};
    std::sort(v, v + 5, greater);
    printf("%d %d %d %d %d | %d\\n", v[0], v[1], v[2], v[3], v[4], applyHD(inc, 4));
    int *d;
    cudaMalloc(&d, 4);
    k<<<1, 1>>>(inc, d);
    printf("%s\\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_host_and_device_function_calls_through_a_pointer_on_the_host_only(engine, tmp_path, capsys):
    """std::sort (host and device) takes a function as its comparator on the host; the same
    call through a pointer on the device faults the launch at the call."""
    path = tmp_path / "hd.cu"
    path.write_text(HOST_POINTER_ON_DEVICE)
    assert minicuda_main(["run", "--engine", engine, str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "5 4 3 1 1 | 5\nan illegal memory access was encountered\n"
    assert f"{path}:4:64: error: cudaErrorIllegalAddress: an illegal memory access was encountered: a call " \
           f"through a function pointer in device code" in captured.err

"""Static local variables, as C has them: one object for the whole run, initialised once
(host functions' in host memory, device functions' in global memory), each function's
its own; a non-constant initialiser and a static local in a __host__ __device__ function
are located errors."""
import pytest

from minicuda.cli import minicuda_main

PROGRAM = """#include <cstdio>
int next_id() { static int counter = 100; return counter++; }
int other() { static int counter; counter += 2; return counter; }
__device__ int lookup(int x) { static int table[4] = {1, 2, 3, 4}; return table[x & 3]; }
__global__ void k(int *out) { out[threadIdx.x] = lookup(threadIdx.x + 1); }
int main() {
    for (int i = 0; i < 3; i++) printf("%d %d\\n", next_id(), other());
    static unsigned char big[1 << 16];
    big[65535] = 7;
    int *d; cudaMalloc(&d, 16); k<<<1, 4>>>(d); int h[4]; cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    printf("%d %d %d %d %d\\n", h[0], h[1], h[2], h[3], big[65535] + big[0]);
    return 0;
}
"""


@pytest.mark.parametrize("engine", [pytest.param("interp", marks=pytest.mark.slow), "jit"])
def test_static_locals_keep_their_value_between_calls(engine, tmp_path, capsys):
    path = tmp_path / "statics.cu"
    path.write_text(PROGRAM)
    assert minicuda_main(["run", "--engine", engine, str(path)]) == 0
    assert capsys.readouterr().out == "100 2\n101 4\n102 6\n2 3 4 1 7\n"


@pytest.mark.parametrize("body,message", [
    ("int f(int z) { static int s = z; return s; }",
     "x.cu:1:31: error: a static local variable's initializer must be a constant expression "
     "(dynamic initialization of static locals is not supported)"),
    ("__host__ __device__ int f() { static int s = 1; return s; }",
     "x.cu:1:42: error: static local variables in __host__ __device__ functions are not supported"),
])
def test_static_locals_minicuda_cannot_run_are_located_errors(body, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.cu").write_text(body + "\nint main() { return f(1); }\n".replace("f(1)", "f(1)" if "int z" in body else "f()"))
    assert minicuda_main(["run", "x.cu"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == message


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_static_local_array_of_string_pointers_is_initialised_before_main(engine, tmp_path, capsys):
    path = tmp_path / "names.cu"
    path.write_text('#include <cstdio>\nconst char *name(int i) { static const char *names[] = {"zero", "one"}; '
                    'return names[i]; }\nint main() { printf("%s %s\\n", name(0), name(1)); }\n')
    assert minicuda_main(["run", "--engine", engine, str(path)]) == 0
    assert capsys.readouterr().out == "zero one\n"

"""Every standard header real CUDA programs include is found and compiles (issue 13's list),
with what it declares usable: the C headers' names, and through `std::` the C library's."""
import pytest

from minicuda.cli import minicuda_main
from minicuda.compiler import compile_program

HEADERS = ["cassert", "cfloat", "float.h", "climits", "cstdint", "cmath", "cstdlib", "cstdio", "cstring", "ctime",
           "cerrno", "errno.h", "malloc.h", "unistd.h", "pthread.h", "omp.h", "fstream", "sstream", "exception",
           "stdexcept", "string", "vector", "iostream", "iomanip", "algorithm", "chrono", "utility", "memory",
           "numeric", "random", "functional", "array", "map", "limits", "thread", "mutex", "atomic"]


@pytest.mark.parametrize("header", HEADERS)
def test_the_header_is_found_and_compiles(header):
    compile_program(f"#include <{header}>\nint main() {{ return 0; }}\n", 70, 0)


def test_c_library_names_are_reachable_through_std(tmp_path, capsys):
    source = """#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cfloat>
int main() {
    std::size_t n = 3;
    std::uint32_t u = 4;
    std::printf("%g %d %d %d %d\\n", std::sqrt(16.0), (int)n, (int)u, std::max(2, 5), FLT_MAX > 1e38f);
    return 0;
}
"""
    (tmp_path / "std.cu").write_text(source)
    assert minicuda_main(["run", str(tmp_path / "std.cu")]) == 0
    assert capsys.readouterr().out == "4 3 4 5 1\n"


PROGRAMS_OWN_NAMES = """#include <algorithm>
#include <numeric>
#include <cstdio>
__device__ void swap(int &a, int &b) { int t = a; a = b; b = t; }
__global__ void reverse(int *v) { if (threadIdx.x < 2) swap(v[threadIdx.x], v[3 - threadIdx.x]); }
int copy(int x) { return x + 1; }
int main() {
    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    reverse<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::reverse(h, h + 4);
    std::printf("%d %d %d %d %d %d\\n", h[0], h[3], copy(4), std::accumulate(h, h + 4, 0), std::min(2, 7), std::max(2.5f, 1.0f) == 2.5f);
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_a_programs_own_swap_reverse_and_copy_are_not_std_templates(engine, tmp_path, capsys):
    """<algorithm>'s templates are std's: a program's own functions of those names (and its
    calls of them) stay ordinary functions beside them."""
    (tmp_path / "own.cu").write_text(PROGRAMS_OWN_NAMES)
    assert minicuda_main(["run", "--engine", engine, str(tmp_path / "own.cu")]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == "1 4 5 10 2 1\n"


def test_chronos_traits_classes_are_named_where_they_stand(tmp_path, capsys):
    (tmp_path / "d.cu").write_text("#include <chrono>\nint main() {\n"
                                   "    std::chrono::duration<double, std::milli> ms(1.5);\n"
                                   "    bool f = std::chrono::treat_as_floating_point<double>::value;\n"
                                   "    return ms.count() > 1;\n}\n")
    assert minicuda_main(["check", str(tmp_path / "d.cu")]) == 1
    errors = [line.split(": ", 1)[1] for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert errors == ["error: 'std::chrono::treat_as_floating_point' is not supported yet"]

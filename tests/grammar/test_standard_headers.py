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

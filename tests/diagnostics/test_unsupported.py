"""What minicuda does not support, named at its own place: a <pthread.h> function compiles
and fails when it runs ('pthread_create' is not supported, at the call, status 1); a std::
name of the C++ library minicuda lacks yet is a located compile error, never a parse error
in a header; exceptions in device code are nvcc's error."""
import pytest

from minicuda.cli import minicuda_main, minicudac_main

THREADS = """#include <stdio.h>
#include <pthread.h>
#include <omp.h>
void *worker(void *arg) { return arg; }
int main(int argc, char **argv) {
    printf("threads %d\\n", omp_get_num_threads());
    if (argc > 1) {
        pthread_t t;
        pthread_create(&t, NULL, worker, NULL);
    }
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_an_unsupported_function_fails_when_it_is_called(engine, tmp_path, capsys):
    path = tmp_path / "threads.cu"
    path.write_text(THREADS)
    assert minicuda_main(["run", "--engine", engine, str(path)]) == 0
    assert capsys.readouterr().out == "threads 1\n"
    assert minicuda_main(["run", "--engine", engine, str(path), "go"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "threads 1\n"
    assert captured.err == f"{path}:9:9: error: 'pthread_create' is not supported\n"


CXX_LIBRARY = """#include <vector>
#include <iostream>
#include <algorithm>
#include <cmath>
__global__ void k(int x) { if (x) throw 1; }
int main() {
    std::vector<int> v(10);
    std::cout << "hello" << std::endl;
    int x = std::foo(3);
    return (int)std::sqrt(4.0f) + std::min(1, 2);
}
"""


def test_std_names_minicuda_lacks_are_errors_at_their_place(tmp_path, capsys):
    path = tmp_path / "lib.cu"
    path.write_text(CXX_LIBRARY)
    assert minicudac_main(["-fsyntax-only", str(path)]) == 1
    errors = [l[len(str(path)):] for l in capsys.readouterr().err.splitlines() if l.startswith(str(path))]
    assert errors == [":5:35: error: device code does not support exception handling",
                      ":9:13: error: no member named 'foo' in namespace 'std'"]


UNDECLARED_IN_STD = """#include <cstdio>
std::unordered_map<int, float> table;
int main() {
    std::numeric_limits<float>::max();
    double r = std::sqrt(2.0);
    std::printf("%g\\n", r);
    return 0;
}
"""


def test_a_std_name_no_included_header_declares_is_an_error_at_its_place(tmp_path, capsys):
    """namespace std is what the included headers declare: std::sqrt needs <cmath> (as with
    g++); a type of the library minicuda lacks is named where it stands in a declaration."""
    path = tmp_path / "std.cu"
    path.write_text(UNDECLARED_IN_STD)
    assert minicudac_main(["-fsyntax-only", str(path)]) == 1
    errors = [l[len(str(path)):] for l in capsys.readouterr().err.splitlines() if l.startswith(str(path))]
    assert errors == [":2:1: error: 'std::unordered_map' is not supported yet",
                      ":4:5: error: no member named 'numeric_limits' in namespace 'std'",
                      ":5:16: error: no member named 'sqrt' in namespace 'std'"]

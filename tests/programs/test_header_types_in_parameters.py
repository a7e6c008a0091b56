"""A header's types name parameters anywhere in a function's list: declarations are
checked in the order of the preprocessed text, so `size_t` and `cudaError_t` from the
headers are known when a program's function names them (they once were not, after
the program's own line numbers sorted the headers' declarations behind its own)."""
from minicuda.cli import minicuda_main

PROGRAM = r"""#include <stdio.h>
#include <stddef.h>
void report(const char *what, cudaError_t err) { printf("%s: %s\n", what, cudaGetErrorString(err)); }
size_t total(int n, size_t each) { return n * each; }
void first(size_t n) { printf("%zu\n", n); }
int main()
{
    report("malloc", cudaMalloc(NULL, 16));
    printf("%zu\n", total(3, sizeof(double)));
    first(7);
    return 0;
}
"""


def test_header_typedefs_name_any_parameter(tmp_path, capfd):
    src = tmp_path / "params.cu"
    src.write_text(PROGRAM)
    assert minicuda_main(["run", str(src)]) == 0
    out, err = capfd.readouterr()
    assert out == "malloc: invalid argument\n24\n7\n", err

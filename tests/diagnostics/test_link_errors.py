"""The linker's errors, as ld and nvlink report them, clang-shaped and located: a
symbol two units define (`multiple definition of 'f(int)'`, a note at the first),
one no unit defines (`undefined reference to 'h(int)'` at its first use), a
`__device__` function of another unit called without -rdc=true (ptxas's
`Unresolved extern function`, with a note naming -rdc=true); each exits 1 and runs
nothing.  Every case is a dict of files; the expected stderr is exact."""
import pytest

from minicuda.cli import minicuda_main

CASES = {
    "function_and_variable_defined_twice": (
        {"a.cpp": "int f(int x) { return x; }\nint g;\n",
         "b.cpp": "int f(int x) { return x + 1; }\nint g = 2;\nint main() { return f(g); }\n"},
        """\
b.cpp:1:5: error: multiple definition of 'f(int)'
    1 | int f(int x) { return x + 1; }
      |     ^
a.cpp:1:5: note: first defined here
    1 | int f(int x) { return x; }
      |     ^
b.cpp:2:5: error: multiple definition of 'g'
    2 | int g = 2;
      |     ^
a.cpp:2:5: note: first defined here
    2 | int g;
      |     ^
2 errors generated.
"""),
    "undefined_function_and_variable": (
        {"a.cu": "int h(int);\nextern int missing;\nint main() { return h(1) + missing; }\n",
         "b.c": "int unused(void) { return 0; }\n"},
        """\
a.cu:3:21: error: undefined reference to 'h(int)'
    3 | int main() { return h(1) + missing; }
      |                     ^~~~
a.cu:3:28: error: undefined reference to 'missing'
    3 | int main() { return h(1) + missing; }
      |                            ^~~~~~~
2 errors generated.
"""),
    "kernel_defined_in_two_units": (
        {"a.cu": "__global__ void k(int *p) { }\nint main() { k<<<1, 1>>>(0); return 0; }\n",
         "b.cu": "__global__ void k(int *p) { *p = 1; }\n"},
        """\
b.cu:1:17: error: multiple definition of 'k(int *)'
    1 | __global__ void k(int *p) { *p = 1; }
      |                 ^
a.cu:1:17: note: first defined here
    1 | __global__ void k(int *p) { }
      |                 ^
1 error generated.
"""),
    "device_function_of_another_unit_without_rdc": (
        {"a.cu": "__device__ int twice(int x);\n__global__ void k(int *p) { *p = twice(*p); }\n"
                 "int main() { return 0; }\n",
         "b.cu": "__device__ int twice(int x) { return 2 * x; }\n"},
        """\
a.cu:2:34: error: undefined reference to 'twice(int)'
    2 | __global__ void k(int *p) { *p = twice(*p); }
      |                                  ^~~~~~~~~
a.cu:1:16: note: 'twice' declared here
    1 | __device__ int twice(int x);
      |                ^~~~~
a.cu:2:34: note: a __device__ function defined in another translation unit is linked only with -rdc=true (relocatable device code), as nvcc does
    2 | __global__ void k(int *p) { *p = twice(*p); }
      |                                  ^~~~~~~~~
1 error generated.
"""),
    "device_function_defined_twice_with_rdc": (
        {"a.cu": "__device__ int twice(int x) { return x + x; }\nint main() { return 0; }\n",
         "b.cu": "__device__ int twice(int x) { return 2 * x; }\n"},
        """\
b.cu:1:16: error: multiple definition of 'twice(int)'
    1 | __device__ int twice(int x) { return 2 * x; }
      |                ^~~~~
a.cu:1:16: note: first defined here
    1 | __device__ int twice(int x) { return x + x; }
      |                ^~~~~
1 error generated.
"""),
}
RDC = {"device_function_defined_twice_with_rdc"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_link_error(name, tmp_path, monkeypatch, capsys):
    files, expected = CASES[name]
    monkeypatch.chdir(tmp_path)
    for path, text in files.items():
        (tmp_path / path).write_text(text)
    options = ["-rdc=true"] if name in RDC else []
    assert minicuda_main(["run"] + list(files) + options) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", expected)

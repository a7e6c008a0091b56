"""Programs of several translation units on one command line, as nvcc builds them:
`minicuda run a.cu b.cpp c.c`, `minicudac -c` writing object files, and links of
sources and objects (minicuda/linker.py); .cpp and .c units are host code."""
import pytest

from minicuda.cli import minicuda_main, minicudac_main
from minicuda.compiler import compile_program
from minicuda.linker import OBJECT_MAGIC, format_object, parse_object
from minicuda.vm.machine import Machine

HEADER = """\
#pragma once
const int N = 4;                                   // C++: each unit's own
inline int twice(int x) { return 2 * x; }          // one copy kept
template <typename T> T square(T v) { return v * v; }
static int unit_tag() { return 7; }                // each unit's own
int c_add(int a, int b);                           // defined in C
void launch_fill(int *d, int v);                   // defined in launch.cu
extern int calls;                                  // defined in main.cu
"""
MAIN = """\
#include <stdio.h>
#include "common.h"
__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
int calls = 0;
static int counter = 1;
int cpu_part(int);
int main(int argc, char **argv) {
  int *d, h[N];
  cudaMalloc(&d, sizeof h);
  launch_fill(d, argc);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d | %d %d %d %d | %d %d %s\\n", h[0], h[1], h[2], h[3], twice(counter), square(3),
         c_add(2, 3), cpu_part(4), calls, unit_tag(), argc > 2 ? argv[2] : "-");
  return 0;
}
"""
LAUNCH = """\
#include "common.h"
__global__ void fill(int *p, int v);
void launch_fill(int *d, int v) { fill<<<1, N>>>(d, v); calls++; }
"""
CPU = """\
#include "common.h"
static int counter = 100;
int cpu_part(int x) { calls++; return twice(x) + square(x) + counter; }
"""
C_UNIT = "int c_add(int a, int b) { return a + b; }\n"
PROGRAM = {"common.h": HEADER, "main.cu": MAIN, "launch.cu": LAUNCH, "cpu.cpp": CPU, "add.c": C_UNIT}
UNITS = ["main.cu", "launch.cu", "cpu.cpp", "add.c"]
OUTPUT = "3 4 5 6 | 2 9 5 124 | 2 7 x.txt\n"


@pytest.fixture
def program(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in PROGRAM.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_units_of_three_languages_link_and_run(program, capsys):
    assert minicuda_main(["run"] + UNITS + ["7", "x.txt"]) == 0
    assert capsys.readouterr() == (OUTPUT, "")


def test_objects_link_with_sources_and_minicudac_writes_a_runnable_program(program, capsys):
    assert minicudac_main(["-c", "main.cu", "cpu.cpp"]) == 0
    assert minicudac_main(["-c", "launch.cu", "-o", "l.o"]) == 0
    assert (program / "main.o").read_text().startswith(OBJECT_MAGIC + "\n")
    assert minicuda_main(["run", "main.o", "l.o", "cpu.o", "add.c", "7", "x.txt"]) == 0
    assert capsys.readouterr().out == OUTPUT
    assert minicudac_main(["main.o", "l.o", "cpu.cpp", "add.c", "-o", "prog"]) == 0
    assert (program / "prog").read_text().startswith("// minicuda sass-like output")
    assert minicuda_main(["run", "prog", "7", "x.txt"]) == 0
    assert capsys.readouterr().out == OUTPUT


def test_object_files_round_trip(program):
    program_units = compile_program([str(program / u) for u in UNITS])
    assert "main" in program_units.functions and "twice" in program_units.functions
    # the unit's statics and the other unit's keep apart: the second is renamed
    assert {"counter", "counter.2", "N", "N.2"} <= set(program_units.module.globals)
    for unit in program_units.units:
        assert unit.tu is not None
    assert minicudac_main(["-c", "main.cu"]) == 0
    unit = parse_object((program / "main.o").read_text())
    assert format_object(unit) == (program / "main.o").read_text()
    assert unit.symbols["launch_fill(int*,int)"].binding == "undefined"
    assert unit.symbols["counter"].binding == "local" and unit.symbols["calls"].binding == "global"
    assert unit.symbols["twice(int)"].binding == "weak"


def test_several_inputs_in_one_python_compile(program):
    machine = Machine(compile_program([str(program / u) for u in UNITS]))
    assert machine.run(["prog"]) == 0


def test_compile_only_options_are_checked(program, capsys):
    assert minicudac_main(["-c", "main.cu", "cpu.cpp", "-o", "x.o"]) == 2
    assert "cannot specify -o with -c and several files" in capsys.readouterr().err
    assert minicudac_main(["-c", "main.cu"]) == 0
    assert minicudac_main(["-c", "main.o", "cpu.cpp"]) == 0
    assert "main.o: linker input file unused because linking not done" in capsys.readouterr().err
    (program / "bad.o").write_text("int x;\n")
    assert minicuda_main(["run", "main.o", "bad.o"]) == 1
    assert capsys.readouterr().err == "minicuda: error: bad.o: file format not recognized\n"
    assert minicuda_main(["run", "main.o", "launch.cu", "--arch", "sm_60"]) == 1
    assert "main.o was compiled for sm_70 (its); this link is for sm_60 (stack)" in capsys.readouterr().err


def test_files_may_come_between_options(program, capsys):
    assert minicudac_main(["-c", "main.cu", "-O0", "cpu.cpp"]) == 0
    assert (program / "main.o").exists() and (program / "cpu.o").exists()


def test_overloads_of_two_units_link_by_signature(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.cpp").write_text("int f(int x) { return x + 1; }\n")
    (tmp_path / "b.cpp").write_text("float f(float x) { return x * 2; }\n")
    (tmp_path / "m.cu").write_text('#include <stdio.h>\nint f(int);\nfloat f(float);\n'
                                   'int main() { printf("%d %g\\n", f(1), f(1.5f)); return 0; }\n')
    assert minicuda_main(["run", "m.cu", "a.cpp", "b.cpp"]) == 0
    assert capsys.readouterr().out == "2 3\n"


@pytest.mark.slow
def test_relocatable_device_code_links_device_functions_and_variables(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.cu").write_text(
        "#include <stdio.h>\n__device__ int twice(int);\nextern __device__ int base;\n"
        "__global__ void k(int *p) { *p = twice(3) + base; }\n"
        "int main() { int *d, h; cudaMalloc(&d, 4); k<<<1, 1>>>(d);\n"
        "  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf(\"%d\\n\", h); return 0; }\n")
    (tmp_path / "b.cu").write_text("__device__ int base = 100;\n__device__ int twice(int x) { return 2 * x; }\n")
    assert minicuda_main(["run", "-rdc=true", "a.cu", "b.cu"]) == 0
    assert capsys.readouterr().out == "106\n"
    assert minicudac_main(["-dc", "a.cu", "b.cu"]) == 0
    assert minicuda_main(["run", "a.o", "b.o"]) == 0
    assert capsys.readouterr().out == "106\n"


def test_without_rdc_an_extern_device_variable_is_the_units_own(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.cu").write_text(
        "#include <stdio.h>\nextern __device__ int base;\n__global__ void k(int *p) { *p = base; }\n"
        "int main() { int *d, h; cudaMalloc(&d, 4); k<<<1, 1>>>(d);\n"
        "  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf(\"%d\\n\", h); return 0; }\n")
    (tmp_path / "b.cu").write_text("__device__ int base = 100;\n")
    assert minicuda_main(["run", "a.cu", "b.cu"]) == 0
    out, err = capsys.readouterr()
    assert out == "0\n"
    assert err.startswith("a.cu:2:23: warning: extern declaration of the entity base is treated as a static "
                          "definition\n")


def test_a_cpp_unit_is_host_cpp(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cpp").write_text("__global__ void k(int *p) { }\nint main() { k<<<1, 1>>>(0); return 0; }\n")
    assert minicuda_main(["run", "k.cpp"]) == 1
    err = capsys.readouterr().err
    assert "k.cpp:1:1: error: '__global__' does not name a type\n" in err
    assert "k.cpp:2:14: error: a kernel launch ('<<<...>>>') is CUDA syntax, not host code\n" in err
    assert "note: k.cpp is compiled as host C++ by the host compiler; name it .cu or pass -x cu" in err
    assert minicuda_main(["run", "-x", "cu", "k.cpp"]) == 0
    (tmp_path / "m.cpp").write_text("int main() { int *d; return cudaMalloc((void **)&d, 4); }\n")
    assert minicudac_main(["-fsyntax-only", "m.cpp"]) == 1   # no implicit <cuda_runtime.h>
    assert "use of undeclared identifier 'cudaMalloc'" in capsys.readouterr().err


def test_each_language_sees_its_own_predefined_macros(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    probe = "#if defined(__CUDACC__)\ncuda\n#endif\n#if defined(__cplusplus)\ncxx\n#endif\n#ifdef __NVCC__\nnvcc\n#endif\n"
    for name in ("p.cu", "p.cpp", "p.c"):
        (tmp_path / name).write_text(probe)
    assert minicudac_main(["-E", "p.cu", "p.cpp", "p.c"]) == 0
    words = [w for w in capsys.readouterr().out.split() if w in ("cuda", "cxx", "nvcc")]
    assert words == ["cuda", "cxx", "nvcc", "cxx", "nvcc", "nvcc"]


def test_check_and_syntax_only_take_several_files(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "good.cu").write_text("int main() { return 0; }\n")
    (tmp_path / "bad.cpp").write_text("int f() { return y; }\n")
    (tmp_path / "bad2.c").write_text("int g() { return z; }\n")
    assert minicuda_main(["check", "good.cu", "bad.cpp", "bad2.c"]) == 1
    err = capsys.readouterr().err
    assert "bad.cpp:1:18: error: use of undeclared identifier 'y'" in err
    assert "bad2.c:1:18: error: use of undeclared identifier 'z'" in err
    assert minicudac_main(["-fsyntax-only", "good.cu", "good.cu"]) == 0


def test_c_and_cpp_names_link_alike_both_ways(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.c").write_text('#include <stdio.h>\nint from_cpp(int);\n'
                                  'int main(void) { printf("%d\\n", from_cpp(20)); return 0; }\n')
    (tmp_path / "f.cpp").write_text("int from_c(int x);\nint from_cpp(int x) { return from_c(x) + 1; }\n")
    (tmp_path / "g.c").write_text("int from_c(int x) { return 2 * x; }\n")
    assert minicuda_main(["run", "m.c", "f.cpp", "g.c"]) == 0
    assert capsys.readouterr().out == "41\n"


GLOBALS_A = """\
#include <cstdio>
#include "log.h"
Log la("a1");
int twice(int x);
int ga = twice(21);
int main() { printf("main ga=%d\\n", ga); return 0; }
"""
GLOBALS_B = """\
#include <cstdio>
#include "log.h"
Log lb("b1");
int twice(int x) { printf("twice\\n"); return 2 * x; }
Log lb2("b2");
"""
LOG_H = """\
#pragma once
#include <cstdio>
struct Log {                                       // members defined in the class: one copy kept
    const char *n;
    Log(const char *s) : n(s) { printf("init %s\\n", n); }
    ~Log() { printf("fini %s\\n", n); }
};
"""


@pytest.mark.parametrize("order,expected", [
    (["a.cu", "b.cu"], "init a1\ntwice\ninit b1\ninit b2\nmain ga=42\nfini b2\nfini b1\nfini a1\n"),
    (["b.cu", "a.cu"], "init b1\ninit b2\ninit a1\ntwice\nmain ga=42\nfini a1\nfini b2\nfini b1\n"),
])
def test_each_units_global_initialisers_run_in_command_line_order(tmp_path, monkeypatch, capsys, order, expected):
    """As g++ a.cu b.cu orders them: each unit's in definition order, the units in the
    order given; the global objects destroyed in reverse after main."""
    monkeypatch.chdir(tmp_path)
    for name, text in {"a.cu": GLOBALS_A, "b.cu": GLOBALS_B, "log.h": LOG_H}.items():
        (tmp_path / name).write_text(text)
    assert minicuda_main(["run"] + order) == 0
    assert capsys.readouterr() == (expected, "")

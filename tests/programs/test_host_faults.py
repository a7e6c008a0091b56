"""Faults as the H100 and its x86-64 host report them (tests/data/groundtruth/issue12/, nvcc 13.0,
go.sh there): host code dies by SIGSEGV, SIGFPE or SIGABRT with the shell's line and status, and
minicuda's note says what the pointer was; the CUDA runtime returns its errors (apierrors.cu) and a
kernel's fault or failed assert sticks (kassert.cu); both engines alike."""
import pytest

from helpers import GROUNDTRUTH_DIR
from minicuda.cli import minicuda_main

ISSUE12 = GROUNDTRUTH_DIR / "issue12"
ENGINES = ["interp", "jit"]


def measured(name: str) -> str:
    """The program's stdout on the H100: the recorded output less go.sh's lines."""
    lines = (ISSUE12 / "out" / name).read_text().splitlines(keepends=True)
    return "".join(l for l in lines if not l.startswith(("$ ", "exit ", "bash: ", "go.sh: ", "status ")))


# case of hostfaults.cu: (status, the line minicuda's error names, its note)
HOST_FAULTS = {
    0: (139, ":10:32: error: segmentation fault in 'main': out-of-bounds access, store of 4 bytes at address 0x0",
        "note: the pointer is NULL"),
    1: (139, ":11:64: error: segmentation fault in 'main': device memory accessed in host code, load of 4 bytes",
        "note: a device pointer from cudaMalloc(16) at line 11, dereferenced on the host"),
    5: (139, ":15:", "note: the pointer is to a string literal (read-only)"),
    6: (139, ":16:", "note: the pointer is NULL plus 4660"),
    9: (139, ":19:", "note: a device pointer from cudaMalloc(16) at line 19, dereferenced on the host"),
    2: (136, ":12:", None),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", sorted(HOST_FAULTS))
def test_host_faults_are_the_native_programs_signals_with_a_note(case, engine, capsys):
    status, error, note = HOST_FAULTS[case]
    assert minicuda_main(["run", "--engine", engine, str(ISSUE12 / "hostfaults.cu"), str(case)]) == status
    captured = capsys.readouterr()
    assert captured.out == measured(f"hostfaults{case}.txt") == f"case {case}\n"
    err = captured.err.splitlines()
    assert err[-1] == {139: "Segmentation fault", 136: "Floating point exception"}[status]
    assert error in err[0] and err[0].startswith(str(ISSUE12 / "hostfaults.cu"))
    if note:
        assert err[1].endswith(note) and len(err) == 3


def test_use_after_free_on_the_host_is_a_segmentation_fault_with_where_it_was_freed(capsys):
    """Natively undefined (gcc -O3 removed the store: hostfaults7.txt); minicuda reports it, as ASan would."""
    assert minicuda_main(["run", str(ISSUE12 / "hostfaults.cu"), "8"]) == 139
    err = capsys.readouterr().err
    assert "note: a host pointer from malloc(16) at line 18, freed at line 18" in err


def test_a_failed_host_assert_is_glibcs_message_and_abort(capsys):
    assert minicuda_main(["run", str(ISSUE12 / "hostfaults.cu"), "4"]) == 134
    captured = capsys.readouterr()
    assert captured.out == "case 4\n" and measured("hostfaults4.txt").startswith("case 4\nhostfaults: hostfaults.cu:14: ")
    assert captured.err.endswith("hostfaults.cu:14: int main(int, char**): Assertion `z == 1' failed.\nAborted\n")
    assert captured.err.startswith("hostfaults.cu: ")   # the program's name: argv[0]'s last part


@pytest.mark.parametrize("engine", ENGINES)
def test_runtime_api_errors_are_returned_as_cuda_returns_them(engine, capsys):
    assert minicuda_main(["run", "--engine", engine, str(ISSUE12 / "apierrors.cu")]) == 0
    captured = capsys.readouterr()
    assert captured.out == measured("apierrors.txt")
    assert ":4:41: note: a host pointer from malloc(128) at line 34, dereferenced in device code" in captured.err


KASSERT = (ISSUE12 / "kassert.cu").read_text().replace(   # each block reads its own part: no race between blocks
    "int x = p[threadIdx.x]; assert(x != 3); p[threadIdx.x] = x + 1;",
    "int i = blockIdx.x * blockDim.x + threadIdx.x; int x = p[i]; assert(x != 3); p[i] = x + 1;")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_failed_kernel_assert_prints_each_thread_and_sticks(engine, tmp_path, monkeypatch, capsys):
    (tmp_path / "kassert.cu").write_text(KASSERT)
    assert KASSERT != (ISSUE12 / "kassert.cu").read_text()
    monkeypatch.chdir(tmp_path)   # __FILE__ is the name given, as nvcc was given it in go.sh
    assert minicuda_main(["run", "--engine", engine, "kassert.cu"]) == 0
    assert capsys.readouterr().out == measured("kassert.txt")


CUDA_ARGS = r"""#include <stdio.h>
__device__ int g[4];
int main() {
    int *d; cudaEvent_t e; int h[4] = {1, 2, 3, 4};
    cudaMalloc(&d, 16);
    printf("%d\n", (int)cudaMemset(d, 0, 17));
    printf("%d\n", (int)cudaMemcpyToSymbol(g, h, 20));
    printf("%d\n", (int)cudaMemcpyToSymbol(g, h, 16, 0, cudaMemcpyDeviceToHost));
    printf("%d\n", (int)cudaMemcpyFromSymbol(h, g, 16));
    printf("%d\n", (int)cudaGetDeviceCount(NULL));
    printf("%d\n", (int)cudaEventRecord(e = (cudaEvent_t)0));
    printf("%d %d\n", (int)cudaFreeHost(d), (int)cudaGetLastError());
    printf("%d\n", (int)cudaGetLastError());
    return 0;
}
"""


def test_cuda_calls_check_their_arguments(tmp_path, capsys):
    """CUDA's codes: invalid value 1, invalid copy direction 21, invalid handle 400."""
    f = tmp_path / "args.cu"
    f.write_text(CUDA_ARGS)
    assert minicuda_main(["run", str(f)]) == 0
    assert capsys.readouterr().out == "1\n1\n21\n0\n1\n400\n1 1\n0\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_string_literal_as_char_pointer_compiles_with_a_warning_and_a_write_to_it_faults(engine, capsys):
    """strlit.cu: nvcc 13 accepts `char *s = "hello";`; the write is SIGSEGV (out/strlit.txt)."""
    assert minicuda_main(["run", "--engine", engine, str(ISSUE12 / "strlit.cu")]) == 139
    captured = capsys.readouterr()
    assert captured.out == measured("strlit.txt") == ""
    err = captured.err.splitlines()
    assert err[0].endswith("strlit.cu:2:24: warning: ISO C++11 does not allow conversion from string literal to "
                           "'char *' [-Wwritable-strings]")
    assert err[-3].endswith(":2:35: error: segmentation fault in 'main': write to read-only memory, store of 1 bytes "
                            "at address 0x20000000")
    assert err[-2].endswith(":2:35: note: the pointer is to a string literal (read-only)")
    assert err[-1] == "Segmentation fault"


FREE_TWICE = r"""#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int *p = (int *)malloc(16);
    free(p);
    printf("once\n");
    if (argc > 1) free(p + 1); else free(p);
    printf("twice\n");
    return 0;
}
"""


@pytest.mark.parametrize("argv,message", [([], "free(): double free detected in tcache 2"),
                                          (["inside"], "free(): invalid pointer")])
def test_a_bad_free_is_glibcs_report_and_abort(argv, message, tmp_path, capsys):
    f = tmp_path / "free.cu"
    f.write_text(FREE_TWICE)
    assert minicuda_main(["run", str(f)] + argv) == 134
    captured = capsys.readouterr()
    assert captured.out == "once\n" and captured.err == f"{message}\nAborted\n"


DEVICE_VARIABLE = r"""#include <stdio.h>
__device__ int g = 5;
__global__ void k(int *p) { g = 7; p[0] = g; }
int main() {
    int *d;
    cudaMalloc(&d, 4);
    k<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    printf("%d\n", g > 0);
    printf("%d\n", d[0]);
    return 0;
}
"""


def test_host_code_reads_a_device_variable_by_name_but_not_device_memory(tmp_path, capsys):
    """nvcc gives host code a shadow of `g` (with a warning); a cudaMalloc pointer is SIGSEGV."""
    f = tmp_path / "dv.cu"
    f.write_text(DEVICE_VARIABLE)
    assert minicuda_main(["run", str(f)]) == 139
    captured = capsys.readouterr()
    assert captured.out == "1\n"
    assert "dv.cu:10:22: note: a device pointer from cudaMalloc(4) at line 6, dereferenced on the host" in captured.err

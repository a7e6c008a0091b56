"""`minicuda run` of recursive programs: a host stack overflow dies as a native program
does (SIGSEGV: "Segmentation fault", exit 139), a device one as CUDA reports it."""
from helpers import GROUNDTRUTH_DIR
from minicuda.cli import minicuda_main

OVERFLOW = r"""#include <cstdio>
int deep(int n) {
  char buf[1 << 20];
  buf[n & 1023] = 1;
  return deep(n + 1) + buf[n & 1023];
}
int main() {
  printf("start\n");
  return deep(0);
}
"""


def test_host_stack_overflow_is_sigsegv(tmp_path, capsys):
    f = tmp_path / "x.cu"
    f.write_text(OVERFLOW)
    assert minicuda_main(["run", str(f)]) == 139
    captured = capsys.readouterr()
    assert captured.out == "start\n"
    assert captured.err.splitlines() == [
        f"{f}:5:10: error: host stack overflow in 'deep': the call at depth 9 needs 1048608 bytes more of the "
        f"8 MiB stack", "Segmentation fault"]


def test_device_stack_overflow_is_cudas_sticky_error(capsys):
    """As on the H100 (h100_run2.txt): the sync returns the error, which sticks, and main returns 0."""
    stack_cu = str(GROUNDTRUTH_DIR / "faults" / "stack.cu")
    assert minicuda_main(["run", stack_cu, "40"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ("default stack limit 1024\nlaunch: cudaSuccess no error\nsync: cudaErrorIllegalAddress an "
                            "illegal memory access was encountered\nresult -1\nafter: cudaErrorIllegalAddress\n")
    assert "stack.cu:7:11: error: cudaErrorIllegalAddress: an illegal memory access was encountered in kernel " \
           "'k', block (0, 0, 0), thread (0, 0, 0): stack overflow: the call of 'rec'" in captured.err

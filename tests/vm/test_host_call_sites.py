"""The host thread's runtime calls under the JIT go through call sites decoded once
(vm/jit/host_calls.py); the same site run again and again answers as the interpreter's
CALL.RT does: returned errors, the sticky error a kernel's fault leaves, SIGSEGV with
its note, glibc's report of a bad free, and small allocations (cut from shared chunks,
vm/memory.py) zeroed, apart and bounded."""
import pytest

from minicuda.cli import minicuda_main
from minicuda.vm.memory import ARENA_MAX, Memory

ENGINES = ["interp", "jit"]

ERRORS = r"""#include <stdio.h>
#include <stdlib.h>
__global__ void bad(int *p) { p[threadIdx.x + (1 << 28)] = 1; }
int main() {
  int *d[8]; int *h = (int *)malloc(16);
  for (int i = 0; i < 8; i++) {
    int e = cudaMalloc(i % 3 == 1 ? (int **)0 : &d[i], 16);
    int f = cudaFree(i % 4 == 2 ? h : (i % 3 == 1 ? 0 : d[i]));
    printf("%d %d %d %d\n", i, e, f, cudaGetLastError());
    if (i == 4) bad<<<1, 1>>>(h);
  }
  return 0; }
"""


def run(tmp_path, capsys, engine: str, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "p.cu"
    path.write_text(text)
    status = minicuda_main(["run", "--engine", engine, str(path), *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_site_run_again_returns_each_calls_error_and_then_the_sticky_one(tmp_path, capsys):
    runs = [run(tmp_path, capsys, engine, ERRORS) for engine in ENGINES]
    assert runs[0] == runs[1]
    status, out, err = runs[1]
    assert status == 0
    # NULL pp and a host pointer freed: invalid value (1); the kernel's fault (700) from cudaFree on
    assert out.splitlines() == ["0 0 0 0", "1 1 0 1", "2 0 1 1", "3 0 0 0", "4 1 0 1",
                                "5 0 700 700", "6 700 700 700", "7 700 700 700"]
    assert "cudaErrorIllegalAddress" in err


SEGV = r"""#include <stdio.h>
#include <stdlib.h>
int main() {
  int *p[4];
  for (int i = 0; i < 4; i++) {
    int **pp = (int **)malloc(sizeof(int *));
    if (i == 2) free(pp);
    printf("%d %d\n", i, cudaMalloc(pp, 64));
  }
  return 0; }
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_bad_pointer_at_a_site_used_before_is_sigsegv_with_its_note(tmp_path, capsys, engine):
    status, out, err = run(tmp_path, capsys, engine, SEGV)
    assert (status, out) == (139, "0 0\n1 0\n")
    assert "p.cu:8:" in err and "segmentation fault in cudaMalloc()" in err
    assert "note: a host pointer from malloc(8) at line 6, freed at line 7" in err


DOUBLE_FREE = r"""#include <stdio.h>
#include <stdlib.h>
int main() {
  int *q = 0;
  for (int i = 0; i < 3; i++) {
    if (i < 2) { q = (int *)malloc(32); q[0] = i; printf("%d\n", q[0]); }
    free(q);
  }
  return 0; }
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_double_free_at_a_site_used_before_is_glibcs_abort(tmp_path, capsys, engine):
    status, out, err = run(tmp_path, capsys, engine, DOUBLE_FREE)
    assert status == 134
    assert out.startswith("0\n1\n")
    assert "free(): double free detected in tcache 2" in err


SMALL = r"""#include <stdio.h>
#include <stdlib.h>
int main() {
  long s = 0;
  for (int i = 0; i < 300; i++) {
    int *q = (int *)malloc(4 * (i % 70 + 1));
    s += q[0] + q[i % 70];
    q[0] = q[i % 70] = i;
    if (i % 2) free(q);
  }
  int *a = (int *)malloc(16), *b = (int *)malloc(16);
  b[0] = 7;
  printf("%ld %d\n", s, b[0]);
  a[4] = 1;
  return 0; }
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_small_allocations_start_zeroed_and_an_overrun_into_the_next_still_faults(tmp_path, capsys, engine):
    status, out, err = run(tmp_path, capsys, engine, SMALL)
    assert (status, out) == (139, "0 7\n")
    assert "p.cu:14:5: note: the address is 0 bytes past the end of malloc(16) at line 11 (16 bytes)" in err


def test_small_allocations_share_chunks_and_keep_their_own_bytes():
    memory = Memory(limit=1 << 30)
    addresses = [memory.alloc(size, "host", align=16) for size in (1, 16, ARENA_MAX, ARENA_MAX + 1, 3)]
    allocations = [memory.find(a) for a in addresses]
    assert [len(a.data) for a in allocations] == [1, 16, ARENA_MAX, ARENA_MAX + 1, 3]
    assert allocations[0].data.base is allocations[1].data.base is not None   # one chunk
    assert allocations[3].data.base is None                                  # too large: its own
    for a in allocations:
        a.data[:] = 0xAB
    memory.write(addresses[1], bytes(range(16)))
    assert memory.read(addresses[1], 16) == bytes(range(16))
    assert memory.read(addresses[0], 1) == b"\xab" and memory.read(addresses[2], 4) == b"\xab" * 4
    assert memory.free(addresses[1], "host") and len(memory.find(addresses[1]).data) == 0

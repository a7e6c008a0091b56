"""The host thread's memory instructions keep the range of the allocation they last
found in registers (vm/jit/memory.py's `scalar_pointer`): a loop that moves between
allocations, walks off the end of one, or uses one after a free sees what the
interpreter sees, results, faults and their notes alike."""
import pytest

from minicuda.cli import minicuda_main

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
float sum(float *p, int n) {            // one load site, two allocations by turns
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}
int main(int argc, char **argv) {
    int mode = atoi(argv[1]);
    int n = 200;
    float *a = (float *)malloc(n * sizeof(float));
    float *b = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
    float t = 0.0f;
    for (int k = 0; k < 4; k++) t += sum(k & 1 ? b : a, n);
    float *q = a;
    for (int i = 0; i < 2 * n; i++) q[i % n] += (i & 1) ? b[i % n] : 1.0f;   // stores, two loads
    printf("%.1f %.1f %.1f\n", t, a[0], a[n - 1]);
    if (mode == 1) printf("%.1f\n", sum(a, n + 1));            // past the end, in the loop
    if (mode == 2) { free(b); printf("%.1f\n", sum(b, n)); }   // the range held before the free
    if (mode == 3) { char *c = (char *)a; printf("%d\n", *(int *)(c + 2)); }   // misaligned
    return 0;
}
"""


def run(tmp_path, capsys, engine: str, mode: int) -> tuple[int, str, str]:
    src = tmp_path / "ranges.cu"
    src.write_text(PROGRAM)
    status = minicuda_main(["run", "--engine", engine, str(src), str(mode)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_host_loops_over_several_allocations_match_the_interpreter(tmp_path, capsys, mode):
    native = run(tmp_path, capsys, "jit", mode)
    assert native == run(tmp_path, capsys, "interp", mode)
    assert native[1].startswith("119400.0 2.0 995.0\n")
    if mode:
        assert native[0] != 0 and "error:" in native[2]

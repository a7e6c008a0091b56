"""Integer division by zero, whole programs: in kernels the values the GPU gives (the H100's
output in tests/data/groundtruth/faults/h100_run1.txt, -O3 and -G, both engines); in host
code SIGFPE as a native x86-64 program dies (exit 136); `--tool memcheck` reports a kernel's
division by zero once per instruction and the run goes on."""
import pytest

from helpers import GROUNDTRUTH_DIR
from minicuda.cli import minicuda_main

H100 = (GROUNDTRUTH_DIR / "faults" / "h100_run1.txt").read_text().splitlines()

# divzero.cu's kernels and values, written for minicuda (it has no kernel template parameters)
DIVZERO = r"""
#include <cstdio>
#include <climits>
#define LL_MIN (-9223372036854775807LL - 1)
#define LL_MAX 9223372036854775807LL
#define KERNEL(name, T) __global__ void name(const T *a, const T *b, T *q, T *r, int n) { \
  int i = threadIdx.x; if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; } }
KERNEL(divs, int)
KERNEL(divu, unsigned)
KERNEL(divl, long long)
KERNEL(divul, unsigned long long)
#define RUN(kern, T, ha, hb, n, fmt) { \
  T *da, *db, *dq, *dr; size_t s = n * sizeof(T); \
  cudaMalloc(&da, s); cudaMalloc(&db, s); cudaMalloc(&dq, s); cudaMalloc(&dr, s); \
  cudaMemcpy(da, ha, s, cudaMemcpyHostToDevice); cudaMemcpy(db, hb, s, cudaMemcpyHostToDevice); \
  kern<<<1, 32>>>(da, db, dq, dr, n); \
  T hq[16], hr[16]; \
  cudaMemcpy(hq, dq, s, cudaMemcpyDeviceToHost); cudaMemcpy(hr, dr, s, cudaMemcpyDeviceToHost); \
  for (int i = 0; i < n; i++) printf(fmt, ha[i], hb[i], hq[i], hr[i]); }
int main() {
  int a[] = {7, -7, 0, INT_MIN, INT_MAX, INT_MIN, 1};
  int b[] = {0, 0, 0, 0, 0, -1, 0};
  RUN(divs, int, a, b, 7, "  %d / %d = %d rem %d\n");
  unsigned ua[] = {7u, 0u, 0xffffffffu, 0x80000000u};
  unsigned ub[] = {0u, 0u, 0u, 0u};
  RUN(divu, unsigned, ua, ub, 4, "  %u / %u = %u rem %u\n");
  long long la[] = {7, -7, 0, LL_MIN, LL_MAX, LL_MIN};
  long long lb[] = {0, 0, 0, 0, 0, -1};
  RUN(divl, long long, la, lb, 6, "  %lld / %lld = %lld rem %lld\n");
  unsigned long long ula[] = {7, 0, ~0ull};
  unsigned long long ulb[] = {0, 0, 0};
  RUN(divul, unsigned long long, ula, ulb, 3, "  %llu / %llu = %llu rem %llu\n");
  return 0;
}
"""


def gpu_values(build: str) -> list[str]:
    """The H100's result lines for divzero.cu built with `build` (-O3 or -G)."""
    start = H100.index(f"+ nvcc {build} -arch=sm_90 -o divzero divzero.cu")
    lines = []
    for line in H100[start + 2:]:
        if line.startswith("+"):
            break
        if line.startswith("  "):
            lines.append(line)
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["jit", "interp"])
@pytest.mark.parametrize("build", ["-O3", "-G"])
def test_kernel_division_by_zero_gives_the_gpus_values(tmp_path, capsys, engine, build):
    f = tmp_path / "divzero.cu"
    f.write_text(DIVZERO)
    flags = ["-G"] if build == "-G" else []
    assert minicuda_main(["run", str(f), "--engine", engine] + flags) == 0
    out = capsys.readouterr().out.splitlines()
    expected = gpu_values(build)
    assert len(expected) == 20 and out == expected


HOST = r"""#include <cstdio>
#include <climits>
int main(int argc, char **argv) {
  int z = argc - 1, m = INT_MIN + (argc != 3);
  printf("before\n");
  if (argc == 3) printf("%d\n", m / -1);
  printf("x=%d\n", 100 / z);
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_host_division_by_zero_is_sigfpe(tmp_path, capsys, engine):
    f = tmp_path / "x.cu"
    f.write_text(HOST)
    assert minicuda_main(["run", str(f), "--engine", engine]) == 136
    captured = capsys.readouterr()
    assert captured.out == "before\n"
    assert captured.err.splitlines()[-2:] == [f"{f}:7:20: error: integer division by zero in 'main'",
                                              "Floating point exception"]
    assert minicuda_main(["run", str(f), "--engine", engine, "a"]) == 0
    assert capsys.readouterr().out == "before\nx=100\n"
    # INT_MIN / -1 overflows: x86-64's idiv traps on it too
    assert minicuda_main(["run", str(f), "--engine", engine, "a", "b"]) == 136
    assert "integer division overflow (INT_MIN / -1) in 'main'" in capsys.readouterr().err


MEMCHECK = r"""#include <cstdio>
__global__ void k(const int *b, int *q) {
  int i = threadIdx.x;
  q[i] = 100 / b[i];
  q[i] += 7 % b[i];
}
int main() {
  int hb[64], hq[64];
  for (int i = 0; i < 64; i++) hb[i] = i % 3 == 1 ? 0 : 1;
  int *b, *q; cudaMalloc(&b, sizeof hb); cudaMalloc(&q, sizeof hq);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  k<<<2, 32>>>(b, q);
  cudaMemcpy(hq, q, sizeof hq, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", hq[0], hq[1], hq[63]);
  return 0;
}
"""


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_memcheck_reports_a_kernel_division_by_zero_once_per_instruction(tmp_path, capsys, engine):
    f = tmp_path / "m.cu"
    f.write_text(MEMCHECK)
    assert minicuda_main(["run", str(f), "--engine", engine]) == 0
    plain = capsys.readouterr()
    assert plain.out == "100 -2 0\n" and "=========" not in plain.err
    assert minicuda_main(["run", str(f), "--engine", engine, "--tool", "memcheck"]) == 0   # warnings: status 0
    checked = capsys.readouterr()
    assert checked.out == plain.out   # the run goes on, with the GPU's values
    assert checked.err == "".join(
        f"========= Integer division by zero\n=========     at {f}:{line}:{col} in 'k'\n"
        f"=========     by thread (1,0,0) in block (0,0,0)\n=========\n" for line, col in ((4, 10), (5, 11))
    ) + "========= ERROR SUMMARY: 0 errors\n"   # division by zero is a warning: the status stays 0

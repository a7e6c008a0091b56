"""fold-conditions' range checks and selects (passes/fold_conditions.py): two compares of one
value with constants become one unsigned compare of a shifted value, and a branch whose target
is only copies a SEL; the results must be those of the source on both engines, at the edges of
every interval (negative bounds, one side open, the complement of a range, unsigned values)."""
import pytest

from minicuda.cli import minicuda_main, minicudac_main

PROGRAM = r"""
#include <cstdio>
__device__ int classify(int v, unsigned u, int x) {
  int k = 0;
  if (v >= -3 && v < 4) k |= 1;
  if (v < -2 || v >= 3) k |= 2;
  if ((v >= 10 && v < 20) || (v >= -20 && v < -10) || x > 40) k |= 4;
  if (v > -2147483647 && v < 0) k |= 8;
  if (u >= 5u && u < 4000000000u) k |= 16;
  if (v != 7 && v > 2) k |= 32;
  return k;
}
__global__ void ranges(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = classify(in[i], (unsigned)in[i], in[(i + 1) % n]);
}
int main() {
  const int n = 96;
  int h[n], o[n];
  for (int i = 0; i < n; i++) h[i] = i < 48 ? i - 24 : (i % 2 ? -2147483647 - (i % 2) : 2147483647 - i);
  int *d, *e;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&e, sizeof(o));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  ranges<<<3, 32>>>(d, e, n);
  cudaMemcpy(o, e, sizeof(o), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%d\n", o[i]);
  return 0;
}
"""


def classify(v: int, x: int) -> int:
    """The kernel's `classify`, in Python (the host code would go through the same passes)."""
    u = v & 0xFFFFFFFF
    return ((-3 <= v < 4) | (v < -2 or v >= 3) << 1 | (10 <= v < 20 or -20 <= v < -10 or x > 40) << 2
            | (-2147483647 < v < 0) << 3 | (5 <= u < 4000000000) << 4 | (v != 7 and v > 2) << 5)


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_range_checks_and_selects_keep_the_results(tmp_path, capsys, engine):
    source = tmp_path / "ranges.cu"
    source.write_text(PROGRAM)
    assert minicuda_main(["run", str(source), "-O3", "--engine", engine]) == 0
    h = [i - 24 if i < 48 else (-2147483647 - (i % 2) if i % 2 else 2147483647 - i) for i in range(96)]
    assert [int(x) for x in capsys.readouterr().out.split()] == [classify(h[i], h[(i + 1) % 96]) for i in range(96)]


def test_two_bands_are_range_checks_and_one_predicate(tmp_path, capsys):
    source = tmp_path / "bands.cu"
    source.write_text("__global__ void bands(const int *in, int *out) {\n  int v = in[threadIdx.x], k = 0;\n"
                      "  if ((v >= 10 && v < 20) || (v >= 40 && v < 50)) k = 1;\n  out[threadIdx.x] = k;\n}\n")
    assert minicudac_main([str(source), "-O3", "-arch", "sm_90", "--emit", "sass-like", "-o", "-"]) == 0
    kernel = capsys.readouterr().out
    assert kernel.count("ISETP.LT.U32") == 2 and "IADD.S32" in kernel and " BRA" not in kernel

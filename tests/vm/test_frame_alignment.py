"""Each thread's local frame follows the one before it, so a frame's size is a multiple of
its largest slot alignment: a float array after a char array, or a char2 built by
make_char2 after a float2, keeps its alignment in every thread (before, thread 1's float
stores faulted with cudaErrorMisalignedAddress)."""
import pytest

from minicuda.cli import minicuda_main

SOURCE = r'''#include <stdio.h>
__global__ void k(int *o, float2 f) {
  float a[2]; char c[2];
  a[0] = threadIdx.x; a[1] = f.x; c[0] = 1; c[1] = threadIdx.x;
  char2 p = make_char2(threadIdx.x, 3);
  o[threadIdx.x] = (int)a[threadIdx.x % 2] + c[threadIdx.x % 2] + p.x * p.y;
}
int main() {
  int *d, h[4];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 4>>>(d, make_float2(10.0f, 0.0f));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
  return 0;
}
'''


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_every_threads_frame_keeps_its_slots_aligned(tmp_path, capsys, engine):
    f = tmp_path / "prog.cu"
    f.write_text(SOURCE)
    code = minicuda_main(["run", "--engine", engine, str(f)])
    out = capsys.readouterr()
    # thread i: a[i % 2] + c[i % 2] + 3i = (0 + 1 + 0), (10 + 1 + 3), (2 + 1 + 6), (10 + 3 + 9)
    assert (code, out.out, out.err) == (0, "1 14 9 22\n", "")

"""The runtime API beyond streams and host memory (`minicuda run`, both engines): pitched
memory, host callbacks, stream priorities, symbols, pointer attributes, a kernel's attributes
and occupancy, device flags, the profiler calls.  Expected values are CUDA's (the runtime
API's documentation, cuda_runtime.h's occupancy loop); the occupancy of a small kernel is the
same on every GPU from Volta on (2048 threads and 32 blocks per SM)."""
import pytest

from helpers.run_source import run
from minicuda.cli import minicuda_main

ENGINES = ["jit", "interp"]


@pytest.mark.parametrize("engine", ENGINES)
def test_pitched_copies_and_fills(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
__global__ void bump(float *p, size_t pitch) {
  float *row = (float *)((char *)p + blockIdx.x * pitch);
  row[threadIdx.x] += 10.0f;
}
int main() {
  float *d; size_t pitch;
  printf("%d %zu\n", (int)cudaMallocPitch((void **)&d, &pitch, 5 * sizeof(float), 3), pitch);
  float h[15]; for (int i = 0; i < 15; i++) h[i] = i;
  printf("%d ", (int)cudaMemcpy2D(d, pitch, h, 20, 20, 3, cudaMemcpyHostToDevice));
  bump<<<3, 5>>>(d, pitch);
  printf("%d\n", (int)cudaMemcpy2D(h, 20, d, pitch, 20, 3, cudaMemcpyDeviceToHost));
  printf("%.0f %.0f %.0f\n", h[0], h[7], h[14]);
  printf("%d %d ", (int)cudaMemcpy2D(h, 16, d, pitch, 20, 3, cudaMemcpyDeviceToHost), (int)cudaGetLastError());
  printf("%d ", (int)cudaMemcpy2D(h, 20, d, pitch, 20, 4, cudaMemcpyDeviceToHost));
  printf("%d ", (int)cudaMemset2D(d, pitch, 0, 8, 3));
  printf("%d\n", (int)cudaMemcpy2DAsync(h, 20, d, pitch, 20, 3, cudaMemcpyDeviceToHost, 0));
  printf("%.0f %.0f %.0f\n", h[0], h[2], h[6]);
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["0 512", "0 0", "10 17 24", "12 12 1 0 0", "0 12 0"]


@pytest.mark.parametrize("engine", ENGINES)
def test_host_callbacks_run_in_stream_order(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
__global__ void set(int *p, int v) { *p = v; }
void CUDART_CB after(void *data) { printf("host function sees %d\n", *(int *)data); }
void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *data) { printf("callback %d %d\n", (int)status, *(int *)data); }
int main() {
  int *m; cudaMallocManaged(&m, sizeof(int));
  cudaStream_t s; cudaStreamCreate(&s);
  set<<<1, 1, 0, s>>>(m, 42);
  printf("%d\n", (int)cudaLaunchHostFunc(s, after, m));
  cudaStreamAddCallback(s, callback, m, 0);
  cudaStreamSynchronize(s);
  printf("%d %d %d\n", (int)cudaStreamAddCallback(s, callback, m, 1), (int)cudaLaunchHostFunc(s, NULL, m),
         (int)cudaLaunchHostFunc((cudaStream_t)0x1234, after, m));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["host function sees 42", "0", "callback 0 42", "1 1 400"]


@pytest.mark.parametrize("engine", ENGINES)
def test_stream_priorities_are_clamped_into_the_range(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
int main() {
  int least, greatest;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t hi, lo, plain;
  cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, -100);
  cudaStreamCreateWithPriority(&lo, cudaStreamDefault, 7);
  cudaStreamCreate(&plain);
  int a, b, c; unsigned f, g;
  cudaStreamGetPriority(hi, &a); cudaStreamGetPriority(lo, &b); cudaStreamGetPriority(plain, &c);
  cudaStreamGetFlags(hi, &f); cudaStreamGetFlags(lo, &g);
  printf("%d %d | %d %d %d | %u %u | %d\n", least, greatest, a, b, c, f, g,
         (int)cudaStreamCreateWithPriority(&hi, 2, 0));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out == "0 -5 | -5 0 0 | 1 0 | 1\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_symbols_and_pointer_attributes(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
__device__ int table[8];
__constant__ float weights[5];
__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x * 3; }
int main() {
  int *p; size_t n;
  printf("%d ", (int)cudaGetSymbolAddress((void **)&p, table));
  printf("%d %zu ", (int)cudaGetSymbolSize(&n, weights), n);
  fill<<<1, 8>>>(p);
  int h[8]; cudaMemcpyFromSymbol(h, table, sizeof h);
  printf("%d %d\n", h[1], h[7]);
  int *d, *pinned, *managed, local = 0;
  cudaMalloc(&d, 4); cudaMallocHost(&pinned, 4); cudaMallocManaged(&managed, 4);
  cudaPointerAttributes a;
  int *ptrs[4] = {d, pinned, managed, &local};
  for (int i = 0; i < 4; i++) {
    cudaPointerGetAttributes(&a, ptrs[i]);
    printf("%d %d %d %d\n", (int)a.type, a.device, a.devicePointer == ptrs[i], a.hostPointer == ptrs[i]);
  }
  return 0;
}
''')
    assert (code, err) == (0, "")   # no warning that host code reads the __device__ variable
    assert out.splitlines() == ["0 0 20 3 21", "2 0 1 0", "1 0 1 1", "3 0 1 1", "0 -2 0 0"]


@pytest.mark.parametrize("engine", ENGINES)
def test_kernel_attributes_and_occupancy(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
__global__ void small(float *p) { p[threadIdx.x] *= 2.0f; }
__global__ void __launch_bounds__(128) bounded(int *p) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x; __syncthreads(); p[threadIdx.x] = s[127 - threadIdx.x];
}
int main() {
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, small);
  printf("%zu %d %zu %d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.localSizeBytes, fa.maxDynamicSharedSizeBytes);
  cudaFuncGetAttributes(&fa, bounded);
  printf("%zu %d %d\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.maxDynamicSharedSizeBytes);
  int sizes[4] = {32, 256, 1024, 192}, blocks;
  for (int i = 0; i < 4; i++) {
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, small, sizes[i], 0);
    printf("%d ", blocks);
  }
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 256, 0);
  printf("%d\n", blocks);
  int sms, grid, block;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, small, 0, 0);
  printf("%d %d ", grid / sms, block);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded);
  printf("%d %d ", grid / sms, block);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, small, 0, 100);
  printf("%d %d\n", grid / sms, block);
  printf("%d\n", (int)cudaFuncGetAttributes(&fa, (const void *)main));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["0 1024 0 49152", "1024 128 48128", "32 8 2 10 0", "2 1024 16 128 32 64", "98"]


@pytest.mark.parametrize("engine", ENGINES)
def test_device_flags_memory_info_and_profiler(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
#include <cuda_profiler_api.h>
int main() {
  unsigned flags;
  printf("%d ", (int)cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleBlockingSync));
  cudaGetDeviceFlags(&flags);
  printf("%u %d ", flags, (int)cudaSetDeviceFlags(0x3));
  size_t free1, free2, total;
  cudaMemGetInfo(&free1, &total);
  void *d; cudaMalloc(&d, 1 << 20);
  cudaMemGetInfo(&free2, &total);
  printf("%d %d ", free1 <= total, free1 - free2 >= (1 << 20));
  printf("%d %d\n", (int)cudaProfilerStart(), (int)cudaProfilerStop());
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out == "0 12 1 1 1 0 0\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_cuda13_memory_location_forms(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
int main() {
  float *m; cudaMallocManaged(&m, 64);
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0}, cpu = {cudaMemLocationTypeHost, 0};
  cudaMemLocation bad = {cudaMemLocationTypeInvalid, 0}, other = {cudaMemLocationTypeDevice, 3};
  printf("%d %d %d ", (int)cudaMemPrefetchAsync(m, 64, gpu, 0, 0), (int)cudaMemPrefetchAsync(m, 64, cpu, 0),
         (int)cudaMemPrefetchAsync(m, 64, gpu, 1, 0));
  printf("%d %d %d %d\n", (int)cudaMemAdvise(m, 64, cudaMemAdviseSetReadMostly, gpu),
         (int)cudaMemAdvise(m, 64, cudaMemAdviseSetAccessedBy, bad), (int)cudaMemAdvise(m, 64, cudaMemAdviseSetAccessedBy, other),
         (int)cudaMemPrefetchAsync(m, 64, 0));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out == "0 0 1 0 1 101 0\n"


def test_trace_shows_stream_operations_in_the_order_they_run(tmp_path, capsys):
    f = tmp_path / "prog.cu"
    f.write_text(r'''
__global__ void one(int *p) { *p = 1; }
int main() {
  int *d, h; cudaMalloc(&d, 4);
  cudaStream_t a, b; cudaStreamCreate(&a); cudaStreamCreate(&b);
  one<<<1, 1, 0, b>>>(d);
  cudaMemcpyAsync(&h, d, 4, cudaMemcpyDeviceToHost, a);
  cudaStreamSynchronize(b);
  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  return 0;
}
''')
    assert minicuda_main(["run", "--trace", str(f)]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("stream ")]
    assert lines == ["stream 2: launch one<<<(1, 1, 1), (1, 1, 1)>>>", "stream 1: cudaMemcpyAsync",
                     "stream 2: cudaStreamSynchronize", "stream 0: cudaMemcpy"]

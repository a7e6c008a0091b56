"""Streams, pinned, mapped and managed memory, and device management (`minicuda run`, both
engines): CUDA's results and error codes.  Every operation runs when the host issues it, in
program order (a valid schedule of any streams), so a stream is idle between calls.  Expected
values are CUDA's (the runtime API's documentation and cuda_runtime_api.h's enums)."""
import pytest

from helpers.run_source import run

ENGINES = ["jit", "interp"]


ADD_ONE = "__global__ void addOne(int *p, int n) { int i = threadIdx.x; if (i < n) p[i] += 1; }\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_work_on_streams_runs_in_program_order(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, ADD_ONE + r'''
int main() {
  int *h, *d;
  cudaMallocHost((void **)&h, 8 * sizeof(int));
  cudaMalloc(&d, 8 * sizeof(int));
  cudaStream_t s[2];
  for (int i = 0; i < 2; i++) printf("%d ", (int)cudaStreamCreate(&s[i]));
  cudaStream_t nb;
  printf("%d %d\n", (int)cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking), s[0] != s[1]);
  for (int i = 0; i < 8; i++) h[i] = 10 * i;
  for (int k = 0; k < 2; k++) {
    printf("%d ", (int)cudaMemcpyAsync(d + 4 * k, h + 4 * k, 4 * sizeof(int), cudaMemcpyHostToDevice, s[k]));
    addOne<<<1, 4, 0, s[k]>>>(d + 4 * k, 4);
    cudaMemcpyAsync(h + 4 * k, d + 4 * k, 4 * sizeof(int), cudaMemcpyDeviceToHost, s[k]);
  }
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  printf("%d %d ", (int)cudaEventRecord(e, s[0]), (int)cudaStreamWaitEvent(s[1], e, 0));
  printf("%d %d %d\n", (int)cudaStreamSynchronize(s[0]), (int)cudaStreamQuery(s[1]), (int)cudaEventQuery(e));
  for (int i = 0; i < 8; i++) printf("%d ", h[i]);
  printf("\n%d ", (int)cudaMemsetAsync(d, 0, 8 * sizeof(int), nb));
  addOne<<<1, 8, 0, nb>>>(d, 8);
  cudaMemcpyAsync(h, d, 8 * sizeof(int), cudaMemcpyDefault, cudaStreamPerThread);
  cudaDeviceSynchronize();
  printf("%d %d %d\n", h[0], h[7], (int)cudaGetLastError());
  for (int i = 0; i < 2; i++) cudaStreamDestroy(s[i]);
  printf("%d %d\n", (int)cudaStreamDestroy(nb), (int)cudaEventDestroy(e));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["0 0 0 1", "0 0 0 0 0 0 0", "1 11 21 31 41 51 61 71 ", "0 1 1 0", "0 0"]


@pytest.mark.parametrize("engine", ENGINES)
def test_stream_and_event_errors_are_cudas(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, ADD_ONE + r'''
int main() {
  int *d;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaStream_t s;
  printf("%d %d\n", (int)cudaStreamCreate(0), (int)cudaStreamCreateWithFlags(&s, 4));
  cudaStreamCreate(&s);
  cudaStreamDestroy(s);
  printf("%d %d %d %d\n", (int)cudaStreamDestroy(s), (int)cudaStreamSynchronize(s), (int)cudaStreamQuery(s),
         (int)cudaMemsetAsync(d, 0, 16, s));
  cudaGetLastError();
  addOne<<<1, 4, 0, s>>>(d, 4);
  int launch = (int)cudaGetLastError();
  cudaEvent_t a, b;
  cudaEventCreateWithFlags(&a, cudaEventDisableTiming);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  cudaEventRecord(b);
  float ms;
  printf("%d %d %d %d\n", launch, (int)cudaEventElapsedTime(&ms, a, b), (int)cudaEventCreateWithFlags(&a, 4),
         (int)cudaStreamDestroy(0));
  printf("%s\n", cudaGetErrorName(cudaErrorInvalidResourceHandle));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["1 1", "400 400 400 400", "400 400 1 400", "cudaErrorInvalidResourceHandle"]


@pytest.mark.parametrize("engine", ENGINES)
def test_mapped_pinned_memory_is_written_by_a_kernel_directly(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, ADD_ONE + r'''
int main() {
  int *h, *dp;
  printf("%d ", (int)cudaHostAlloc((void **)&h, 4 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < 4; i++) h[i] = i;
  printf("%d %d ", (int)cudaHostGetDevicePointer((void **)&dp, h, 0), dp == h);
  addOne<<<1, 4>>>(dp, 4);
  cudaDeviceSynchronize();
  printf("%d %d %d\n", h[0], h[3], (int)cudaHostAlloc((void **)&h, 4, 8));
  int *m = (int *)malloc(16);
  printf("%d %d\n", (int)cudaHostGetDevicePointer((void **)&dp, m, 0), (int)cudaHostGetDevicePointer((void **)&dp, h, 1));
  printf("%d\n", (int)cudaFreeHost(h));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["0 0 1 1 4 1", "1 1", "0"]


@pytest.mark.parametrize("engine", ENGINES)
def test_registered_host_memory_is_reached_by_kernels_until_unregistered(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, ADD_ONE + r'''
int main() {
  int *m = (int *)malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) m[i] = 5;
  printf("%d %d ", (int)cudaHostRegister(m, 4 * sizeof(int), cudaHostRegisterMapped),
         (int)cudaHostRegister(m, 4 * sizeof(int), 0));
  addOne<<<1, 4>>>(m, 4);
  cudaDeviceSynchronize();
  printf("%d %d ", m[0], m[3]);
  printf("%d %d %d\n", (int)cudaHostUnregister(m), (int)cudaHostUnregister(m), (int)cudaHostRegister(m, 64, 0));
  addOne<<<1, 4>>>(m, 4);
  printf("%d\n", (int)cudaDeviceSynchronize());
  return 0;
}
''')
    assert code == 0
    assert out.splitlines() == ["0 712 6 6 0 713 1", "700"]
    assert "host memory accessed in device code" in err


@pytest.mark.parametrize("engine", ENGINES)
def test_managed_memory_is_reached_from_host_and_device(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, ADD_ONE + r'''
struct Pair { int a, b; };
__global__ void swap(Pair *p) { int t = p->a; p->a = p->b; p->b = t; }
int main() {
  int *x;
  Pair *p;
  printf("%d ", (int)cudaMallocManaged(&x, 4 * sizeof(int)));
  cudaMallocManaged(&p, sizeof(Pair), cudaMemAttachHost);
  for (int i = 0; i < 4; i++) x[i] = 100 + i;
  p->a = 1; p->b = 2;
  printf("%d %d ", (int)cudaMemPrefetchAsync(x, 4 * sizeof(int), 0), (int)cudaMemAdvise(x, 16, cudaMemAdviseSetReadMostly, 0));
  addOne<<<1, 4>>>(x, 4);
  swap<<<1, 1>>>(p);
  cudaDeviceSynchronize();
  printf("%d %d %d %d\n", x[0], x[3], p->a, p->b);
  int *d;
  cudaMalloc(&d, 16);
  printf("%d %d %d %d ", (int)cudaMallocManaged(&x, 0), (int)cudaMallocManaged(&p, 8, 4),
         (int)cudaMemPrefetchAsync(d, 16, 0), (int)cudaMemAdvise(x, 16, 9, 0));
  printf("%d %d\n", (int)cudaMemPrefetchAsync(x, 16, cudaCpuDeviceId), (int)cudaMemPrefetchAsync(x, 16, 3));
  printf("%d %d\n", (int)cudaFree(x), (int)cudaFree(p));
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["0 0 0 101 104 2 1", "1 1 1 1 0 101", "0 0"]


@pytest.mark.parametrize("engine", ENGINES)
def test_device_attributes_agree_with_the_properties_and_versions_are_cuda_13s(tmp_path, capsys, engine):
    code, out, err = run(tmp_path, capsys, engine, r'''
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int sms, major, warp, dimz, smem, count, dev = 7, rt, drv;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  cudaDeviceGetAttribute(&dimz, cudaDevAttrMaxBlockDimZ, 0);
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, 0);
  printf("%d %d %d %d %d\n", sms == prop.multiProcessorCount, major == prop.major, warp, dimz,
         smem == (int)prop.sharedMemPerBlock);
  printf("%d %d %d\n", (int)cudaDeviceGetAttribute(&sms, cudaDevAttrWarpSize, 1),
         (int)cudaDeviceGetAttribute(&sms, (cudaDeviceAttr)9999, 0), (int)cudaDeviceGetAttribute(0, cudaDevAttrWarpSize, 0));
  cudaGetDeviceCount(&count);
  printf("%d %d %d %d ", count, (int)cudaSetDevice(0), (int)cudaGetDevice(&dev), dev);
  printf("%d %d %d %d %d\n", (int)cudaRuntimeGetVersion(&rt), (int)cudaDriverGetVersion(&drv), rt, drv,
         (int)cudaSetDevice(1));
  printf("%d %d\n", prop.canMapHostMemory, (int)cudaDeviceReset());
  return 0;
}
''')
    assert (code, err) == (0, "")
    assert out.splitlines() == ["1 1 32 64 1", "101 1 1", "1 0 0 0 0 0 13000 13000 101", "1 0"]

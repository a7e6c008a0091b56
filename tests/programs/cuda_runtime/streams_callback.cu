// The simpleCallback sample's shape: each of three streams copies its slice in, runs a
// kernel, copies it back and then enqueues a host function (cudaLaunchHostFunc) that
// checks the slice; the host functions record what they saw, and the host prints it once
// every stream is synchronised (callbacks on different streams may run in either order).
// A second stream carries two cudaStreamAddCallback callbacks, which run in stream order.
// Kernel: x[i] = x[i] * 3 + slice.
#include <cstdio>
#include <cuda_runtime.h>

const int SLICES = 3, N = 1024;

struct Work {
    int id;
    int *host;
    int *device;
    cudaStream_t stream;
    int checked;   // written by the host function
};

__global__ void step(int *x, int slice, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 3 + slice;
}

void CUDART_CB check(void *data) {
    Work *w = (Work *)data;
    int good = 0;
    for (int i = 0; i < N; i++)
        if (w->host[i] == i * 3 + w->id) good++;
    w->checked = good;
}

int order[2], calls = 0;
void CUDART_CB note(cudaStream_t stream, cudaError_t status, void *data) {
    order[calls++] = *(int *)data * 10 + (int)status;
}

int main() {
    Work work[SLICES];
    for (int s = 0; s < SLICES; s++) {
        work[s].id = s;
        work[s].checked = -1;
        cudaMallocHost((void **)&work[s].host, N * sizeof(int));
        cudaMalloc((void **)&work[s].device, N * sizeof(int));
        cudaStreamCreate(&work[s].stream);
        for (int i = 0; i < N; i++) work[s].host[i] = i;
    }
    for (int s = 0; s < SLICES; s++) {
        Work &w = work[s];
        cudaMemcpyAsync(w.device, w.host, N * sizeof(int), cudaMemcpyHostToDevice, w.stream);
        step<<<N / 256, 256, 0, w.stream>>>(w.device, s, N);
        cudaMemcpyAsync(w.host, w.device, N * sizeof(int), cudaMemcpyDeviceToHost, w.stream);
        cudaLaunchHostFunc(w.stream, check, &w);
    }
    int one = 1, two = 2;
    cudaStreamAddCallback(work[0].stream, note, &one, 0);
    cudaStreamAddCallback(work[0].stream, note, &two, 0);
    for (int s = 0; s < SLICES; s++) cudaStreamSynchronize(work[s].stream);
    for (int s = 0; s < SLICES; s++) printf("slice %d: %d of %d correct\n", s, work[s].checked, N);
    printf("callbacks in stream order: %d %d\n", order[0], order[1]);
    printf("a flag that is not 0: %s\n", cudaGetErrorName(cudaStreamAddCallback(work[0].stream, note, &one, 1)));
    for (int s = 0; s < SLICES; s++) {
        cudaStreamDestroy(work[s].stream);
        cudaFree(work[s].device);
        cudaFreeHost(work[s].host);
    }
    return 0;
}

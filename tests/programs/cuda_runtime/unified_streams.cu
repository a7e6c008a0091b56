// The UnifiedMemoryStreams sample's shape: tasks of different sizes in managed memory,
// each processed on its own stream (a kernel computing y = A x for a small matrix), with
// cudaMemPrefetchAsync and cudaMemAdvise hints in CUDA 13's form, a cudaMemLocation (accepted;
// they change no result).
// Task t has size n = 8 * (t + 1); A[i][j] = (i + j) % 5, x[j] = 1, so y[i] = sum_j (i+j)%5.
#include <cstdio>
#include <cuda_runtime.h>

struct Task {
    int n;
    float *A, *x, *y;
};

__global__ void gemv(const float *A, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0;
        for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
        y[i] = s;
    }
}

int main() {
    const int TASKS = 4;
    Task tasks[TASKS];
    cudaStream_t streams[TASKS];
    int device = 0;
    cudaMemLocation gpu = {cudaMemLocationTypeDevice, device}, cpu = {cudaMemLocationTypeHost, 0};
    for (int t = 0; t < TASKS; t++) {
        Task &k = tasks[t];
        k.n = 8 * (t + 1);
        cudaMallocManaged(&k.A, k.n * k.n * sizeof(float));
        cudaMallocManaged(&k.x, k.n * sizeof(float));
        cudaMallocManaged(&k.y, k.n * sizeof(float));
        for (int i = 0; i < k.n; i++) {
            k.x[i] = 1.0f;
            for (int j = 0; j < k.n; j++) k.A[i * k.n + j] = (i + j) % 5;
        }
        cudaStreamCreate(&streams[t]);
    }
    cudaError_t e1 = cudaMemAdvise(tasks[0].A, 64 * sizeof(float), cudaMemAdviseSetReadMostly, gpu);
    cudaError_t e2 = cudaMemAdvise(tasks[0].x, 8 * sizeof(float), cudaMemAdviseSetPreferredLocation, gpu);
    printf("advice: %s %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2));
    for (int t = 0; t < TASKS; t++) {
        Task &k = tasks[t];
        cudaMemPrefetchAsync(k.A, k.n * k.n * sizeof(float), gpu, 0, streams[t]);
        gemv<<<1, 64, 0, streams[t]>>>(k.A, k.x, k.y, k.n);
        cudaMemPrefetchAsync(k.y, k.n * sizeof(float), cpu, 0, streams[t]);
    }
    cudaDeviceSynchronize();
    for (int t = 0; t < TASKS; t++) {
        Task &k = tasks[t];
        float total = 0;
        for (int i = 0; i < k.n; i++) total += k.y[i];
        printf("task %d: n=%d y[0]=%.0f y[1]=%.0f total=%.0f\n", t, k.n, k.y[0], k.y[1], total);
    }
    for (int t = 0; t < TASKS; t++) {
        cudaStreamDestroy(streams[t]);
        cudaFree(tasks[t].A); cudaFree(tasks[t].x); cudaFree(tasks[t].y);
    }
    return 0;
}

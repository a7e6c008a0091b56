// A 1D stencil with its halo staged in shared memory (the classic RADIUS-3 exercise).
#include <cstdio>
#include <cstdlib>

#define RADIUS 3
#define BLOCK_SIZE 128

__global__ void stencil_1d(const int *in, int *out, int n)
{
    __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int lindex = threadIdx.x + RADIUS;

    temp[lindex] = gindex < n ? in[gindex] : 0;
    if (threadIdx.x < RADIUS) {
        int left = gindex - RADIUS;
        int right = gindex + BLOCK_SIZE;
        temp[lindex - RADIUS] = left >= 0 ? in[left] : 0;
        temp[lindex + BLOCK_SIZE] = right < n ? in[right] : 0;
    }
    __syncthreads();

    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];
    if (gindex < n) out[gindex] = result;
}

int main()
{
    const int n = 16 * BLOCK_SIZE;
    int *in = (int *)malloc(n * sizeof(int));
    int *out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) in[i] = (i % 9) - 4 + (i / 100);
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice);
    stencil_1d<<<n / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out, n);
    cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost);

    int errors = 0;
    long sum = 0;
    for (int i = 0; i < n; i++) {
        int r = 0;
        for (int o = -RADIUS; o <= RADIUS; o++)
            if (i + o >= 0 && i + o < n) r += in[i + o];
        if (r != out[i]) errors++;
        sum += out[i];
    }
    printf("out[0]=%d out[127]=%d out[128]=%d out[%d]=%d\n", out[0], out[127], out[128], n - 1, out[n - 1]);
    printf("sum=%ld errors=%d\n", sum, errors);
    cudaFree(d_in);
    cudaFree(d_out);
    free(in);
    free(out);
    return errors != 0;
}

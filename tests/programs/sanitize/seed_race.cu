// Lanes 0 and 1 of one warp write one shared word in the two arms of a divergent branch:
// under ITS what lane 0 reads back depends on how the scheduler interleaves the arms.
#include <cstdio>
__global__ void race(int *out, int n) {
    volatile __shared__ int s;
    int t = threadIdx.x;
    if (t == 0) s = 0;
    __syncthreads();
    int seen = 0;
    if (t == 0) {
        for (int i = 0; i < n; i++) {
            s = 0;
            seen += s;
        }
    } else if (t == 1) {
        for (int i = 0; i < n; i++) s = 1;
    }
    if (t == 0) *out = seen;
}
int main() {
    int *d, h;
    cudaMalloc(&d, sizeof(int));
    race<<<1, 32>>>(d, 8);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("lane 0 saw lane 1's write %d times\n", h);
    cudaFree(d);
    return 0;
}

// A pitched 2D array (cudaMallocPitch, cudaMemcpy2D, cudaMemset2D): rows padded to the
// pitch the runtime chooses, a kernel indexing rows through it, copies in and out.
// Kernel: out(r, c) = in(r, c) * 2 + r, with in(r, c) = 10 * r + c (7 rows of 13 floats).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e = (call);                                                       \
        if (e != cudaSuccess) {                                                       \
            printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));         \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

const int ROWS = 7, COLS = 13;

__global__ void scaleRows(float *a, size_t pitch, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        float *row = (float *)((char *)a + r * pitch);
        row[c] = row[c] * 2.0f + r;
    }
}

int main() {
    float host[ROWS][COLS];
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) host[r][c] = 10.0f * r + c;
    float *d;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d, &pitch, COLS * sizeof(float), ROWS));
    printf("pitch covers a row: %s\n", pitch >= COLS * sizeof(float) ? "yes" : "no");
    printf("pitch is a multiple of 128: %s\n", pitch % 128 == 0 ? "yes" : "no");
    CHECK(cudaMemcpy2D(d, pitch, host, COLS * sizeof(float), COLS * sizeof(float), ROWS, cudaMemcpyHostToDevice));
    dim3 block(8, 4), grid((COLS + 7) / 8, (ROWS + 3) / 4);
    scaleRows<<<grid, block>>>(d, pitch, ROWS, COLS);
    CHECK(cudaGetLastError());
    float back[ROWS][COLS];
    CHECK(cudaMemcpy2D(back, COLS * sizeof(float), d, pitch, COLS * sizeof(float), ROWS, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            if (back[r][c] != (10.0f * r + c) * 2.0f + r) bad++;
    printf("back[0][0]=%.1f back[3][5]=%.1f back[6][12]=%.1f mismatches=%d\n", back[0][0], back[3][5], back[6][12], bad);
    // clear columns 0..3 of every row, then copy a 3x4 window out of the middle
    CHECK(cudaMemset2D(d, pitch, 0, 4 * sizeof(float), ROWS));
    float window[3][4];
    CHECK(cudaMemcpy2D(window, 4 * sizeof(float), (char *)d + 2 * pitch + 2 * sizeof(float), pitch,
                       4 * sizeof(float), 3, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 3; r++) printf("%.1f %.1f %.1f %.1f\n", window[r][0], window[r][1], window[r][2], window[r][3]);
    cudaError_t e = cudaMemcpy2D(back, 8, d, pitch, COLS * sizeof(float), ROWS, cudaMemcpyDeviceToHost);
    printf("a destination pitch narrower than a row: %s\n", cudaGetErrorName(e));
    CHECK(cudaFree(d));
    return 0;
}

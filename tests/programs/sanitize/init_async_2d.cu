// A pitched matrix of which cudaMemcpy2DAsync fills 6 of 8 columns, and a vector set
// with cudaMemsetAsync on a stream: the 2 columns never copied are read by 16 threads
// each (the row sums read every column).
// expect: initcheck errors=32
#include <cstdio>

__global__ void row_sums(const float *m, size_t pitch, const float *bias, float *out, int w, int h) {
    int r = threadIdx.x;
    if (r >= h) return;
    const float *row = (const float *)((const char *)m + r * pitch);
    float s = bias[r];
    for (int c = 0; c < w; c++) s += row[c];
    out[r] = s;
}

int main() {
    const int w = 8, h = 16;
    float host[h][w];
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) host[r][c] = r + c;
    float *m, *bias, *out;
    size_t pitch;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMallocPitch(&m, &pitch, w * sizeof(float), h);
    cudaMalloc(&bias, h * sizeof(float));
    cudaMalloc(&out, h * sizeof(float));
    cudaMemcpy2DAsync(m, pitch, host, w * sizeof(float), 6 * sizeof(float), h, cudaMemcpyHostToDevice, s);
    cudaMemsetAsync(bias, 0, h * sizeof(float), s);
    row_sums<<<1, 32, 0, s>>>(m, pitch, bias, out, w, h);
    float o[h];
    cudaMemcpyAsync(o, out, sizeof o, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    printf("ran\n");
    cudaStreamDestroy(s);
    cudaFree(m);
    cudaFree(bias);
    cudaFree(out);
    return 0;
}

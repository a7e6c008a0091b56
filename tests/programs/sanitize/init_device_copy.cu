// A device-to-device copy of a copied-in buffer, a 2D pitched buffer set with
// cudaMemset2D, both read by kernels: clean.
// expect: initcheck errors=0
#include <cstdio>

__global__ void sum_rows(const float *m, size_t pitch, const float *v, float *out, int w, int h) {
    int r = threadIdx.x;
    if (r >= h) return;
    const float *row = (const float *)((const char *)m + r * pitch);
    float s = 0;
    for (int c = 0; c < w; c++) s += row[c] * v[c];
    out[r] = s;
}

int main() {
    const int w = 8, h = 16;
    float hv[w];
    for (int i = 0; i < w; i++) hv[i] = i;
    float *v0, *v, *m, *out;
    size_t pitch;
    cudaMalloc(&v0, sizeof hv);
    cudaMalloc(&v, sizeof hv);
    cudaMalloc(&out, h * sizeof(float));
    cudaMallocPitch(&m, &pitch, w * sizeof(float), h);
    cudaMemcpy(v0, hv, sizeof hv, cudaMemcpyHostToDevice);
    cudaMemcpy(v, v0, sizeof hv, cudaMemcpyDeviceToDevice);
    cudaMemset2D(m, pitch, 0, w * sizeof(float), h);
    sum_rows<<<1, 32>>>(m, pitch, v, out, w, h);
    float ho[h];
    cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
    printf("out[3] = %g\n", ho[3]);
    cudaFree(v0);
    cudaFree(v);
    cudaFree(m);
    cudaFree(out);
    return 0;
}

// std::vector with std::sort, std::min, std::max, std::swap, std::fill and std::copy on
// the host around a kernel that computes keys.
#include <algorithm>
#include <cstdio>
#include <vector>

__global__ void keys(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (in[i] * 2654435761u) % 10007;
}

int main()
{
    const int n = 777;
    std::vector<int> in(n);
    for (int i = 0; i < n; i++) in[i] = i * 3 + 1;
    std::vector<int> out(n, -1);

    int *dIn, *dOut;
    cudaMalloc(&dIn, n * sizeof(int));
    cudaMalloc(&dOut, n * sizeof(int));
    cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    keys<<<(n + 255) / 256, 256>>>(dIn, dOut, n);
    cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost);

    int lo = out[0], hi = out[0];
    for (size_t i = 1; i < out.size(); i++) {
        lo = std::min(lo, out[i]);
        hi = std::max(hi, out[i]);
    }
    std::vector<int> sorted(out);
    std::sort(sorted.begin(), sorted.end());
    printf("min %d max %d sorted front %d back %d\n", lo, hi, sorted.front(), sorted.back());
    printf("median %d\n", sorted[n / 2]);
    bool ascending = std::is_sorted(sorted.begin(), sorted.end());
    printf("ascending %s\n", ascending ? "yes" : "no");

    int arr[8] = {5, 3, 9, 1, 7, 2, 8, 6};
    std::sort(arr, arr + 8);
    std::swap(arr[0], arr[7]);
    printf("array:");
    for (int v : arr) printf(" %d", v);
    printf("\n");

    std::vector<int> top(5);
    std::copy(sorted.end() - 5, sorted.end(), top.begin());
    std::vector<int> zeros(4);
    std::fill(zeros.begin(), zeros.end(), 42);
    printf("top5: %d %d %d %d %d, fill: %d %d\n", top[0], top[1], top[2], top[3], top[4], zeros[0], zeros[3]);
    printf("min of three %d, max of floats %.1f\n", std::min(std::min(4, 2), 9), std::max(1.5f, -2.0f));
    cudaFree(dIn);
    cudaFree(dOut);
    return 0;
}

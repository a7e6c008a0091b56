// A templated tiled matrix multiply: tile size and element type are template parameters,
// instantiated for float and int and two tile sizes, checked against the host.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <typename T, int TILE>
__global__ void matmulTiled(const T *A, const T *B, T *C, int M, int N, int K)
{
    __shared__ T As[TILE][TILE];
    __shared__ T Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    T acc = 0;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + threadIdx.x;
        int bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : T(0);
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

template <typename T>
void matmulHost(const std::vector<T> &A, const std::vector<T> &B, std::vector<T> &C, int M, int N, int K)
{
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            T s = 0;
            for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
            C[i * N + j] = s;
        }
}

template <typename T, int TILE>
bool runCase(const char *label, int M, int N, int K)
{
    std::vector<T> A(M * K), B(K * N), C(M * N), ref(M * N);
    for (int i = 0; i < M * K; ++i) A[i] = T((i * 7) % 11) - T(5);
    for (int i = 0; i < K * N; ++i) B[i] = T((i * 3) % 13) - T(6);
    matmulHost(A, B, ref, M, N, K);

    T *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(T), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmulTiled<T, TILE><<<grid, block>>>(dA, dB, dC, M, N, K);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));

    int errors = 0;
    double checksum = 0;
    for (int i = 0; i < M * N; ++i) {
        if (C[i] != ref[i]) ++errors;
        checksum += (double)C[i];
    }
    printf("%-12s %3dx%3dx%3d tile %2d: C[0]=%g C[last]=%g checksum=%.1f %s\n", label, M, N, K, TILE,
           (double)C[0], (double)C[M * N - 1], checksum, errors ? "FAIL" : "PASS");
    return errors == 0;
}

int main()
{
    bool ok = true;
    ok &= runCase<float, 16>("float", 48, 40, 36);
    ok &= runCase<float, 8>("float", 33, 17, 29);
    ok &= runCase<int, 16>("int", 32, 48, 20);
    ok &= runCase<double, 8>("double", 24, 24, 24);
    printf("%s\n", ok ? "All tests passed" : "Some tests failed");
    return ok ? 0 : 1;
}

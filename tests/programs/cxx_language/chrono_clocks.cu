// Host timing around a kernel with <chrono> as CUDA samples do it: a clock's now(), a
// time point's difference and duration_cast<...>(d).count(); only what does not vary from
// run to run is printed.  The kernel: v[i] = i * i for i < 8, so the sum is 140.
#include <chrono>
#include <cstdio>

__global__ void squares(int *v)
{
    v[threadIdx.x] = threadIdx.x * threadIdx.x;
}

int main()
{
    auto t0 = std::chrono::high_resolution_clock::now();
    int *d, h[8];
    cudaMalloc(&d, sizeof(h));
    squares<<<1, 8>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    auto t1 = std::chrono::high_resolution_clock::now();
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count();
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t1 - t0).count();
    long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
    int sum = 0;
    for (int i = 0; i < 8; i++) sum += h[i];
    std::printf("sum %d, elapsed ns >= us * 1000: %s, ms <= us: %s\n", sum, ns >= us * 1000 ? "yes" : "no",
                ms <= us ? "yes" : "no");
    auto steady = std::chrono::steady_clock::now();
    std::printf("steady clock goes forward: %s\n", std::chrono::steady_clock::now() >= steady ? "yes" : "no");
    std::printf("3 minutes are %ld s, -2500 us are %ld ms, 2 h are %ld min\n",
                std::chrono::duration_cast<std::chrono::seconds>(std::chrono::minutes(3)).count(),
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::microseconds(-2500)).count(),
                std::chrono::duration_cast<std::chrono::minutes>(std::chrono::hours(2)).count());
    return 0;
}

// Device code may not call libstdc++'s constexpr __host__ functions (std::min, std::max,
// std::min_element) unless nvcc is given --expt-relaxed-constexpr (nvcc 13's wording);
// CUDA's own min(int, int) is a device function and stays allowed.
#include <algorithm>

__global__ void k(int *p) {
    int a = std::min(p[0], p[1]);
    int b = std::max(p[0], p[1]);
    int *m = std::min_element(p, p + 4);
    p[0] = a + b + *m + min(p[2], p[3]);
}

int main() {
    int x = std::min(3, 4);   // host code: fine
    return x - 3;
}
// EXPECT: 7:13: error: calling a constexpr __host__ function("min") from a __global__ function("k") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
// EXPECT: 8:13: error: calling a constexpr __host__ function("max") from a __global__ function("k") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.
// EXPECT: 9:14: error: calling a constexpr __host__ function("min_element") from a __global__ function("k") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow this.

// Namespaces (nested, using-directives and using-declarations) and enum class values
// passed to a kernel that switches on them.
#include <cstdio>

namespace corpus {
namespace ops {

enum class Op { Add, Sub, Mul, Max };

__host__ __device__ inline int apply(Op op, int a, int b)
{
    switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Max: return a > b ? a : b;
    }
    return 0;
}

const char *name(Op op)
{
    switch (op) {
    case Op::Add: return "Add";
    case Op::Sub: return "Sub";
    case Op::Mul: return "Mul";
    default: return "Max";
    }
}

} // namespace ops

namespace kernels {
__global__ void combine(ops::Op op, const int *a, const int *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = ops::apply(op, a[i], b[i]);
}
} // namespace kernels

const int kSize = 300;
} // namespace corpus

enum Color { Red, Green = 5, Blue };
enum class Level : unsigned char { Low = 1, High = 200 };

using namespace corpus;
using corpus::ops::Op;

int main()
{
    int a[kSize], b[kSize], c[kSize];
    for (int i = 0; i < kSize; i++) {
        a[i] = i % 23 - 11;
        b[i] = (i * 7) % 19 - 9;
    }
    int *da, *db, *dc;
    cudaMalloc(&da, sizeof(a));
    cudaMalloc(&db, sizeof(b));
    cudaMalloc(&dc, sizeof(c));
    cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice);
    const Op all[] = {Op::Add, Op::Sub, Op::Mul, Op::Max};
    for (Op op : all) {
        kernels::combine<<<(kSize + 127) / 128, 128>>>(op, da, db, dc, kSize);
        cudaMemcpy(c, dc, sizeof(c), cudaMemcpyDeviceToHost);
        long sum = 0;
        int bad = 0;
        for (int i = 0; i < kSize; i++) {
            sum += c[i];
            if (c[i] != ops::apply(op, a[i], b[i])) bad++;
        }
        printf("%-4s op=%d sum=%ld c[7]=%d mismatches=%d\n", ops::name(op), static_cast<int>(op), sum, c[7], bad);
    }
    Color col = Blue;
    Level lv = Level::High;
    printf("Blue=%d Level::High=%d sizeof(Level)=%d\n", col, (int)lv, (int)sizeof(Level));
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}

// The sizes and alignments CUDA's vector_types.h gives its vector types (a 2- or 4-member
// vector of 1-, 2-, 4- and 8-byte members is aligned to its size, up to 16; 1- and
// 3-member vectors keep their member's alignment), and member access on dim3 and uint3.
#include <cstdio>
#include <cstddef>
#include <cuda_runtime.h>

#define SHOW(T) printf("%-10s size %2zu align %2zu\n", #T, sizeof(T), alignof(T))

struct Packed {
    char c;
    float4 v;
};

__global__ void dims(int *out) {
    uint3 t = threadIdx;
    dim3 b = blockDim;
    out[t.x] = t.x + 10 * b.x + 100 * gridDim.y;
}

int main() {
    SHOW(char1); SHOW(char2); SHOW(char3); SHOW(char4);
    SHOW(uchar4); SHOW(short2); SHOW(short3); SHOW(ushort4);
    SHOW(int1); SHOW(int2); SHOW(int3); SHOW(int4); SHOW(uint4);
    SHOW(float1); SHOW(float2); SHOW(float3); SHOW(float4);
    SHOW(longlong1); SHOW(longlong2); SHOW(ulonglong2);
    SHOW(double1); SHOW(double2); SHOW(double3);
    SHOW(dim3); SHOW(uint3);
    printf("offset of a float4 after a char: %zu, struct size %zu\n", offsetof(Packed, v), sizeof(Packed));
    dim3 d(4);
    printf("dim3(4) = (%u, %u, %u)\n", d.x, d.y, d.z);
    int *out;
    cudaMallocManaged(&out, 4 * sizeof(int));
    dims<<<dim3(1, 3), 4>>>(out);
    cudaDeviceSynchronize();
    printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
    int3 p = make_int3(1, 2, 3);
    uchar4 c = make_uchar4(250, 251, 252, 253);
    short2 s = make_short2(-7, 7);
    printf("%d %d %d | %u %u %u %u | %d %d\n", p.x, p.y, p.z, c.x, c.y, c.z, c.w, s.x, s.y);
    cudaFree(out);
    return 0;
}

// RUN: minicudac %s -O3 | filecheck %s
//
// A load or store of an 8- or 16-byte vector type through a pointer to it is one access, as
// nvcc emits it: LDG.64 / LDG.128 (STG, LDS, STS likewise; __ldg: LDG.128.CONSTANT), not two
// or four 32-bit pieces.  A struct of 4-byte alignment (float3) stays 32-bit pieces.
#include <cstdio>

__global__ void copy4(const float4 *in, float4 *out)
{
    // CHECK-LABEL: .kernel copy4
    // CHECK-NOT: LDG {{R}}
    // CHECK: LDG.128 [[V:R[0-9]+]], [{{R[0-9]+}}]
    // CHECK-NEXT: STG.128 [{{R[0-9]+}}], [[V]]
    // CHECK-NOT: {{LDG|STG}}
    // CHECK: .end copy4
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void copy_double2(const double2 *in, double2 *out)
{
    // CHECK-LABEL: .kernel copy_double2
    // CHECK: LDG.128
    // CHECK-NEXT: STG.128
    // CHECK-NOT: {{LDG|STG}}
    // CHECK: .end copy_double2
    out[threadIdx.x] = in[threadIdx.x];
}

__global__ void read_only4(const int4 *in, int4 *out)
{
    // CHECK-LABEL: .kernel read_only4
    // CHECK: LDG.128.CONSTANT
    // CHECK: STG.128
    // CHECK: .end read_only4
    out[threadIdx.x] = __ldg(&in[threadIdx.x]);
}

__global__ void shared2(const float2 *in, float2 *out)
{
    // CHECK-LABEL: .kernel shared2
    // CHECK: LDG.64
    // CHECK-NEXT: STS.64
    // CHECK: BAR.SYNC
    // CHECK: LDS.64
    // CHECK-NEXT: STG.64
    // CHECK: .end shared2
    __shared__ float2 s[32];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[31 - threadIdx.x];
}

__global__ void copy3(const float3 *in, float3 *out)
{
    // CHECK-LABEL: .kernel copy3
    // CHECK-NOT: .{{64|128}}
    // CHECK: .end copy3
    out[threadIdx.x] = in[threadIdx.x];
}

int main() { return 0; }

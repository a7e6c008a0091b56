// RUN: minicudac %s -O3 | filecheck %s
//
// A float4 / int4 element of a __constant__ array is one 128-bit constant load, a float2
// one 64-bit load, as nvcc emits for a lane-varying index (LDC.128 / LDC.64; the record:
// tests/data/groundtruth/cuda/out/features_sass.txt).  A float3 (4-byte alignment) is
// three 32-bit LDC.

__constant__ float4 c4[8];
__constant__ float2 c2[8];
__constant__ float3 c3[8];

__global__ void read(float *out)
{
    // CHECK-LABEL: .kernel read
    // CHECK: LDC.128 {{R[0-9]+}}, [{{R[0-9]+}}]
    // CHECK: LDC.64 {{R[0-9]+}}, [{{R[0-9]+}}]
    // CHECK: LDC {{R[0-9]+}}, [{{R[0-9]+}}]
    // CHECK: LDC {{R[0-9]+}}, [{{R[0-9]+}}+0x4]
    // CHECK: LDC {{R[0-9]+}}, [{{R[0-9]+}}+0x8]
    // CHECK-NOT: LDG
    // CHECK: .end read
    int i = threadIdx.x;
    float4 a = c4[i & 7];
    float2 b = c2[i & 7];
    float3 c = c3[i & 7];
    out[i] = a.x + a.w + b.y + c.x + c.y + c.z;
}

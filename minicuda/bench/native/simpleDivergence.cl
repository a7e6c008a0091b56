/* simpleDivergence.cl: simpleDivergence.cu's five kernels in OpenCL C, for PoCL (threadIdx is get_local_id, ...). */

#define warpSize 32

__kernel void mathKernel1(__global float *c)
{
    int tid = get_group_id(0) * get_local_size(0) + get_local_id(0);
    float a, b;
    a = b = 0.0f;
    if (tid % 2 == 0)
        a = 100.0f;
    else
        b = 200.0f;
    c[tid] = a + b;
}

__kernel void mathKernel2(__global float *c)
{
    int tid = get_group_id(0) * get_local_size(0) + get_local_id(0);
    float a, b;
    a = b = 0.0f;
    if ((tid / warpSize) % 2 == 0)
        a = 100.0f;
    else
        b = 200.0f;
    c[tid] = a + b;
}

__kernel void mathKernel3(__global float *c)
{
    int tid = get_group_id(0) * get_local_size(0) + get_local_id(0);
    float ia, ib;
    ia = ib = 0.0f;
    bool ipred = (tid % 2 == 0);
    if (ipred) ia = 100.0f;
    if (!ipred) ib = 200.0f;
    c[tid] = ia + ib;
}

__kernel void mathKernel4(__global float *c)
{
    int tid = get_group_id(0) * get_local_size(0) + get_local_id(0);
    float ia, ib;
    ia = ib = 0.0f;
    int itid = tid >> 5;
    if (itid & (0x01 == 0))   /* the sample's precedence, spelled out: always false */
        ia = 100.0f;
    else
        ib = 200.0f;
    c[tid] = ia + ib;
}

__kernel void warmingup(__global float *c)
{
    int tid = get_group_id(0) * get_local_size(0) + get_local_id(0);
    float ia, ib;
    ia = ib = 0.0f;
    if ((tid / warpSize) % 2 == 0)
        ia = 100.0f;
    else
        ib = 200.0f;
    c[tid] = ia + ib;
}

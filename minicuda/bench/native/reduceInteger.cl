/*
 * reduceInteger.cl: reduceInteger.cu's nine kernels in OpenCL C, for PoCL.
 *
 * A line-by-line translation: threadIdx.x is get_local_id(0), blockIdx.x
 * get_group_id(0), blockDim.x get_local_size(0); __syncthreads() is a barrier on
 * global memory, where the reduction happens.  A work-item that returned early
 * would skip a barrier, which OpenCL forbids; bench launches whole blocks only,
 * so the early return is kept as a guard of the work instead.  OpenCL has no
 * warp-synchronous execution (PoCL runs a barrier-free region work-item by
 * work-item, all six statements of the unrolled warp for one before the next), so
 * each statement of the warp-unrolled tail reads, waits at a barrier and writes,
 * the lockstep a warp gives it: the same additions, with barriers in between.
 * reduceCompleteUnroll's template parameter is the macro BLOCK_SIZE, set when the
 * program is built.
 */

__kernel void reduceNeighbored(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int idx = get_group_id(0) * get_local_size(0) + tid;
    __global int *idata = g_idata + get_group_id(0) * get_local_size(0);
    for (int stride = 1; stride < get_local_size(0); stride *= 2)
    {
        if (idx < n && (tid % (2 * stride)) == 0) idata[tid] += idata[tid + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (idx < n && tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceNeighboredLess(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int idx = get_group_id(0) * get_local_size(0) + tid;
    __global int *idata = g_idata + get_group_id(0) * get_local_size(0);
    for (int stride = 1; stride < get_local_size(0); stride *= 2)
    {
        int index = 2 * stride * tid;
        if (idx < n && index < get_local_size(0)) idata[index] += idata[index + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (idx < n && tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceInterleaved(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int idx = get_group_id(0) * get_local_size(0) + tid;
    __global int *idata = g_idata + get_group_id(0) * get_local_size(0);
    for (int stride = get_local_size(0) / 2; stride > 0; stride >>= 1)
    {
        if (idx < n && tid < stride) idata[tid] += idata[tid + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (idx < n && tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceUnrolling2(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int b = get_local_size(0);
    unsigned int idx = get_group_id(0) * b * 2 + tid;
    __global int *idata = g_idata + get_group_id(0) * b * 2;
    if (idx + b < n) g_idata[idx] += g_idata[idx + b];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int stride = b / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride) idata[tid] += idata[tid + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceUnrolling4(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int b = get_local_size(0);
    unsigned int idx = get_group_id(0) * b * 4 + tid;
    __global int *idata = g_idata + get_group_id(0) * b * 4;
    if (idx + 3 * b < n)
    {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + b];
        int a3 = g_idata[idx + 2 * b];
        int a4 = g_idata[idx + 3 * b];
        g_idata[idx] = a1 + a2 + a3 + a4;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int stride = b / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride) idata[tid] += idata[tid + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceUnrolling8(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int b = get_local_size(0);
    unsigned int idx = get_group_id(0) * b * 8 + tid;
    __global int *idata = g_idata + get_group_id(0) * b * 8;
    if (idx + 7 * b < n)
    {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + b];
        int a3 = g_idata[idx + 2 * b];
        int a4 = g_idata[idx + 3 * b];
        int b1 = g_idata[idx + 4 * b];
        int b2 = g_idata[idx + 5 * b];
        int b3 = g_idata[idx + 6 * b];
        int b4 = g_idata[idx + 7 * b];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int stride = b / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride) idata[tid] += idata[tid + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (tid == 0) g_odata[get_group_id(0)] = idata[0];
}

void unrollData8(__global int *g_idata, unsigned int idx, unsigned int n)
{
    unsigned int b = get_local_size(0);
    if (idx + 7 * b < n)
    {
        g_idata[idx] = g_idata[idx] + g_idata[idx + b] + g_idata[idx + 2 * b]
                     + g_idata[idx + 3 * b] + g_idata[idx + 4 * b]
                     + g_idata[idx + 5 * b] + g_idata[idx + 6 * b]
                     + g_idata[idx + 7 * b];
    }
}

/* vmem[tid] += vmem[tid + offset] for the first 32 work-items, offset 32 down to 1, in lockstep;
   every work-item of the group calls it (the barriers) */
void warpUnroll(__global int *vmem, unsigned int tid)
{
    for (unsigned int offset = 32; offset > 0; offset >>= 1)
    {
        int sum = 0;
        if (tid < 32) sum = vmem[tid] + vmem[tid + offset];
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (tid < 32) vmem[tid] = sum;
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

__kernel void reduceUnrollWarps8(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int b = get_local_size(0);
    unsigned int idx = get_group_id(0) * b * 8 + tid;
    __global int *idata = g_idata + get_group_id(0) * b * 8;
    unrollData8(g_idata, idx, n);
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int stride = b / 2; stride > 32; stride >>= 1)
    {
        if (tid < stride) idata[tid] += idata[tid + stride];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    warpUnroll(idata, tid);
    if (tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceCompleteUnrollWarps8(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int b = get_local_size(0);
    unsigned int idx = get_group_id(0) * b * 8 + tid;
    __global int *idata = g_idata + get_group_id(0) * b * 8;
    unrollData8(g_idata, idx, n);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (b >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (b >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (b >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (b >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    barrier(CLK_GLOBAL_MEM_FENCE);
    warpUnroll(idata, tid);
    if (tid == 0) g_odata[get_group_id(0)] = idata[0];
}

__kernel void reduceCompleteUnroll(__global int *g_idata, __global int *g_odata, unsigned int n)
{
    unsigned int tid = get_local_id(0);
    unsigned int b = get_local_size(0);
    unsigned int idx = get_group_id(0) * b * 8 + tid;
    __global int *idata = g_idata + get_group_id(0) * b * 8;
    unrollData8(g_idata, idx, n);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (BLOCK_SIZE >= 1024 && tid < 512) idata[tid] += idata[tid + 512];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (BLOCK_SIZE >= 512 && tid < 256) idata[tid] += idata[tid + 256];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (BLOCK_SIZE >= 256 && tid < 128) idata[tid] += idata[tid + 128];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (BLOCK_SIZE >= 128 && tid < 64) idata[tid] += idata[tid + 64];
    barrier(CLK_GLOBAL_MEM_FENCE);
    warpUnroll(idata, tid);
    if (tid == 0) g_odata[get_group_id(0)] = idata[0];
}

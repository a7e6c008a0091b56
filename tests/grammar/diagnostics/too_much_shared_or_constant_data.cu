__constant__ float small[100];
__constant__ float table[1 << 20];

__device__ float lookup(int i)
{
    __shared__ float cache[20000];
    return cache[i];
}

__global__ void k(float *p)
{
    __shared__ float s[1 << 28];
    s[threadIdx.x] = p[0];
    p[1] = s[0] + table[0] + small[0] + lookup(1);
}

__global__ void fits(float *p)
{
    __shared__ float s[12288];
    p[1] = s[0];
}

// EXPECT: 2:20: error: too much global constant data (0x400190 bytes, 0x10000 max)
// EXPECT: 10:17: error: entry function 'k' uses too much shared data (0x40013880 bytes, 0xc000 max)

// A ray-casting sketch in CUDA by Example's style: spheres with a __device__ hit()
// member in constant memory, an orthographic ray per pixel, hits counted per sphere.
#include "book.h"

#define DIM 64
#define SPHERES 8
#define INF 2e10f

struct Sphere {
    float r, g, b;
    float radius;
    float x, y, z;
    __device__ float hit(float ox, float oy, float *n) const
    {
        float dx = ox - x;
        float dy = oy - y;
        if (dx * dx + dy * dy < radius * radius) {
            float dz2 = radius * radius - dx * dx - dy * dy;
            *n = dz2 / (radius * radius);
            return dz2 + z;
        }
        return -INF;
    }
};

__constant__ Sphere s[SPHERES];

__global__ void kernel(unsigned char *ptr, int *owner)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int offset = x + y * blockDim.x * gridDim.x;
    float ox = (float)(x - DIM / 2);
    float oy = (float)(y - DIM / 2);
    float r = 0, g = 0, b = 0;
    float maxz = -INF;
    int who = -1;
    for (int i = 0; i < SPHERES; i++) {
        float n;
        float t = s[i].hit(ox, oy, &n);
        if (t > maxz) {
            r = s[i].r * (n >= 0.5f ? 1.0f : 0.5f);
            g = s[i].g * (n >= 0.5f ? 1.0f : 0.5f);
            b = s[i].b * (n >= 0.5f ? 1.0f : 0.5f);
            maxz = t;
            who = i;
        }
    }
    ptr[offset * 4 + 0] = (unsigned char)(r * 255);
    ptr[offset * 4 + 1] = (unsigned char)(g * 255);
    ptr[offset * 4 + 2] = (unsigned char)(b * 255);
    ptr[offset * 4 + 3] = 255;
    owner[offset] = who;
}

int main(void)
{
    Sphere temp_s[SPHERES];
    unsigned int seed = 99;
    for (int i = 0; i < SPHERES; i++) {
        seed = seed * 1103515245u + 12345u;
        temp_s[i].r = (float)((seed >> 8) % 4) / 4.0f;
        temp_s[i].g = (float)((seed >> 12) % 4) / 4.0f;
        temp_s[i].b = (float)((seed >> 16) % 4) / 4.0f;
        temp_s[i].x = (float)((seed >> 4) % 48) - 24.0f;
        temp_s[i].y = (float)((seed >> 10) % 48) - 24.0f;
        temp_s[i].z = (float)((seed >> 14) % 32) - 16.0f;
        temp_s[i].radius = (float)((seed >> 20) % 8) + 4.0f;
    }
    HANDLE_ERROR(cudaMemcpyToSymbol(s, temp_s, sizeof(Sphere) * SPHERES));
    unsigned char *dev_bitmap;
    int *dev_owner;
    HANDLE_ERROR(cudaMalloc((void **)&dev_bitmap, DIM * DIM * 4));
    HANDLE_ERROR(cudaMalloc((void **)&dev_owner, DIM * DIM * sizeof(int)));
    dim3 grids(DIM / 16, DIM / 16);
    dim3 threads(16, 16);
    kernel<<<grids, threads>>>(dev_bitmap, dev_owner);
    unsigned char bitmap[DIM * DIM * 4];
    int owner[DIM * DIM];
    HANDLE_ERROR(cudaMemcpy(bitmap, dev_bitmap, sizeof(bitmap), cudaMemcpyDeviceToHost));
    HANDLE_ERROR(cudaMemcpy(owner, dev_owner, sizeof(owner), cudaMemcpyDeviceToHost));
    int counts[SPHERES + 1] = {0};
    unsigned long checksum = 0;
    for (int i = 0; i < DIM * DIM; i++) {
        counts[owner[i] + 1]++;
        checksum = checksum * 131 + bitmap[4 * i] + 3 * bitmap[4 * i + 1] + 7 * bitmap[4 * i + 2];
        checksum &= 0xffffffffUL;
    }
    printf("background %d pixels\n", counts[0]);
    for (int i = 0; i < SPHERES; i++) printf("sphere %d (r=%.0f): %d pixels\n", i, temp_s[i].radius, counts[i + 1]);
    printf("bitmap checksum %08lx\n", checksum);
    for (int y = 0; y < DIM; y += 8) {
        for (int x = 0; x < DIM; x += 2) {
            int o = owner[x + y * DIM];
            putchar(o < 0 ? '.' : (char)('0' + o));
        }
        putchar('\n');
    }
    HANDLE_ERROR(cudaFree(dev_bitmap));
    HANDLE_ERROR(cudaFree(dev_owner));
    return 0;
}

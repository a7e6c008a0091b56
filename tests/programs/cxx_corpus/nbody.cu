// One n-body step with a small vector struct and overloaded operators, tiles of bodies
// staged in shared memory (GPU Gems style); positions checked against the host.
#include <cmath>
#include <cstdio>

struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __host__ __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __host__ __device__ Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
    __host__ __device__ Vec3 operator*(float s) const { return Vec3(x * s, y * s, z * s); }
    __host__ __device__ Vec3 &operator+=(const Vec3 &o)
    {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __host__ __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

struct Body {
    Vec3 pos;
    Vec3 vel;
    float mass;
};

#define TILE 64
const float SOFTENING = 0.01f;

__host__ __device__ Vec3 interaction(const Vec3 &pi, const Body &bj)
{
    Vec3 r = bj.pos - pi;
    float dist2 = r.dot(r) + SOFTENING;
    float inv = 1.0f / sqrtf(dist2);
    float s = bj.mass * inv * inv * inv;
    return r * s;
}

__global__ void step(Body *bodies, int n, float dt)
{
    __shared__ Body tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Vec3 pi = i < n ? bodies[i].pos : Vec3();
    Vec3 acc;
    for (int base = 0; base < n; base += TILE) {
        if (base + threadIdx.x < n) tile[threadIdx.x] = bodies[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE && base + j < n; j++) acc += interaction(pi, tile[j]);
        __syncthreads();
    }
    if (i < n) {
        bodies[i].vel += acc * dt;
        bodies[i].pos += bodies[i].vel * dt;
    }
}

int main()
{
    const int n = 256;
    Body *h = new Body[n];
    for (int i = 0; i < n; i++) {
        h[i].pos = Vec3((float)(i % 16) - 7.5f, (float)(i / 16) - 7.5f, (float)((i * 7) % 5) * 0.5f);
        h[i].vel = Vec3(0.0f, 0.0f, 0.0f);
        h[i].mass = 1.0f + (float)(i % 3);
    }
    Body *d;
    cudaMalloc(&d, n * sizeof(Body));
    cudaMemcpy(d, h, n * sizeof(Body), cudaMemcpyHostToDevice);
    const float dt = 0.01f;
    step<<<n / TILE, TILE>>>(d, n, dt);
    Body *out = new Body[n];
    cudaMemcpy(out, d, n * sizeof(Body), cudaMemcpyDeviceToHost);

    double maxErr = 0;
    double energy = 0;
    for (int i = 0; i < n; i++) {
        Vec3 acc;
        for (int j = 0; j < n; j++) acc += interaction(h[i].pos, h[j]);
        Vec3 vel = h[i].vel + acc * dt;
        Vec3 pos = h[i].pos + vel * dt;
        Vec3 diff = pos - out[i].pos;
        maxErr = fmax(maxErr, sqrt((double)diff.dot(diff)));
        energy += 0.5 * out[i].mass * out[i].vel.dot(out[i].vel);
    }
    printf("body 0: pos (%.3f, %.3f, %.3f)\n", out[0].pos.x, out[0].pos.y, out[0].pos.z);
    printf("body 100: vel (%.3f, %.3f, %.3f)\n", out[100].vel.x, out[100].vel.y, out[100].vel.z);
    printf("kinetic energy %.3f\n", energy);
    printf("positions match the host: %s\n", maxErr < 1e-4 ? "yes" : "no");
    cudaFree(d);
    delete[] h;
    delete[] out;
    return 0;
}

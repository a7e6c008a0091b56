// runs until stopped: a counter that keeps changing memory (so no spin is detected)
__global__ void count(volatile unsigned *n) { for (;;) n[0] = n[0] + 1; }
int main() {
    unsigned *d;
    cudaMalloc(&d, sizeof(unsigned));
    count<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    return 0;
}

// Globals with dynamic initialisers run before main, in definition order: a table
// computed by a function, an object whose constructor prints, a size from a call.
#include <cstdio>
#include <vector>

struct Announcer {
    int id;
    Announcer(int i) : id(i) { printf("constructing global %d\n", id); }
    ~Announcer() { printf("destroying global %d\n", id); }
};

static int computeSize() { return 3 * 128 + 16; }

std::vector<int> buildTable(int n)
{
    std::vector<int> t(n);
    for (int i = 0; i < n; i++) t[i] = (i * i) % 251;
    printf("table of %d built\n", n);
    return t;
}

Announcer first(1);
const int gSize = computeSize();
std::vector<int> gTable = buildTable(gSize);
Announcer second(2);
float gScale = gSize / 100.0f;

__global__ void lookup(const int *table, int n, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[(i * 7) % n] + 1;
}

int main()
{
    printf("main: gSize=%d gScale=%.2f table[20]=%d\n", gSize, gScale, gTable[20]);
    int *dT, *dO;
    cudaMalloc(&dT, gSize * sizeof(int));
    cudaMalloc(&dO, gSize * sizeof(int));
    cudaMemcpy(dT, gTable.data(), gSize * sizeof(int), cudaMemcpyHostToDevice);
    lookup<<<(gSize + 127) / 128, 128>>>(dT, gSize, dO);
    std::vector<int> out(gSize);
    cudaMemcpy(out.data(), dO, gSize * sizeof(int), cudaMemcpyDeviceToHost);
    long s = 0;
    for (int v : out) s += v;
    printf("lookup sum %ld\n", s);
    cudaFree(dT);
    cudaFree(dO);
    return 0;
}

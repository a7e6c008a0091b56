// Nested template argument lists closed as C++11 closes them: `>>`, `>>>` and `>>>>`
// end two, three and four lists, while `a >> b` still shifts and `k<<<g, b>>>(...)`
// still launches; a class template holding a std::vector (its implicit destructor).
// Kernel output worked out by hand: halve<<<1, 8>>> writes (i * 10) >> 1 = 5 * i, and
// the host sums 0 + 5 + ... + 35 = 140.
#include <cstdio>
#include <vector>
#include <utility>

template <typename T>
struct Box {
    T value;
};

template <typename T>
struct Holder {
    T items;
    int count() const { return (int)items.size(); }
};

__global__ void halve(int *out) {
    int i = threadIdx.x;
    out[i] = (i * 10) >> 1;
}

int main() {
    Box<Box<Box<Box<int>>>> deep;
    deep.value.value.value.value = 42;
    printf("deep %d\n", deep.value.value.value.value);

    std::vector<std::vector<int>> grid(3, std::vector<int>(4, 1));
    grid[2][3] = 7;
    printf("grid %d x %d, corner %d\n", (int)grid.size(), (int)grid[0].size(), grid[2][3]);

    std::vector<Box<std::vector<int>>> boxes(2);
    boxes[1].value.push_back(9);
    printf("boxes %d, second holds %d\n", (int)boxes.size(), boxes[1].value[0]);

    Holder<std::vector<std::pair<int, int>>> pairs;
    pairs.items.push_back(std::make_pair(1, 2));
    pairs.items.push_back(std::make_pair(3, 4));
    printf("pairs %d, last %d\n", pairs.count(), pairs.items[1].second);

    int shifted = 256 >> 2 >> 1;
    Box<int> b;
    b.value = 1 << 4;
    printf("shifts %d %d\n", shifted, b.value >> 3);

    int *d;
    cudaMalloc(&d, 8 * sizeof(int));
    halve<<<1, 8>>>(d);
    int h[8];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int i = 0; i < 8; ++i) sum += h[i];
    printf("kernel sum %d\n", sum);
    cudaFree(d);
    return 0;
}

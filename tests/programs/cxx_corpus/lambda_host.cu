// Host lambdas: comparators for std::sort, captures by value and by reference, a lambda
// stored in auto and called in a loop, around results computed on the GPU.
#include <algorithm>
#include <cstdio>
#include <vector>

struct Item {
    int id;
    int score;
};

__global__ void score(Item *items, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) items[i].score = (items[i].id * 7919) % 1000;
}

int main()
{
    const int n = 300;
    std::vector<Item> items(n);
    for (int i = 0; i < n; i++) items[i] = Item{i, 0};
    Item *d;
    cudaMalloc(&d, n * sizeof(Item));
    cudaMemcpy(d, items.data(), n * sizeof(Item), cudaMemcpyHostToDevice);
    score<<<(n + 127) / 128, 128>>>(d, n);
    cudaMemcpy(items.data(), d, n * sizeof(Item), cudaMemcpyDeviceToHost);
    cudaFree(d);

    std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        return a.score != b.score ? a.score > b.score : a.id < b.id;
    });
    printf("top three: ");
    for (int i = 0; i < 3; i++) printf("(%d:%d) ", items[i].id, items[i].score);
    printf("\n");

    int threshold = 900;
    int above = 0;
    auto countAbove = [&above, threshold](const Item &it) {
        if (it.score > threshold) ++above;
    };
    for (const Item &it : items) countAbove(it);
    auto scale = [=](int v) { return v * threshold / 100; };
    int total = 0;
    std::for_each(items.begin(), items.end(), [&](const Item &it) { total += it.score; });
    printf("above %d: %d, scale(7) = %d, total %d\n", threshold, above, scale(7), total);
    auto byId = [](const Item &a, const Item &b) { return a.id < b.id; };
    std::sort(items.begin(), items.end(), byId);
    printf("first by id: %d:%d, last: %d:%d\n", items[0].id, items[0].score, items[n - 1].id, items[n - 1].score);
    return 0;
}

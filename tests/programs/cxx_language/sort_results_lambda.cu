// Ranking a kernel's results on the host: each thread scores one candidate
// (score = (id * 37) % 11, an integer held in a float), the host gathers
// {id, score} records in a std::vector, std::sort's them with a lambda comparator
// (higher score first, lower id on ties) and prints the top five as a table.
// Scores for ids 0..11: 0 4 8 1 5 9 2 6 10 3 7 0, worked out by hand.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

struct Result {
    int id;
    float score;
};

__global__ void score(float *out, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < n) out[id] = static_cast<float>((id * 37) % 11);
}

int main()
{
    const int n = 12;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    score<<<3, 4>>>(d, n);
    std::vector<float> scores(n);
    cudaMemcpy(scores.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);

    std::vector<Result> results;
    for (int i = 0; i < n; ++i) results.push_back(Result{i, scores[i]});
    std::sort(results.begin(), results.end(), [](const Result &a, const Result &b) {
        if (a.score != b.score) return a.score > b.score;
        return a.id < b.id;
    });

    std::cout << std::left << std::setw(6) << "rank" << std::setw(6) << "id" << "score" << std::endl;
    std::cout << std::string(17, '-') << std::endl;
    for (int r = 0; r < 5; ++r)
        std::cout << std::left << std::setw(6) << r + 1 << std::setw(6) << results[r].id << std::fixed
                  << std::setprecision(2) << results[r].score << std::endl;
    int threshold = 5;
    auto count = std::count_if(results.begin(), results.end(), [threshold](const Result &r) { return r.score >= threshold; });
    std::cout << count << " scores >= " << threshold << std::endl;
    return 0;
}

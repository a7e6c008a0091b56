// Host preprocessing with the standard containers feeding a kernel, as course exercises do:
// a std::string split by a range-for over its characters, words counted in two parallel
// vectors (names sorted with std::sort, counts looked up with std::find), their lengths bucketed on the GPU with atomicAdd, and the buckets
// gathered into pairs, sorted and reversed.
// Kernel output worked out by hand: the 12 words' lengths are
// the(3) quick(5) brown(5) fox(3) jumps(5) over(4) the(3) lazy(4) dog(3) the(3) end(3) fox(3),
// so buckets 3..5 hold 7, 2 and 3 words.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

__global__ void lengthHistogram(const int *lengths, int n, int *bins, int nbins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = lengths[i] < nbins ? lengths[i] : nbins - 1;
        atomicAdd(&bins[b], 1);
    }
}

std::vector<std::string> split(const std::string &text) {
    std::vector<std::string> words;
    std::string current;
    for (char c : text) {
        if (c == ' ') {
            if (!current.empty()) words.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty()) words.push_back(current);
    return words;
}

int main() {
    std::string text = "the quick brown fox jumps over the lazy dog the end fox";
    std::vector<std::string> words = split(text);
    std::vector<std::string> names = words;
    std::sort(names.begin(), names.end());
    names.resize(std::unique(names.begin(), names.end()) - names.begin());
    std::vector<int> counts(names.size(), 0);
    for (const std::string &w : words) counts[std::find(names.begin(), names.end(), w) - names.begin()]++;
    std::cout << words.size() << " words, " << names.size() << " distinct" << std::endl;
    for (size_t i = 0; i < names.size(); ++i)
        if (counts[i] > 1) std::cout << "  " << names[i] << " x" << counts[i] << std::endl;
    std::cout << "first " << names.front() << ", last " << names.back() << std::endl;

    std::vector<int> lengths;
    for (const auto &w : words) lengths.push_back((int)w.size());
    const int nbins = 8;
    int *dLengths, *dBins;
    cudaMalloc(&dLengths, lengths.size() * sizeof(int));
    cudaMalloc(&dBins, nbins * sizeof(int));
    cudaMemset(dBins, 0, nbins * sizeof(int));
    cudaMemcpy(dLengths, lengths.data(), lengths.size() * sizeof(int), cudaMemcpyHostToDevice);
    int n = (int)lengths.size();
    lengthHistogram<<<(n + 3) / 4, 4>>>(dLengths, n, dBins, nbins);
    std::vector<int> bins(nbins);
    cudaMemcpy(bins.data(), dBins, nbins * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(dLengths);
    cudaFree(dBins);

    std::vector<std::pair<int, int>> nonEmpty;
    for (int b = 0; b < nbins; ++b)
        if (bins[b] > 0) nonEmpty.push_back(std::make_pair(bins[b], b));
    std::sort(nonEmpty.begin(), nonEmpty.end());
    std::reverse(nonEmpty.begin(), nonEmpty.end());
    for (const auto &p : nonEmpty) printf("length %d: %d words\n", p.second, p.first);
    return 0;
}

// Building a report with std::string as host code does (substr, find, +=, to_string,
// comparisons), a class with an initializer_list constructor, a function returning a
// std::pair unpacked with .first and .second, and a kernel whose
// result the report describes.
// Kernel output worked out by hand: squareOdd<<<1, 8>>> on {3, 1, 4, 1, 5, 9, 2, 6} squares
// the odd values: 9 1 4 1 25 81 2 6; min 1, max 81, sum 129.
#include <cstdio>
#include <initializer_list>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

class Samples {
public:
    Samples(std::initializer_list<int> values) : values_(values) {}
    int size() const { return (int)values_.size(); }
    int *data() { return values_.data(); }
    const std::vector<int> &values() const { return values_; }

private:
    std::vector<int> values_;
};

__global__ void squareOdd(int *v, int n) {
    int i = threadIdx.x;
    if (i < n && v[i] % 2 == 1) v[i] = v[i] * v[i];
}

std::pair<int, int> minMax(const std::vector<int> &v) {
    int lo = v[0], hi = v[0];
    for (int x : v) {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    return std::make_pair(lo, hi);
}

std::string joined(const std::vector<int> &v, const std::string &sep) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += sep;
        out += std::to_string(v[i]);
    }
    return out;
}

int main() {
    Samples s = {3, 1, 4, 1, 5, 9, 2, 6};
    std::cout << "samples " << s.size() << ": " << joined(s.values(), ",") << std::endl;
    int *d;
    cudaMalloc(&d, s.size() * sizeof(int));
    cudaMemcpy(d, s.data(), s.size() * sizeof(int), cudaMemcpyHostToDevice);
    squareOdd<<<1, 8>>>(d, s.size());
    cudaMemcpy(s.data(), d, s.size() * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);

    std::pair<int, int> range = minMax(s.values());
    int lo = range.first, hi = range.second;
    int sum = 0;
    for (int x : s.values()) sum += x;
    std::string report = "result: " + joined(s.values(), " ");
    report += "; min " + std::to_string(lo) + ", max " + std::to_string(hi);
    report += "; sum " + std::to_string(sum);
    std::cout << report << std::endl;

    size_t at = report.find("max");
    std::string tail = report.substr(at);
    std::cout << "from 'max': " << tail << std::endl;
    std::string word = report.substr(0, report.find(':'));
    std::cout << "head '" << word << "' length " << word.size()
              << (word == "result" ? " matches" : " differs") << std::endl;
    std::string missing = report.find("median") == std::string::npos ? "no median" : "median";
    std::cout << missing << ", " << (std::string("abc") < std::string("abd") ? "abc<abd" : "abc>=abd") << std::endl;
    return 0;
}

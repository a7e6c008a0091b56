// A class without a default constructor (std::string members) kept in a std::vector,
// filled by push_back and emplace_back; a kernel curves the scores, copied to the
// device from a plain float array; std::sort with a lambda; an <iomanip> table.
// Kernel output, by hand: curve(s) = min(100, s * 1.1 + 2): 90 -> 100.0 (101 capped),
// 85 -> 95.5, 70 -> 79.0, 62 -> 70.2, 95 -> 100.0 (106.5 capped), 78 -> 87.8.
#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

class Student {
public:
    Student(std::string n, int s) : name(n), score(s), curved(0.0f) {}
    std::string name;
    int score;
    float curved;
};

__global__ void curve(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fminf(100.0f, in[i] * 1.1f + 2.0f);
}

int main()
{
    std::vector<Student> roster;
    roster.push_back(Student("Ann", 90));
    roster.emplace_back("Bob", 85);
    roster.emplace_back(std::string("Cyd"), 70);
    roster.push_back(Student("Dee", 62));
    roster.emplace_back("Eve", 95);
    Student &last = roster.emplace_back("Fay", 77);
    last.score += 1;
    std::cout << "students: " << roster.size() << ", capacity " << roster.capacity() << "\n";

    const int n = (int)roster.size();
    float scores[16];
    for (int i = 0; i < n; i++) scores[i] = (float)roster[i].score;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, scores, n * sizeof(float), cudaMemcpyHostToDevice);
    curve<<<1, 32>>>(d_in, d_out, n);
    cudaMemcpy(scores, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
    for (int i = 0; i < n; i++) roster[i].curved = scores[i];

    std::sort(roster.begin(), roster.end(), [](const Student &a, const Student &b) { return a.curved > b.curved || (a.curved == b.curved && a.name < b.name); });
    std::cout << std::left << std::setw(6) << "name" << std::right << std::setw(6) << "raw" << std::setw(8) << "curved" << "\n";
    for (const Student &s : roster)
        std::cout << std::left << std::setw(6) << s.name << std::right << std::setw(6) << s.score << std::setw(8)
                  << std::fixed << std::setprecision(1) << s.curved << "\n";
    return 0;
}

// Saving a kernel's results as CSV, as tutorials do before plotting: the file name is
// built with std::string and std::to_string, std::ofstream writes a header and rows,
// std::ifstream reads them back with std::getline and splits on ',' through a
// std::stringstream.  The kernel writes sq[i] = i * i and half[i] = i / 2.0f (exact),
// worked out by hand.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

__global__ void compute(int *sq, float *half, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        sq[i] = i * i;
        half[i] = i / 2.0f;
    }
}

std::string csvName(const std::string &stem, int n) { return stem + "_n" + std::to_string(n) + ".csv"; }

int main()
{
    const int n = 6;
    int *dSq;
    float *dHalf;
    cudaMalloc(&dSq, n * sizeof(int));
    cudaMalloc(&dHalf, n * sizeof(float));
    compute<<<1, n>>>(dSq, dHalf, n);
    std::vector<int> sq(n);
    std::vector<float> half(n);
    cudaMemcpy(sq.data(), dSq, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(half.data(), dHalf, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dSq);
    cudaFree(dHalf);

    const std::string name = csvName("results", n);
    {
        std::ofstream out(name);
        if (!out) {
            std::cerr << "cannot open " << name << std::endl;
            return 1;
        }
        out << "i,square,half\n";
        for (int i = 0; i < n; ++i) out << i << ',' << sq[i] << ',' << half[i] << '\n';
    }
    std::cout << "wrote " << name << std::endl;

    std::ifstream in(name);
    std::string line;
    std::getline(in, line);
    std::cout << "header: " << line << std::endl;
    int rows = 0, sumSq = 0;
    double sumHalf = 0;
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string field;
        std::vector<std::string> fields;
        while (std::getline(ss, field, ',')) fields.push_back(field);
        sumSq += std::stoi(fields[1]);
        sumHalf += std::stod(fields[2]);
        std::cout << "row " << rows << ": " << fields.size() << " fields, last '" << fields.back() << "'" << std::endl;
        ++rows;
    }
    std::cout << rows << " rows, sum of squares " << sumSq << ", sum of halves " << sumHalf << std::endl;
    return 0;
}

// A course exercise: read a matrix from the file named on the command line (shipped
// beside the program) with std::ifstream, sum its rows on the GPU.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

__global__ void rowSums(const int *m, int rows, int cols, int *sums)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int s = 0;
    for (int c = 0; c < cols; c++) s += m[r * cols + c];
    sums[r] = s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " matrix.txt" << std::endl;
        return 1;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "cannot open " << argv[1] << std::endl;
        return 1;
    }
    std::string line;
    std::getline(in, line);
    std::cout << "comment: " << line << std::endl;
    int rows = 0, cols = 0;
    in >> rows >> cols;
    std::vector<int> m(rows * cols);
    for (int i = 0; i < rows * cols; i++) in >> m[i];
    std::cout << "read " << rows << "x" << cols << " matrix" << std::endl;

    int *dM, *dS;
    cudaMalloc(&dM, m.size() * sizeof(int));
    cudaMalloc(&dS, rows * sizeof(int));
    cudaMemcpy(dM, m.data(), m.size() * sizeof(int), cudaMemcpyHostToDevice);
    rowSums<<<1, 32>>>(dM, rows, cols, dS);
    std::vector<int> sums(rows);
    cudaMemcpy(sums.data(), dS, rows * sizeof(int), cudaMemcpyDeviceToHost);
    std::ostringstream out;
    for (int r = 0; r < rows; r++) out << (r ? " " : "") << sums[r];
    std::cout << "row sums: " << out.str() << std::endl;
    cudaFree(dM);
    cudaFree(dS);
    return 0;
}

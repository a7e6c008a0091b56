// Formatting with string streams: a std::ostringstream report with manipulators and a
// std::istringstream parse of a configuration string, around a kernel.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

__global__ void powers(int base, long long *out, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    long long v = 1;
    for (int k = 0; k < i; k++) v *= base;
    out[i] = v;
}

int main()
{
    std::istringstream config("base=3 count=12 width=14");
    std::string token;
    int base = 2, count = 4, width = 8;
    while (config >> token) {
        std::string::size_type eq = token.find('=');
        std::string key = token.substr(0, eq);
        int value = std::stoi(token.substr(eq + 1));
        if (key == "base") base = value;
        else if (key == "count") count = value;
        else if (key == "width") width = value;
    }
    long long *d;
    cudaMalloc(&d, count * sizeof(long long));
    powers<<<1, 32>>>(base, d, count);
    std::vector<long long> h(count);
    cudaMemcpy(h.data(), d, count * sizeof(long long), cudaMemcpyDeviceToHost);
    cudaFree(d);

    std::ostringstream report;
    report << "powers of " << base << ":\n";
    for (int i = 0; i < count; i++)
        report << std::setw(3) << i << std::setw(width) << h[i] << std::setw(10) << std::hex << h[i] << std::dec << '\n';
    report << std::fixed << std::setprecision(3) << "ratio " << (double)h[count - 1] / h[count - 2] << '\n';
    report << std::scientific << std::setprecision(2) << "last " << (double)h[count - 1] << '\n';
    std::string text = report.str();
    std::cout << text;
    std::cout << "report has " << text.size() << " characters" << std::endl;
    std::cout << std::left << std::setw(6) << "left" << "|" << std::right << std::setw(6) << "right" << "|"
              << std::setfill('0') << std::setw(5) << 42 << std::endl;
    return 0;
}

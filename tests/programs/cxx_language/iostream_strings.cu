// Host-side text I/O around a kernel's results, as course material formats them:
// std::cout with <iomanip> (setw, setprecision, setfill, fixed/scientific, hex, boolalpha),
// std::string and std::to_string's integer and floating overloads in one statement,
// stoi/stod, string streams, and a file stream written in a block (closed by its
// destructor) then read back, and a missing file's stream failing.  The kernel writes
// i*i; the host prints what it read back (host output checked with g++, the kernel
// replaced by the same loop on the host).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

__global__ void squares(int *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = i * i;
}

void report(std::ostream &os, const std::string &title, const int *v, int n)
{
    os << title << ":";
    for (int i = 0; i < n; i++) os << ' ' << std::setw(3) << v[i];
    os << '\n';
}

int main()
{
    int h[8], *d;
    cudaMalloc(&d, sizeof(h));
    squares<<<1, 8>>>(d, 8);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    report(std::cout, "squares", h, 8);

    std::cout << 1.0 / 3 << ' ' << 2.5f << ' ' << 1e20 << ' ' << 123456789.0 << ' ' << -0.0001 << std::endl;
    std::cout << std::setprecision(10) << 1.0 / 3 << ' ' << std::fixed << 1.0 / 3 << std::endl;
    std::cout << std::scientific << std::setprecision(3) << 6.02214076e23 << std::defaultfloat << ' ' << 0.5 << std::endl;
    std::cout << std::hex << 255 << ' ' << std::dec << 255 << ' ' << std::boolalpha << true << ' ' << false << std::endl;
    std::cout << std::setfill('*') << std::left << std::setw(8) << "ab" << std::right << std::setw(6) << -12 << std::endl;
    unsigned u = 4000000000u;
    size_t z = 12345678901ull;
    std::cout << u << ' ' << z << ' ' << (long)-7 << ' ' << 'x' << ' ' << (void *)0 << std::endl;

    std::string s = "kernel";
    std::string t(3, '=');
    std::string label = t + " " + s + " " + std::to_string(8) + " threads " + t;
    std::cout << label << " (" << label.size() << ")" << std::endl;
    std::cout << std::to_string(1.5) << ' ' << std::to_string(-3) << ' ' << std::to_string(2.0f / 3) << std::endl;
    std::cout << s.substr(1, 3) << ' ' << s.find('n') << ' ' << (s.find("xyz") == std::string::npos) << ' '
              << (s < std::string("kernels")) << ' ' << (s == "kernel") << ' ' << s[0] << std::endl;
    std::cout << std::stoi("42") + 1 << ' ' << std::stod("2.25") * 2 << std::endl;

    std::ostringstream out;
    out << "n=" << 8 << ", last=" << h[7];
    std::string text = out.str();
    std::istringstream in("alpha 12 3.5\nsecond line here");
    std::string word, rest;
    int k = 0;
    double x = 0;
    in >> word >> k >> x;
    std::getline(in, rest);
    std::getline(in, rest);
    std::cout << text << " | " << word << ' ' << k << ' ' << x << " | " << rest << std::endl;

    {
        std::ofstream f("iostream_strings.txt");
        f << "values " << h[2] << ' ' << h[3] << '\n';
    }
    std::ifstream g("iostream_strings.txt");
    std::string w;
    int a = 0, b = 0;
    if (g.is_open() && g >> w >> a >> b) std::cout << w << " read back: " << a + b << std::endl;
    g.close();
    std::ifstream missing("no_such_file.txt");
    if (!missing) std::cout << "missing file fails" << std::endl;
    remove("iostream_strings.txt");
    return 0;
}

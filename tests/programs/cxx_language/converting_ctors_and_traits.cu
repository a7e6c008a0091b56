// A class built implicitly from another class by its converting constructor (copy
// initialisation `Fahrenheit f = c;`, a return), and a policy class's static members
// reached through a template's type parameter and through a typedef (`Unit::scale`,
// `Unit::name()`), as in traits-style host code around a kernel.
// The kernel scales in = {1, 2, 3, 4} by Milli::scale = 1000: {1000, 2000, 3000, 4000}.
#include <cstdio>

struct Celsius {
    float degrees;
    explicit Celsius(float d) : degrees(d) {}
};

struct Fahrenheit {
    float degrees;
    Fahrenheit(const Celsius &c) : degrees(c.degrees * 9.0f / 5.0f + 32.0f) {}
};

Fahrenheit boiling() { return Celsius(100.0f); }

struct Milli {
    static constexpr int scale = 1000;
    static const char *name() { return "milli"; }
};
struct Kilo {
    static constexpr int scale = 1;
    static const char *name() { return "kilo"; }
};
typedef Milli Default;

template <typename Unit>
void report(const int *values, int n)
{
    printf("%s (x%d):", Unit::name(), Unit::scale);
    for (int i = 0; i < n; i++) printf(" %d", values[i]);
    printf("\n");
}

__global__ void scale(int *v, int factor)
{
    v[threadIdx.x] *= factor;
}

int main()
{
    Celsius body(37.0f);
    Fahrenheit f = body;
    Fahrenheit b = boiling();
    printf("%.1f C = %.1f F, boiling %.1f F\n", body.degrees, f.degrees, b.degrees);

    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    scale<<<1, 4>>>(d, Default::scale);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    report<Milli>(h, 4);
    report<Kilo>(h, 2);
    printf("default unit %s, %d per unit\n", Default::name(), Default::scale);
    cudaFree(d);
    return 0;
}

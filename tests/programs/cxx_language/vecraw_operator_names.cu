// An assignment whose left side is *this returned as a reference (`return *this = *this
// * o;`), and operators called by name: operator<<(std::cout, c), a.operator+(b),
// operator==(a, b).
#include <iostream>

class Complex {
public:
    Complex(double r, double i) : re(r), im(i) {}
    Complex operator*(const Complex &o) const { return Complex(re * o.re - im * o.im, re * o.im + im * o.re); }
    Complex operator+(const Complex &o) const { return Complex(re + o.re, im + o.im); }
    Complex &operator*=(const Complex &o) { return *this = *this * o; }
    Complex &scale(double k)
    {
        Complex &self = *this = Complex(re * k, im * k);
        return self;
    }
    double re, im;
};

bool operator==(const Complex &a, const Complex &b) { return a.re == b.re && a.im == b.im; }

std::ostream &operator<<(std::ostream &os, const Complex &c) { return os << "(" << c.re << ", " << c.im << ")"; }

int main()
{
    Complex a(1, 2), b(3, -1);
    Complex &r = (a *= b);
    operator<<(std::cout, a) << "\n";
    std::cout << (&r == &a) << "\n";
    std::cout << a.operator+(b) << " " << operator==(a, a) << " " << operator==(a, b) << "\n";
    a.scale(2).scale(0.5);
    std::cout << a << "\n";
    int x = 1, y;
    int &z = (y = x + 4);
    z += 1;
    std::cout << y << "\n";
    return 0;
}

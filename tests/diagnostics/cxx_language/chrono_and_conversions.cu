#include <chrono>
struct Celsius { float degrees; };
struct Kelvin {
  float degrees;
  explicit Kelvin(const Celsius &c) : degrees(c.degrees + 273.15f) {}
};
int main() {
  Celsius c = {20.0f};
  Kelvin k = c;
  std::chrono::duration<double, std::milli> ms(1.5);
  std::chrono::duration<double> s = ms;
  return 0;
}
// EXPECT: 9:14: error: cannot initialize a variable of type 'Kelvin' with an lvalue of type 'Celsius'
// EXPECT: 11:37: error: cannot initialize a variable of type 'duration<double, ratio<1, 1>>' with an lvalue of type 'duration<double, ratio<1, 1000>>'
// An explicit converting constructor is not used by copy initialisation (as in C++); a
// duration of a floating count converts to another only by duration_cast in minicuda
// (libstdc++ converts it implicitly through a constructor template).

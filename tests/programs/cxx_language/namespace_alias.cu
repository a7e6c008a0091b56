// Namespace aliases at file scope and in blocks (nested targets, a using-directive through
// an alias), and a class template in a namespace deriving from that namespace's class.
#include <stdio.h>
namespace outer {
namespace inner {
int value = 7;
struct base { int b; int get() const { return b * 10; } };
template <typename T> struct box : public base { T v; };
int twice(int x) { return 2 * x; }
}
}
namespace oi = outer::inner;
int f() {
  namespace o = outer;
  return o::inner::value + oi::value;
}
int main() {
  oi::box<int> b;
  b.v = 3;
  b.b = 4;
  {
    namespace q = outer::inner;
    using namespace q;
    printf("%d %d %d %d\n", f(), q::twice(b.v), twice(4), b.get());
  }
  namespace q = oi;
  printf("%d\n", q::value);
  return 0;
}

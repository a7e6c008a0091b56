namespace outer { namespace inner { int value = 1; } }
namespace fs = cfg;
namespace in = outer::inner;
namespace bad = outer::missing;
int f() {
  namespace local = nowhere;
  namespace o = outer;
  return o::inner::value + in::value;
}
// EXPECT: 2:16: error: expected namespace name
// EXPECT: 4:17: error: expected namespace name
// EXPECT: 6:21: error: expected namespace name

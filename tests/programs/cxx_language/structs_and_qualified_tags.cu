// Range-for by value and by reference over structs, a reference to an element in a
// kernel, extern "C" on a kernel, a namespace's constexpr and enum used with `enum ns::E`.
#include <cstdio>
struct Point { float x, y; };
extern "C" __global__ void shift(Point *pts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { Point &p = pts[i]; p.x += 1.0f; p.y *= 2.0f; }
}
namespace cfg { constexpr int kThreads = 32; enum Mode { Fast, Slow }; }
int main() {
  Point pts[3] = {{1, 2}, {3, 4}, {5, 6}};
  for (auto &p : pts) p.x *= 10;
  for (Point p : pts) printf("%.0f ", p.x);
  printf("\n");
  Point *d;
  cudaMalloc(&d, sizeof(pts));
  cudaMemcpy(d, pts, sizeof(pts), cudaMemcpyHostToDevice);
  shift<<<1, cfg::kThreads>>>(d, 3);
  cudaMemcpy(pts, d, sizeof(pts), cudaMemcpyDeviceToHost);
  for (const Point &p : pts) printf("(%.0f,%.0f) ", p.x, p.y);
  printf("\n%d %d\n", cfg::Slow, (int)sizeof(enum cfg::Mode));
  unsigned long long big = static_cast<unsigned long long>(1) << 40;
  printf("%llu\n", big);
  return 0;
}

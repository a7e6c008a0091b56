# Kernels taking N int parameters (after one pointer) or one struct of N bytes, launched.
import sys
kind, n = sys.argv[1], int(sys.argv[2])
if kind == "int":
    params, args = ", ".join(f"int a{i}" for i in range(n)), ", ".join(str(i) for i in range(n))
    print(f"#include <stdio.h>\n__global__ void k(int *out, {params}) {{ out[0] = a0 + a{n-1}; }}\n"
          f"int main() {{ int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d, {args}); int h = 0; "
          f"cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf(\"%s %d\\n\", cudaGetErrorString(cudaGetLastError()), h); }}")
else:
    print(f"#include <stdio.h>\nstruct S {{ char c[{n}]; }};\n__global__ void k(S s, int *out) {{ out[0] = s.c[{n-1}]; }}\n"
          f"int main() {{ S s = {{}}; s.c[{n-1}] = 7; int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(s, d); int h = 0; "
          f"cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf(\"%s %d\\n\", cudaGetErrorString(cudaGetLastError()), h); }}")

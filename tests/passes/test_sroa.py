"""sroa: a struct or vector local whose address never escapes lives in registers at -O3
(0 bytes of local memory, no LDL/STL), as nvcc keeps it (tests/data/groundtruth/cuda/out/
features_sass.txt: registers_not_local.cu has no stack frame); an escaping address keeps
its variable in memory, and the results are the same either way.  A slot read as 64 bits
and as the two 32-bit words of it (the programming guide's Matrix struct: its pointer field
passed on as two parameter words, the struct returned in 8-byte pieces) lives in 32-bit
registers; other overlaps of two widths (a float4 copied whole and read by field) stay in
local memory."""
import pathlib

import pytest

from minicuda.api import compile as compile_program
from minicuda.cli import minicuda_main

PROGRAMS = pathlib.Path(__file__).parent.parent / "programs" / "cuda_features"


def frame_ops(fn) -> list[str]:
    return [ins.opcode for ins in fn.instructions() if ins.op in ("LDL", "STL")]


def test_a_float3_accumulator_a_struct_and_an_inlined_vector_function_use_no_local_memory():
    program = compile_program(str(PROGRAMS / "registers_not_local.cu"))
    for kernel in ("sum3", "bounce"):
        fn = program.functions[kernel]
        assert fn.local_bytes == 0 and frame_ops(fn) == [], kernel
        assert program.resource_usage[kernel].stack_frame == 0


def test_at_O0_the_locals_stay_in_local_memory():
    program = compile_program(str(PROGRAMS / "registers_not_local.cu"), opt=0)
    assert program.functions["sum3"].local_bytes > 0 and frame_ops(program.functions["sum3"])


ESCAPES = r"""
struct P { float x, y; };
__global__ void k(float *out, int j) {
    P kept, other;            // their addresses are chosen between at run time: local memory
    kept.x = out[0]; kept.y = out[1];
    other.x = out[4]; other.y = out[5];
    P *p = j > 5 ? &kept : &other;
    p->x += 1.0f;
    P free;                   // only its fields are used: registers
    free.x = out[2]; free.y = out[3];
    float a[4] = {1.0f, 2.0f, 3.0f, 4.0f};   // indexed by a run-time value: local memory
    out[threadIdx.x] = kept.x + kept.y + other.y + free.x * free.y + a[j & 3];
}
"""


def test_an_escaping_address_keeps_only_its_own_variable_in_memory():
    fn = compile_program(ESCAPES).functions["k"]
    assert fn.local_bytes > 0
    stores = {ins.srcs[0].base.offset + ins.srcs[0].offset for ins in fn.instructions()
              if ins.op == "STL" and getattr(ins.srcs[0].base, "name", "") == "frame"}
    # kept's and other's 2 words and a's 4 remain in the frame; free's stores are gone
    assert len(stores) == 2 + 2 + 4


RESULTS = r"""#include <cstdio>
struct Acc { float sum; int count; float sq; };
__device__ Acc add(Acc a, float v) { a.sum += v; a.count++; a.sq += v * v; return a; }
__global__ void k(const float *in, float *out, int n) {
    Acc acc = {0.0f, 0, 0.0f};
    float3 m = make_float3(-1e30f, 1e30f, 0.0f);
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        acc = add(acc, in[j]);
        m.x = fmaxf(m.x, in[j]); m.y = fminf(m.y, in[j]); m.z += 1.0f;
    }
    out[4 * threadIdx.x] = acc.sum / acc.count;
    out[4 * threadIdx.x + 1] = acc.sq;
    out[4 * threadIdx.x + 2] = m.x - m.y;
    out[4 * threadIdx.x + 3] = m.z;
}
int main() {
    const int n = 100;
    float h[n], r[16];
    for (int i = 0; i < n; i++) h[i] = (i * 37 % 101) * 0.25f - 3.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h); cudaMalloc(&d_out, sizeof r);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 4>>>(d_in, d_out, n);
    cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 16; i++) printf("%a\n", r[i]);
    return 0;
}
"""


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_registers_give_what_local_memory_gave(tmp_path, capsys, engine):
    path = tmp_path / "acc.cu"
    path.write_text(RESULTS)
    outputs = []
    for opt in ("-O0", "-O3"):
        assert minicuda_main(["run", "--no-cache", "--engine", engine, opt, str(path)]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and len(outputs[1].splitlines()) == 16
    assert compile_program(RESULTS).functions["k"].local_bytes == 0


def test_a_local_array_read_at_an_unrolled_index_lives_in_registers():
    """`const int taps[7]` read as taps[k] in a `#pragma unroll` loop: after loop-unroll the
    index is a constant and sroa's second run promotes the array (LLVM's SROA after full
    unrolling), so no local memory is left and each tap multiplies by an immediate."""
    source = """__global__ void fir(const int *signal, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int taps[7] = {1, 2, 3, 4, 3, 2, 1};
  int sum = 0;
#pragma unroll
  for (int k = 0; k < 7; k++) { int j = i - k; if (j >= 0) sum += taps[k] * signal[j]; }
  out[i] = sum;
}
"""
    fn = compile_program(source).functions["fir"]
    assert fn.local_bytes == 0 and frame_ops(fn) == []
    assert not any(ins.op == "BRA" for ins in fn.instructions())   # seven short arms, predicated


GUIDE = pathlib.Path(__file__).parent.parent / "fidelity" / "heldout2" / "programs" / "matmul_guide_events.cu"
# the guide's Matrix, GetElement, SetElement, GetSubMatrix and MatMulKernel, with a small main
MATRIX = GUIDE.read_text().split("static Matrix device_copy", 1)[0] + r"""
static Matrix on_device(Matrix h) {
  Matrix d = h;
  cudaMalloc(&d.elements, h.width * h.height * sizeof(float));
  cudaMemcpy(d.elements, h.elements, h.width * h.height * sizeof(float), cudaMemcpyHostToDevice);
  return d;
}
int main(void) {
  static float a[32 * 32], b[32 * 16], c[32 * 16];
  Matrix A = {32, 32, 32, a}, B = {16, 32, 16, b}, C = {16, 32, 16, c};
  for (int i = 0; i < 32 * 32; i++) a[i] = (float)(i % 7 - 3);
  for (int i = 0; i < 32 * 16; i++) b[i] = (float)((i / 3) % 5 - 2);
  Matrix dA = on_device(A), dB = on_device(B), dC = on_device(C);
  MatMulKernel<<<dim3(1, 2), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(dA, dB, dC);
  cudaMemcpy(c, dC.elements, sizeof(c), cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 16; j++) {
      float s = 0;
      for (int k = 0; k < 32; k++) s += a[i * 32 + k] * b[k * 16 + j];
      errors += c[i * 16 + j] != s;
    }
  printf("C[0][0] %.1f C[31][15] %.1f errors %d\n", c[0], c[32 * 16 - 1], errors);
  return errors != 0;
}
"""


def test_the_guides_matrix_structs_passed_and_returned_by_value_live_in_registers(tmp_path, capsys):
    """The programming guide's Matrix multiply: each Matrix passed by value and returned by
    GetSubMatrix stays in registers at -O3 (nvcc's SROA after inlining), none of its fields
    copied through local memory."""
    path = tmp_path / "matrix.cu"
    path.write_text(MATRIX)
    from minicuda.cli import minicudac_main   # noqa: PLC0415
    assert minicudac_main([str(path), "-O3", "--emit=sass-like"]) == 0
    text = capsys.readouterr().out
    kernel = text.split(".kernel MatMulKernel", 1)[1].split(".end MatMulKernel", 1)[0]
    assert ".local 0 " in kernel
    assert not [line for line in kernel.splitlines() if line.split()[:1] in (["LDL"], ["STL"], ["LDL.64"], ["STL.64"])]
    assert "CALL" not in kernel   # GetSubMatrix, GetElement and SetElement inlined
    main = compile_program(MATRIX, opt=3).functions["main"]
    assert main.local_bytes < 3 * 24 + 32 * 32 * 4 + 2 * 32 * 16 * 4, main.local_bytes


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_the_guides_matrix_multiply_is_right_on_both_engines(tmp_path, capsys, engine):
    path = tmp_path / "matrix.cu"
    path.write_text(MATRIX)
    assert minicuda_main(["run", "--no-cache", "--engine", engine, "-O3", str(path)]) == 0
    assert capsys.readouterr().out == "C[0][0] 14.0 C[31][15] 22.0 errors 0\n"

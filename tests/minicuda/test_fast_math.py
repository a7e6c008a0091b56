"""-use_fast_math (and --use_fast_math): device code's sinf, cosf, tanf, expf, logf,
log2f, log10f, powf and their std:: float forms are the fast intrinsics (__sinf, ...) and
float x / y is __fdividef(x, y); doubles and host code keep IEEE math, as nvcc's do.
That the mapped functions give their intrinsics' bits on a GPU and on both engines is
tests/programs/cuda_intrinsics/fast_math_option.cu."""
import pytest

from minicuda.cli import minicuda_main, minicudac_main

SOURCE = """\
#include <cmath>
__device__ float through(float x) { return logf(x); }
__global__ void k(float *f, double *d) {
    f[0] = sinf(f[1]);
    f[2] = std::pow(f[3], f[4]);
    f[5] = f[6] / f[7];
    f[8] = through(f[9]);
    f[10] = sqrtf(f[11]);
    d[0] = d[1] / d[2];
    d[3] = sin(d[4]);
}
int main(int argc, char **argv) {
    float x = argc + 2.0f;
    float y = sinf(x) / x;
    return y > 1.0f;
}
"""


def functions(tmp_path, capsys, *options) -> dict[str, list[str]]:
    """minicudac's sass-like text: each function's instructions, opcode and modifiers only."""
    path = tmp_path / "fast.cu"
    path.write_text(SOURCE)
    out = tmp_path / "fast.sass"
    assert minicudac_main([str(path), "-o", str(out), *options]) == 0, capsys.readouterr().err
    result, name = {}, None
    for line in out.read_text().splitlines():
        if line.startswith((".kernel", ".device", ".host")):
            name = line.split()[1]
            result[name] = []
        elif name and line.startswith("  ") and not line.lstrip().startswith("."):
            words = line.split("//")[0].split()
            result[name].append(words[1] if words[0].startswith("@") else words[0])
    return result


@pytest.mark.parametrize("spelling", ["-use_fast_math", "--use_fast_math"])
def test_device_float_math_is_the_fast_intrinsics(tmp_path, capsys, spelling):
    fast = functions(tmp_path, capsys, spelling)
    kernel, device = fast["k"], fast["through"]
    # -use_fast_math implies -ftz=true: device code's f32 instructions carry .FTZ
    assert "MUFU.SIN.APPROX.FTZ" in kernel and "FMUL.FTZ.RZ" in kernel                  # sinf: __sinf
    assert {"MUFU.LG2.APPROX.FTZ", "MUFU.EX2.APPROX.FTZ"} <= set(kernel)                # std::pow: __powf
    assert "MUFU.RCP.APPROX.FTZ" in kernel and not any(op.startswith("FDIV") for op in kernel)   # x / y: __fdividef
    assert "MUFU.LG2.APPROX.FTZ" in device                                               # logf in a __device__ function
    assert "MUFU.SQRT.FTZ" in kernel                                                     # sqrtf: only flushed
    assert "DDIV" in kernel and "MUFU.SIN.F64" in kernel                                 # doubles: unchanged


def test_host_code_and_the_default_keep_ieee_math(tmp_path, capsys):
    fast, plain = functions(tmp_path, capsys, "-use_fast_math"), functions(tmp_path, capsys)
    assert fast["main"] == plain["main"] and "FDIV" in fast["main"] and "MUFU.SIN" in fast["main"]
    assert "FDIV" in plain["k"] and "MUFU.SIN" in plain["k"]
    assert not any(op.endswith(".APPROX") for op in plain["k"] + plain["through"])


def test_minicuda_run_takes_the_option(tmp_path, capsys):
    path = tmp_path / "run.cu"
    path.write_text("""\
#include <cstdio>
__global__ void k(float *p) { p[0] = p[1] / p[2]; p[3] = __fdividef(p[1], p[2]); }
int main() {
    float *p; cudaMallocManaged(&p, 4 * sizeof(float));
    p[1] = 1.0f; p[2] = 3.0f;
    k<<<1, 1>>>(p); cudaDeviceSynchronize();
    printf("%d\\n", p[0] == p[3]);
    return 0;
}
""")
    for spelling in ("-use_fast_math", "--use_fast_math"):
        assert minicuda_main(["run", "--engine", "interp", "--no-cache", spelling, str(path)]) == 0
        assert capsys.readouterr().out == "1\n"

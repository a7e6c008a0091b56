"""fma-contract against an H100 (tests/data/groundtruth/fma/): nvcc's default --fmad=true
makes ptxas fuse a * b - c, c - a * b and -(a * b) + c into one FFMA at -O3 and nothing
under -G, so device programs print the GPU's last bits only when minicuda contracts the
same pairs; --fmad=false and the _rn intrinsics never fuse."""
import re
from pathlib import Path

import pytest

from minicuda.cli import minicuda_main, minicudac_main

RECORD = Path(__file__).parents[1] / "data" / "groundtruth" / "fma"
PROGRAM = RECORD / "fma_cases.cu"

# one thread's a * b - c, c - a * b, a * b + c and the double ones, with fma_cases.cu's
# inputs for thread 0 (a = 3/13, b = 11/7, c = 1/9): the H100 printed 3e80c80c (fused)
# at -O3 and 3e80c80d (rounded twice) under -G for a * b - c
SMALL = r"""
#include <cstdio>
__global__ void k(const float *x, const double *y, unsigned *o, unsigned long long *d) {
    float a = x[0], b = x[1], c = x[2];
    o[0] = __float_as_uint(a * b - c);
    o[1] = __float_as_uint(c - a * b);
    o[2] = __float_as_uint(-(a * b) - c);
    o[3] = __float_as_uint(__fadd_rn(__fmul_rn(a, b), -c));
    double p = y[0], q = y[1], r = y[2];
    d[0] = __double_as_longlong(p * q - r);
}
int main() {
    float hx[3] = {3.0f / 13.0f, 11.0f / 7.0f, 1.0f / 9.0f};
    double hy[3] = {3.0 / 13.0, 11.0 / 7.0, 1.0 / 9.0};
    float *x; double *y; unsigned *o; unsigned long long *d;
    cudaMalloc(&x, sizeof hx); cudaMalloc(&y, sizeof hy);
    cudaMalloc(&o, 4 * sizeof(unsigned)); cudaMalloc(&d, sizeof(unsigned long long));
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
    k<<<1, 1>>>(x, y, o, d);
    unsigned h[4]; unsigned long long hd;
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    printf("%08x %08x %08x %08x %016llx\n", h[0], h[1], h[2], h[3], hd);
    float hp = hx[0] * hx[1] - hx[2];
    printf("host %08x\n", *(unsigned *)&hp);
    return 0;
}
"""


def gpu_lines(name: str) -> dict[str, str]:
    return {line.split()[0]: line for line in (RECORD / name).read_text().splitlines()}


def run(capsys, *args) -> str:
    assert minicuda_main(["run", "--no-cache", *args]) == 0
    return capsys.readouterr().out


@pytest.fixture
def small(tmp_path) -> str:
    path = tmp_path / "small.cu"
    path.write_text(SMALL)
    return str(path)


@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_fused_bits_are_the_gpus(small, engine, capsys):
    o3 = gpu_lines("fma_cases_O3.gpu")
    g = gpu_lines("fma_cases_G.gpu")
    out = run(capsys, "--engine", engine, small).split()
    assert out[0] == o3["msub"].split()[1] != g["msub"].split()[1]     # the rounding shows
    assert out[1] == o3["rsub"].split()[1]
    assert out[2] == o3["negboth"].split()[1]
    assert out[3] == g["fsubrn"].split()[1]                            # _rn: never fused
    assert out[6] == g["msub"].split()[1]                              # host code: rounded twice
    unfused = run(capsys, "--engine", engine, "--fmad=false", small).split()
    assert unfused[0] == g["msub"].split()[1] and unfused[1] == g["rsub"].split()[1]
    assert run(capsys, "--engine", engine, "-G", small).split() == unfused


def listing(tmp_path, *args) -> str:
    out = tmp_path / "out.sass"
    assert minicudac_main([str(PROGRAM), "--emit=sass-like", "-o", str(out), *args]) == 0
    return out.read_text()


def kernel(text: str, name: str) -> list[str]:
    body = re.search(rf"^\.kernel {name} .*?^\.end {name}$", text, re.S | re.M).group(0)
    return [line.split()[0] for line in body.splitlines() if line.startswith("  ") and not line.startswith("  .")]


def test_listing_has_ffma_where_ptxas_fuses(tmp_path):
    text = listing(tmp_path)
    assert kernel(text, "k_msub").count("FFMA.NEGC") == 1 and "FMUL" not in kernel(text, "k_msub")
    assert "FFMA.NEGP" in kernel(text, "k_rsub") and "FFMA.NEGP" in kernel(text, "k_negprod")
    assert "FFMA.NEGP.NEGC" in kernel(text, "k_negboth")
    assert sum(op.startswith("DFMA") for op in kernel(text, "k_dmad")) == 3 and "DMUL.RN" in kernel(text, "k_dmad")
    assert {"FMUL.RN", "FADD.RN", "FMUL", "FADD"} <= set(kernel(text, "k_rn"))     # no pair without .RN
    assert not any(op.startswith("FFMA") for op in kernel(text, "k_rn"))
    assert "FFMA" in kernel(text, "k_loop")


@pytest.mark.parametrize("flag", ["--fmad=false", "-fmad=false", "-G"])
def test_no_contraction_keeps_fmul_and_fadd(tmp_path, flag):
    ops = kernel(listing(tmp_path, flag), "k_mad")
    assert "FMUL" in ops and "FADD" in ops and not any(op.startswith("FFMA") for op in ops)


def test_bad_fmad_value_is_an_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        minicudac_main([str(PROGRAM), "--fmad=maybe"])
    assert exc.value.code != 0 and "fmad" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["interp", "jit"])
@pytest.mark.parametrize("build, flags", [("O3", []), ("G", ["-G"]), ("nofmad", ["--fmad=false"]),
                                          ("fastmath", ["-use_fast_math"])])
def test_recorded_program_prints_the_gpus_bits(engine, build, flags, capsys):
    """Each build prints what the H100 printed: -O3 fused as ptxas fuses, -G and --fmad=false
    rounded twice, -use_fast_math fused and flushed (FFMA.FTZ)."""
    assert run(capsys, "--engine", engine, *flags, str(PROGRAM)) == (RECORD / f"fma_cases_{build}.gpu").read_text()

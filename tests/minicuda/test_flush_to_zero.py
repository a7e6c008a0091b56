"""-ftz=true: the FTZ modifier's semantics (minicuda/semantics.py, the definition both
engines share; tests/vm/test_jit_ops.py holds the JIT to it bit for bit) on the cases an
H100 showed (tests/data/groundtruth/cuda/out/features.txt), and the option's spellings."""
import numpy as np
import pytest

from minicuda import semantics as S
from minicuda.cli import minicuda_main, minicudac_main
from minicuda.diagnostics import InternalError
from minicuda.ir import parse_instr


def value(text: str, *bits: int) -> int:
    ins = parse_instr(text, 1)
    srcs = [np.asarray(b, dtype=np.uint64 if w == 64 else np.uint32) for b, w in zip(bits, S.source_widths(ins))]
    return int(S.evaluate(ins, srcs))


@pytest.mark.parametrize("text,operands,plain,flushed", [
    ("FADD %r0, %r1, %r2", (0x00000001, 0x00000001), 0x00000002, 0x00000000),          # subnormal operands
    ("FADD %r0, %r1, %r2", (0x80000003, 0x00000002), 0x80000001, 0x00000000),          # -0 + +0 = +0
    ("FSUB %r0, %r1, %r2", (0x007fffff, 0x00000001), 0x007ffffe, 0x00000000),
    ("FMUL %r0, %r1, %r2", (0x3f800000, 0x80000001), 0x80000001, 0x80000000),          # sign kept
    # tiny before rounding: the exact product is below 2^-126 though it rounds to 2^-126
    ("FMUL %r0, %r1, %r2", (0x3f7fffff, 0x00800000), 0x00800000, 0x00000000),
    ("FMUL %r0, %r1, %r2", (0x00800000, 0xbf7fffff), 0x80800000, 0x80000000),
    ("FFMA %r0, %r1, %r2, %r3", (0x3f800000, 0x00400000, 0x3f800000), 0x3f800000, 0x3f800000),
    ("FNEG %r0, %r1", (0x00000001,), 0x80000001, 0x80000000),
    ("FMNMX.MIN %r0, %r1, %r2", (0x80400000, 0x3f800000), 0x80400000, 0x80000000),
    ("MUFU.FABS %r0, %r1", (0x80000001,), 0x00000001, 0x00000000),
    ("F2F.F32.F64 %r0, %rd1", (0x37F0000000000000,), 0x00200000, 0x00000000),          # a subnormal result
    ("F2I.U32.F32.RU %r0, %r1", (0x00000001,), 1, 0),                                  # ceil of a flushed 0
])
def test_ftz_flushes_operands_and_results(text, operands, plain, flushed):
    op, rest = text.split(" ", 1)
    parts = op.split(".")
    with_ftz = ".".join([parts[0], *S.with_ftz(parts[0], tuple(parts[1:]))]) + " " + rest
    assert value(text, *operands) == plain
    assert value(with_ftz, *operands) == flushed


def test_ffma_flushes_its_rounded_result():
    # -2^-126 * 2^-126 + 2^-126 = 2^-126 - 2^-252 rounds to 2^-126, which FFMA.FTZ keeps: it
    # flushes after rounding, unlike FMUL (with FMUL's rule the H100's damped_springs values
    # under -use_fast_math are not reproduced: tests/programs/cuda_features/)
    a, b, c = 0x80800000, 0x00800000, 0x00800000
    assert value("FFMA %r0, %r1, %r2, %r3", a, b, c) == 0x00800000
    assert value("FFMA.FTZ %r0, %r1, %r2, %r3", a, b, c) == 0x00800000
    assert value("FFMA.FTZ %r0, %r1, %r2, %r3", b, b, c) == 0x00800000          # above: kept
    assert value("FFMA.FTZ %r0, %r1, %r2, %r3", 0x3f800000, 0x00800000, 0x00000000) == 0x00800000


def test_fsetp_compares_flushed_operands():
    assert value("FSETP.GT %p0, %r1, %r2", 0x00000001, 0) and not value("FSETP.GT.FTZ %p0, %r1, %r2", 0x00000001, 0)
    assert value("FSETP.EQ.FTZ %p0, %r1, %r2", 0x80000001, 0x00000005)


def test_ftz_is_a_modifier_of_float_instructions_only():
    with pytest.raises(InternalError):
        value("IADD.FTZ %r0, %r1, %r2", 1, 2)
    assert not S.takes_ftz("DADD", ()) and not S.takes_ftz("FADD", ("F64",)) and S.takes_ftz("FADD", ())
    assert S.with_ftz("FSETP", ("GT",)) == ("GT", "FTZ") and S.with_ftz("MUFU", ("RSQ", "APPROX"))[-1] == "FTZ"


def test_an_unknown_ftz_value_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(float *p) { p[0] = p[1] * p[2]; }\nint main() { return 0; }\n")
    with pytest.raises(SystemExit) as stop:
        minicudac_main([str(path), "-ftz=maybe"])
    assert stop.value.code == 2 and "-ftz" in capsys.readouterr().err
    assert minicuda_main(["run", "--no-cache", "--ftz", "true", str(path)]) == 0



def test_the_listing_runs_as_compiled(tmp_path, capsys):
    """The .FTZ modifiers are in the .sass text: running it flushes as running the source does."""
    path = tmp_path / "k.cu"
    path.write_text(r"""#include <cstdio>
__global__ void k(float *p) { p[0] = p[1] * p[2]; p[3] = p[1] + p[4]; }
int main() {
    float *p; cudaMallocManaged(&p, 5 * sizeof(float));
    p[1] = 1e-20f; p[2] = 1e-20f; p[4] = -1e-39f;
    k<<<1, 1>>>(p); cudaDeviceSynchronize(); printf("%a %a\n", p[0], p[3]); return 0;
}
""")
    sass = tmp_path / "k.sass"
    assert minicudac_main([str(path), "-ftz=true", "-o", str(sass)]) == 0
    assert "FMUL.FTZ" in sass.read_text()
    assert minicuda_main(["run", "--no-cache", "-ftz=true", str(path)]) == 0
    direct = capsys.readouterr().out
    assert minicuda_main(["run", str(sass)]) == 0
    assert capsys.readouterr().out == direct == "0x0p+0 0x1.79ca1p-67\n"   # 1e-20f + a flushed -1e-39f

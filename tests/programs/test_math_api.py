"""The math functions beyond C89's (erfc, lgamma, remquo, sinpi, erfinv, ...) against what real
machines print.  Host code: tests/data/groundtruth/math_api/host_glibc.c, built here with cc,
prints glibc's results on 320 inputs; minicuda must print the same, bit for bit.  Device code:
math_device.cu printed by an H100 (math_device.gpu, recorded by record.sh with nvcc 13.0
`-O3 -arch=sm_90`); the exact functions agree everywhere, the others where the GPU's is the
correctly rounded value or its error lands the same way: the agreement measured is pinned."""
import pathlib
import shutil
import subprocess

import pytest

from minicuda import frontend
from minicuda.cli import minicuda_main
from minicuda.sourcefile import SourceText

DATA = pathlib.Path(__file__).parent.parent / "data" / "groundtruth" / "math_api"
COLUMNS = ("erfc lgamma tgamma exp10 asinh acosh atanh logb nearbyint nextafter remainder frexp modf "
           "modf_int remquo scalbn ldexp sin cos sinpi cospi sincospi_sin sincospi_cos normcdf rcbrt "
           "erfinv erfcinv erfcinv_small erfinv_small frexp_exp remquo_quo ilogb llrint llround llrintf").split()
# inputs (of 320) where minicuda prints the GPU's bits; the columns not named agree on all 320
# (remquo's quotient: glibc's is 0 to 8 in size, the GPU's its low three bits)
AGREEMENT = {
    "d": {"erfc": 266, "lgamma": 196, "tgamma": 199, "exp10": 240, "asinh": 294, "acosh": 316, "atanh": 288,
          "sin": 270, "cos": 282, "sinpi": 276, "cospi": 279, "sincospi_sin": 256, "sincospi_cos": 292,
          "normcdf": 235, "rcbrt": 146, "erfinv": 170, "erfcinv": 156, "erfcinv_small": 134, "erfinv_small": 251,
          "remquo_quo": 316},
    "f": {"erfc": 255, "lgamma": 192, "tgamma": 225, "exp10": 249, "asinh": 250, "acosh": 311, "atanh": 235,
          "sin": 260, "cos": 268, "sinpi": 290, "cospi": 297, "sincospi_sin": 264, "sincospi_cos": 301,
          "normcdf": 261, "rcbrt": 287, "erfinv": 213, "erfcinv": 216, "erfcinv_small": 156, "erfinv_small": 211,
          "remquo_quo": 316},
}
SPECIAL_INPUTS = 24   # 0, -0, +-1, +-2, -3, +-0.5, +-1e300, a subnormal, ..., inf, -inf, nan


def _run(path, engine, capsys, tmp_path, monkeypatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    status = minicuda_main(["run", "--engine", engine, str(path)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out.splitlines()


def _exact(value: str) -> bool:
    """A special value: inf, nan, a zero or an integer (ldexp/frexp results are exact anyway)."""
    return value in ("inf", "-inf", "nan") or value.lstrip("-") in ("0x0p+0", "0x1p+0", "0x1p-1")


@pytest.mark.slow
def test_device_results_agree_with_the_gpu_as_measured(capsys, tmp_path, monkeypatch):
    gpu = (DATA / "math_device.gpu").read_text().replace("-nan", "nan").splitlines()
    ours = _run(DATA / "math_device.cu", "jit", capsys, tmp_path, monkeypatch)
    assert len(ours) == len(gpu) == 640
    agree = {"d": dict.fromkeys(COLUMNS, 0), "f": dict.fromkeys(COLUMNS[:32], 0)}   # f: no llrint & co.
    for theirs, mine in zip(gpu, ours):
        index, kind, *expected = theirs.split()
        got = mine.split()[2:]
        for column, want, have in zip(COLUMNS, expected, got):
            agree[kind][column] += want == have
            if int(index) < SPECIAL_INPUTS and _exact(want):
                assert have == want, (index, kind, column)
    for kind in "df":
        assert agree[kind] == {c: AGREEMENT[kind].get(c, 320) for c in agree[kind]}, kind


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler to run glibc")
def test_host_results_are_glibcs(capsys, tmp_path, monkeypatch):
    source = DATA / "host_glibc.c"
    binary = tmp_path / "host_glibc"
    subprocess.run(["cc", "-D_GNU_SOURCE", "-O2", "-o", str(binary), str(source), "-lm"], check=True)
    glibc = subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout
    cu = tmp_path / "host_glibc.cu"
    cu.write_text(source.read_text())
    # minicuda's NaN is canonical (positive); x86 glibc's default NaN has its sign bit set
    assert _run(cu, "interp", capsys, tmp_path, monkeypatch) == glibc.replace("-nan", "nan").splitlines()


def test_a_bad_call_of_a_library_function_is_a_located_error(capsys, tmp_path):
    program = tmp_path / "bad.cu"
    program.write_text("__global__ void k(double *o) { o[0] = frexp(o[1]); o[1] = sinpi(o, 2); }\n"
                       "int main() { return 0; }\n")
    assert minicuda_main(["run", str(program)]) == 1
    err = capsys.readouterr().err
    assert "bad.cu:1:39: error: no matching function for call to 'frexp' with arguments (double)" in err
    assert "bad.cu:1:59: error: no matching function for call to 'sinpi' with arguments (double *, int)" in err


def test_the_library_is_parsed_only_for_a_unit_calling_it():
    calls = frontend.load(SourceText("x.cu", "int main() { int e; return (int)frexp(8.0, &e) + e; }\n"))
    assert {f.name for f in calls.tu.functions} == {"main", "frexp", "ilogb", "scalbn"}
    plain = frontend.load(SourceText("y.cu", "int main() { return (int)sqrt(4.0); }\n"))
    assert [f.name for f in plain.tu.functions] == ["main"]
    assert "math_library" not in "".join(file for file, _ in plain.pp.line_map)

"""The fast-math intrinsics against an H100's own results (tests/data/groundtruth/:
mufu_h100.npz, measured by mufu_measure.py, README.md's "Fast-math intrinsics").

minicuda models each MUFU approximation (semantics.py, MUFU.<fn>.APPROX) and runs nvcc's
instruction sequences round it, so every special value (zeros, subnormals, infinities,
NaN, huge arguments) and every result the GPU gives as 0, an infinity or NaN is the GPU's bit for bit.  The approximations' last bits are not: per function the
share of bit-exact results and the largest error in ulps are held to what the model
reached when it was fitted (the numbers below), so a change that moves the model away
from the GPU fails here.  Both engines give the same bits for every input."""
from pathlib import Path

import numpy as np
import pytest

from minicuda import semantics as S
from minicuda.cli import minicuda_main
from minicuda.ir import Instr, Reg

DATA = Path(__file__).resolve().parents[1] / "data" / "groundtruth"
SAMPLES = np.load(DATA / "mufu_h100.npz")
PROGRAM = DATA / "mufu_check.cu"
# mufu_check.cu's functions, in its order
INTRINSICS = ["sinf", "cosf", "tanf", "expf", "exp10f", "logf", "log2f", "log10f", "powf", "fdividef",
              "rsqrtf", "frcp", "frsqrt", "sincos_s", "sincos_c"]
SPECIALS = 34   # the last inputs of each function: 0, -0, 1, -1, inf, -inf, NaN, subnormals, ...
# function -> (share of bit-exact results at least, largest error in ulps at most) on these
# samples; the ulp error of sin, cos and tan is large only where the result is near 0 (the
# GPU's error is absolute there, about 2^-21.4), of powf where the result is large
FIT = {"sinf": (0.52, 687), "cosf": (0.53, 252), "tanf": (0.47, 6918), "expf": (0.76, 2), "exp10f": (0.73, 2),
       "logf": (0.80, 2), "log2f": (0.80, 4), "log10f": (0.75, 2), "powf": (0.69, 84), "fdividef": (0.91, 2),
       "rsqrtf": (0.86, 1), "frcp": (1.0, 0), "frsqrt": (1.0, 0), "sincos_s": (0.52, 687), "sincos_c": (0.50, 487)}
# the raw MUFU ops (PTX rcp/rsqrt/ex2/lg2.approx.ftz.f32: one MUFU each) -> (share exact, ulps)
RAW = {"rcp": ("RCP", 0.86, 1), "rsq": ("RSQ", 0.92, 1), "ex2": ("EX2", 0.76, 2), "lg2": ("LG2", 0.75, 2)}


def ordered(bits: np.ndarray) -> np.ndarray:
    """Float bit patterns as integers ordered like the floats (ulp distance = difference)."""
    i = bits.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def compare(gpu: np.ndarray, ours: np.ndarray) -> tuple[np.ndarray, int]:
    """(bit-exact per input, NaN counting as equal to NaN; the largest ulp error)."""
    gpu_nan, our_nan = np.isnan(gpu.view(np.float32)), np.isnan(ours.view(np.float32))
    assert (gpu_nan == our_nan).all(), "NaN where the GPU gives a number, or the reverse"
    same = (gpu == ours) | gpu_nan
    errors = np.abs(ordered(gpu) - ordered(ours))[~gpu_nan]
    return same, int(errors.max(initial=0))


def settled(gpu: np.ndarray, ours: np.ndarray) -> np.ndarray:
    """Where either gives 0, an infinity or NaN: the approximation's blur cannot reach these."""
    return ~np.isfinite(gpu.view(np.float32)) | ~np.isfinite(ours.view(np.float32)) | \
        (gpu.view(np.float32) == 0) | (ours.view(np.float32) == 0)


def run_program(directory: Path, engine: str) -> np.ndarray:
    """mufu_check.cu's results (bits, one row per intrinsic) for the samples, on `engine`."""
    n = len(SAMPLES["sinf_x"])
    with open(directory / "mufu_in.bin", "wb") as f:
        f.write(np.int32(n).tobytes())
        for name in INTRINSICS:
            f.write(SAMPLES[name + "_x"].tobytes())
            f.write(SAMPLES.get(name + "_y", SAMPLES[name + "_x"]).tobytes())
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(directory)
        assert minicuda_main(["run", "--engine", engine, str(PROGRAM)]) == 0
    return np.fromfile(directory / "mufu_out.bin", np.uint32).reshape(len(INTRINSICS), n)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, np.ndarray]:
    return {engine: run_program(tmp_path_factory.mktemp(engine), engine) for engine in ("interp", "jit")}


@pytest.mark.slow
def test_both_engines_give_the_same_bits(results):
    assert (results["interp"] == results["jit"]).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", INTRINSICS)
def test_intrinsic_is_the_gpus_where_settled_and_close_elsewhere(results, name):
    gpu, ours = SAMPLES[name + "_out"], results["interp"][INTRINSICS.index(name)]
    same, worst = compare(gpu, ours)
    assert same[settled(gpu, ours)].all(), np.nonzero(~same & settled(gpu, ours))
    share, ulps = FIT[name]
    assert same.mean() >= share and worst <= ulps, (same.mean(), worst)


@pytest.mark.slow
def test_special_inputs_sin_exp_and_divide(results):
    """Cases the correctly rounded model got wrong: __sinf of a tiny or huge argument is
    a zero of its sign (MUFU.SIN reads 2^-25 turns), __expf(-100) is a subnormal (EX2 of
    half the exponent, squared), __fdividef(1, 2^126 * 3) is 0 (RCP flushes to zero)."""
    row = results["interp"]
    x = SAMPLES["sinf_x"].view(np.float32)
    for value, expected in ((1e-20, 0.0), (-1e-20, -0.0), (3e38, 0.0), (-3e38, -0.0)):
        got = row[INTRINSICS.index("sinf")][x == np.float32(value)].view(np.float32)[0]
        assert got == expected and np.signbit(got) == np.signbit(expected)
    x = SAMPLES["expf_x"].view(np.float32)
    got = row[INTRINSICS.index("expf")][x == np.float32(-100)][0]
    assert got == SAMPLES["expf_out"][x == np.float32(-100)][0] and 0 < got < 0x800000
    index = INTRINSICS.index("fdividef")
    x, y = SAMPLES["fdividef_x"].view(np.float32), SAMPLES["fdividef_y"].view(np.float32)
    huge = (np.abs(y) > 2.0 ** 126) & np.isfinite(y) & (np.abs(x) < 2.0 ** 100) & (np.abs(x) > 2.0 ** -100)
    assert huge.any() and (row[index][huge].view(np.float32) == 0).all()


@pytest.mark.parametrize("name", RAW)
def test_raw_mufu_approximation(name):
    fn, share, ulps = RAW[name]
    x = SAMPLES[name + "_x"]
    ours = S.evaluate(Instr("MUFU", (fn, "APPROX"), (Reg("R0"),), (Reg("R1"),)), [x])
    gpu = SAMPLES[name + "_out"]
    same, worst = compare(gpu, ours)
    assert same[settled(gpu, ours)].all()
    assert same.mean() >= share and worst <= ulps, (same.mean(), worst)

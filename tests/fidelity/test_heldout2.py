"""Issues 15, 17 and 20's targets on a second held-out set: programs written fresh after the
first held-out set had been used for development, in the styles of teaching material, and
recorded on an H100 (nvcc 13.0, ncu 2025.3.1: tests/data/groundtruth/fidelity/heldout2/
README.md) before minicuda was run on any of them; compared here with minicuda launch by
launch, as test_heldout compares the first set.

- heldout2/branches/: fifteen one-launch kernels (a shared-atomic histogram, a 2D stencil with
  guarded halo loads, a double-buffered Hillis-Steele scan, a block bitonic sort, a row-per-thread
  matrix-vector product, nested-if thresholds, a fixed-point Mandelbrot escape loop, a binary
  search, a two-stage __shfl_down_sync reduction, ternary clamps, a do-while Newton iteration, a
  switch on an enum, early returns on a mask, continue and break, __device__ helpers with an
  atomic): divergent branches and branches per launch equal to the GPU's at -O3 and -G, and
  warp instructions at -O3 within 25% of the GPU's on the median.
- heldout2/timing/: six pairs of kernels: every launch's memory counters (global requests,
  sectors and efficiency, shared wavefronts and bank conflicts) within 2% of ncu's, its modelled
  duration within 2x of the GPU's, and the faster of a pair the GPU's where the GPU's two differ
  by 30% or more.
- heldout2/programs/: three whole programs with cudaEvent timing: what they print is the GPU
  run's, but for the numbers on the lines that give times.

Every difference measured when the set was first compared is a strict xfail giving minicuda's
value and the GPU's: when a change makes one agree, its xfail fails and the launch joins the
agreeing set (remove the entry)."""
import re
import statistics

import pytest

from fidelity.groundtruth import BUILDS, DATA_DIR, FIDELITY_DIR, gpu_launches as suite_launches, minicuda_metrics
from fidelity.test_heldout import (DURATION, MEMORY, OCCUPANCY, PAIRS as HELDOUT_PAIRS, PROGRAMS as HELDOUT_PROGRAMS,
                                   check_branch_recording, differs_by_30_percent)
from fidelity.test_unseen_branches import KERNELS as UNSEEN_KERNELS, cases
from fidelity.test_unseen_more import gpu_counters, printed_metrics, run
from minicuda.bench.fidelity import GpuLaunch, gpu_launches as read_launches

PROGRAMS = FIDELITY_DIR / "heldout2" / "branches"
DATA = DATA_DIR / "heldout2"
KERNELS = sorted(path.stem for path in PROGRAMS.glob("*.cu"))

# (kernel, build) -> minicuda's divergent branches against the GPU's where they differed when the
# set was first compared (main at a9f692f; updated as they come to agree; the sm_90 SASS in the data folder shows what ptxas does).
DIVERGENT_DIFFERS: dict[tuple[str, str], str] = {
    ("heat_stencil_2d", "O3"): "minicuda 240 divergent branches, the GPU 248 (branches 432 against 592)",
    ("masked_update_return", "O3"): "minicuda 3 divergent branches, the GPU 6 (branches 14 against 25)",
    ("row_sum_continue", "O3"): "minicuda 141 divergent branches, the GPU 143 (branches 234 against 237): ptxas "
                                "unrolls the 40-trip column loop fully (80 BRA, 40 BSSY)",
    ("scan_double_buffer", "O3"): "minicuda 5 divergent branches, the GPU 0 (branches 193 against 72): ptxas "
                                  "predicates the `t >= offset` if/else of each step",
    ("threshold_levels", "O3"): "minicuda 30 divergent branches, the GPU 0 (branches 60 against 0): ptxas turns the "
                                "nested ifs into two SEL",
    ("hist_shared_atomic", "G"): "minicuda 77 divergent branches, the GPU 89 (branches 676 against 934)",
}

# (kernel, build) -> minicuda's branches against the GPU's where they differed.
BRANCHES_DIFFER: dict[tuple[str, str], str] = {
    **DIVERGENT_DIFFERS,
    ("bitonic_sort_block", "O3"): "minicuda 432 branches, the GPU 0 (divergent 0 both): ptxas unrolls both loops "
                                  "of constant trip fully (45 compare-exchange steps, 46 BAR) and predicates the swap",
    ("block_reduce_shfl", "O3"): "minicuda 768 branches, the GPU 424 (divergent 0 both)",
    ("bsearch_sorted", "O3"): "minicuda 285 branches, the GPU 150 (divergent 13 both)",
    ("mandel_escape", "O3"): "minicuda 1566 branches, the GPU 2068 (divergent 311 both)",
    ("shape_area_switch", "O3"): "minicuda 108 branches, the GPU 84 (divergent 48 both)",
    ("row_sum_continue", "G"): "minicuda 1503 branches, the GPU 1623 (divergent 264 both)",
    ("bitonic_sort_block", "G"): "minicuda 4048 branches, the GPU 5030 (divergent 327 both)",
}

# build -> the median of minicuda's warp instructions over the GPU's, when it was off by more than 25%.
# (Issue 15's target is -O3's, 1.11 when first compared; nvcc -G keeps every variable in memory,
# minicuda -G does not: 0.26.)
WARP_INSTRUCTIONS_OFF: dict[str, str] = {}


def launches() -> list[GpuLaunch]:
    return read_launches(DATA / "fidelity.tsv", PROGRAMS)


def gpu_launch(kernel: str, build: str) -> GpuLaunch:
    return next(l for l in launches() if (l.kernel, l.build) == (kernel, build))


def test_every_branch_program_has_one_launch_per_build_and_checked_its_output():
    check_branch_recording(DATA, KERNELS, launches())


# kernel -> a kernel of the same textbook idea in an earlier set, in another form (README.md there):
# these launches are held out from the earlier ones' shapes, not from their idea.
NEAR_SHAPES = {"scan_double_buffer": "tests/fidelity/unseen/branches/scan_hillis_steele.cu",
               "bitonic_sort_block": "tests/programs/cxx_corpus/bitonic_sort.cu",
               "block_reduce_shfl": "tests/fidelity/unseen/branches/warp_shuffle_sum.cu",
               "transposeDoublePadded": "tests/fidelity/heldout/timing/transpose_pad16.cu",
               "normalizeAoS": "tests/fidelity/unseen/more/aos3.cu",
               "maxDivergent": "tests/fidelity/timing/reduce.cu",
               "matmulTile16": "tests/fidelity/timing/matmul_tiled.cu",
               "scanBlocks": "tests/programs/cxx_corpus/scan.cu (a Blelloch scan of the same names)"}

# kernel -> the kernel already in the repository that it is, line for line but for const and
# layout: both are the book's canonical form ("CUDA by Example"'s dot), found after the
# recording (`duplicates --change`); the whole program around it is new.
SEEN_SHAPES = {"dot": "tests/programs/cxx_corpus/dot_product.cu"}


def test_the_second_held_out_programs_are_new():
    """No program's text or kernel name is one of the suite's, the unseen sets' or the first
    held-out set's; the kernels near an earlier one's idea are named (NEAR_SHAPES)."""
    named = set(KERNELS) | {k for pair in PAIRS.values() for k in pair}
    whole = {"dot", "scanBlocks", "scanSums", "addOffsets", "MatMulKernel"}
    assert set(NEAR_SHAPES) | set(SEEN_SHAPES) <= named | whole
    assert all((FIDELITY_DIR.parent.parent / where.split(" ")[0]).exists()
               for where in [*NEAR_SHAPES.values(), *SEEN_SHAPES.values()])
    earlier = ({l.kernel for l in suite_launches()} | set(UNSEEN_KERNELS)
               | {p.stem for p in HELDOUT_PROGRAMS.glob("*.cu")} | {k for pair in HELDOUT_PAIRS.values() for k in pair})
    assert not earlier & named
    ours = {p.read_text() for folder in ("branches", "timing", "programs") for p in (FIDELITY_DIR / "heldout2" / folder).glob("*.cu")}
    theirs = {p.read_text() for p in FIDELITY_DIR.rglob("*.cu") if "heldout2" not in p.parts}
    assert not ours & theirs


def test_every_known_difference_names_a_launch():
    assert set(DIVERGENT_DIFFERS) | set(BRANCHES_DIFFER) <= {(k, b) for k in KERNELS for b in BUILDS}
    assert set(WARP_INSTRUCTIONS_OFF) <= set(BUILDS)
    assert set(MEMORY_DIFFERS) | set(DURATION_DIFFERS) <= {(p, k) for p, pair in PAIRS.items() for k in pair}
    assert set(ORDER_DIFFERS) | set(UNSUPPORTED) | set(TOO_SLOW_PAIRS) <= set(PAIRS)
    assert set(PRINTS_DIFFER) <= {(p, b) for p in WHOLE for b in BUILDS} and set(TOO_SLOW) <= {(p, b) for p in WHOLE for b in BUILDS}


@pytest.mark.slow   # 30 runs of minicuda: about a minute
@pytest.mark.parametrize("kernel,build", list(cases(DIVERGENT_DIFFERS, KERNELS)))
def test_divergent_branches_equal_the_gpu(tmp_path, capsys, kernel, build):
    ours = minicuda_metrics(tmp_path, capsys, PROGRAMS / f"{kernel}.cu", build)["divergent_branch"]
    assert ours == gpu_launch(kernel, build).divergent


@pytest.mark.slow
@pytest.mark.parametrize("kernel,build", list(cases(BRANCHES_DIFFER, KERNELS)))
def test_branches_equal_the_gpu(tmp_path, capsys, kernel, build):
    assert minicuda_metrics(tmp_path, capsys, PROGRAMS / f"{kernel}.cu", build)["branch"] == gpu_launch(kernel, build).branches


@pytest.mark.slow
@pytest.mark.parametrize("build", [pytest.param(b, marks=[pytest.mark.xfail(reason=WARP_INSTRUCTIONS_OFF[b], strict=True)]
                                                if b in WARP_INSTRUCTIONS_OFF else []) for b in ["O3"]])
def test_warp_instructions_within_a_quarter_of_the_gpus_on_the_median(tmp_path, capsys, build):
    ratios = [minicuda_metrics(tmp_path, capsys, PROGRAMS / f"{k}.cu", build)["inst_executed"]
              / gpu_launch(k, build).warp_instructions for k in KERNELS]
    assert 0.75 <= statistics.median(ratios) <= 1.25, sorted(ratios)


# -- memory counters and the timing model ------------------------------------------------------------

TIMING = FIDELITY_DIR / "heldout2" / "timing"
TIMING_DATA = DATA / "timing"
PAIRS = {"axpy_gridstride_unroll": ("axpyGridStride", "axpyGridStrideUnroll4"),
         "matmul_tile16_32": ("matmulTile16", "matmulTile32"),
         "max_divergence": ("maxDivergent", "maxCompact"),
         "normalize_aos_soa": ("normalizeAoS", "normalizeSoA"),
         "strip_sums2d": ("colStripSums", "rowStripSums"),
         "transpose_double32": ("transposeDouble", "transposeDoublePadded")}

# program -> the error minicuda stops it with (a feature it does not support): every test of the
# program is a strict xfail with it.
UNSUPPORTED: dict[str, str] = {}

# program -> why it is left out of the suite's runs: the time minicuda took with --metrics (2 loaded
# cores, main at a9f692f); the run then agreed with the GPU (memory counters, durations, order)
TOO_SLOW_PAIRS = {"strip_sums2d": "minicuda took 36 minutes with --metrics (about 4 CPU minutes; its host loops "
                                  "run over 262,144 elements), and agreed: memory counters within 2%, durations "
                                  "within 2x, rowStripSums the slower as on the GPU"}

# (program, kernel) -> the memory counters minicuda gives differently (by more than 2%), when first compared.
_TILE_LDS = ("shared-load wavefronts 147,456 against ncu's 110,592 (2 against 1.5 per warp and k): minicuda "
             "loads as[threadIdx.y][k] once per k, nvcc likely as one LDS.128 per 4 k of the unrolled loop")
MEMORY_DIFFERS: dict[tuple[str, str], str] = {("matmul_tile16_32", "matmulTile16"): _TILE_LDS,
                                              ("matmul_tile16_32", "matmulTile32"): _TILE_LDS}

# (program, kernel) -> the modelled duration against the GPU's, when more than 2x off when first compared.
DURATION_DIFFERS: dict[tuple[str, str], str] = {}

# program -> the model's order of the pair against the GPU's, when it was the other way round.
ORDER_DIFFERS: dict[str, str] = {}


def gpu(program: str, repeat: bool = False) -> dict[str, dict[str, float]]:
    """ncu's counters of each kernel of `program` (the second recording with `repeat`)."""
    return gpu_counters(program, TIMING_DATA / ("timing.repeat.ncu.csv" if repeat else "timing.ncu.csv"))


def gpu_output(program: str) -> list[str]:
    block = (TIMING_DATA / "programs.out").read_text().split(f"=== {program}\n", 1)[1].split("\n=== ", 1)[0]
    lines = block.splitlines()
    assert lines[-1] == "exit 0"
    return lines[:-1]


_MODELLED: dict[str, tuple[int, str, dict, list[str]]] = {}   # program -> status, stderr, metrics, output


def modelled(capsys, program: str) -> tuple[dict[str, dict[str, float]], list[str]]:
    """minicuda's counters and modelled duration of each kernel of `program` (an H100, as
    --arch hopper models it), and what the program printed; one run per program (a failed run
    fails every test of the program with its message)."""
    if program not in _MODELLED:
        status, out, err = run(capsys, "--arch", "hopper", "--metrics", ",".join([*MEMORY, DURATION, OCCUPANCY]),
                               TIMING / f"{program}.cu")
        printed = [line for line in out.splitlines() if not line.startswith(" ") and "==minicuda==" not in line]
        _MODELLED[program] = status, err, printed_metrics(out, [*MEMORY, DURATION, OCCUPANCY]), printed
    status, err, metrics, printed = _MODELLED[program]
    assert status == 0 and "Traceback" not in err, err
    return metrics, printed


def pair_marks(program: str, reason: str | None = None) -> list:
    """A pair's test's marks: skipped when too slow, a strict xfail with `reason` or the
    program's unsupported feature."""
    if program in TOO_SLOW_PAIRS:
        return [pytest.mark.skip(reason=TOO_SLOW_PAIRS[program])]
    reason = reason or UNSUPPORTED.get(program)
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


def launch_cases(known: dict):
    for program, kernels in PAIRS.items():
        for kernel in kernels:
            yield pytest.param(program, kernel, marks=pair_marks(program, known.get((program, kernel))),
                               id=f"{program}-{kernel}")


def test_every_pair_was_recorded_twice_and_checked_its_output():
    assert sorted(PAIRS) == sorted(p.stem for p in TIMING.glob("*.cu"))
    for program, kernels in PAIRS.items():
        assert set(gpu(program)) == set(gpu(program, repeat=True)) == set(kernels)
        assert all(name in gpu(program)[k] for k in kernels for name in [*MEMORY, DURATION, OCCUPANCY])
        output = gpu_output(program)
        assert len(output) == 2 and all(re.search(r": 0 (mismatches|errors|wrong blocks)", line) for line in output), output
        first, second = gpu(program), gpu(program, repeat=True)
        for kernel in kernels:
            assert abs(first[kernel][DURATION] / second[kernel][DURATION] - 1) <= 0.1, (program, kernel)
        a, b = kernels
        if differs_by_30_percent(first[a][DURATION], first[b][DURATION]):
            assert (first[a][DURATION] < first[b][DURATION]) == (second[a][DURATION] < second[b][DURATION])
    versions = (TIMING_DATA / "env.txt").read_text()
    assert "release 13.0" in versions and "H100" in versions


@pytest.mark.slow   # the kernels on the interpreter (the model's counters)
@pytest.mark.parametrize("program", [pytest.param(p, marks=pair_marks(p)) for p in sorted(PAIRS)])
def test_the_pairs_print_the_gpus_output(capsys, program):
    assert modelled(capsys, program)[1] == gpu_output(program)


@pytest.mark.slow
@pytest.mark.parametrize("program,kernel", list(launch_cases(MEMORY_DIFFERS)))
def test_memory_counters_within_2_percent_of_ncus(capsys, program, kernel):
    ours, theirs = modelled(capsys, program)[0][kernel], gpu(program)[kernel]
    off = {name: (ours[name], theirs[name]) for name in MEMORY
           if abs(ours[name] - theirs[name]) > 0.02 * max(abs(theirs[name]), 1e-9)}
    assert not off, off


@pytest.mark.slow
@pytest.mark.parametrize("program,kernel", list(launch_cases(DURATION_DIFFERS)))
def test_modelled_duration_within_2x_of_the_gpus(capsys, program, kernel):
    ratio = modelled(capsys, program)[0][kernel][DURATION] / gpu(program)[kernel][DURATION]
    assert 0.5 <= ratio <= 2.0, ratio


ORDERED = [program for program, (a, b) in PAIRS.items() if differs_by_30_percent(gpu(program)[a][DURATION],
                                                                                  gpu(program)[b][DURATION])]


def test_the_ordered_pairs_are_the_two_the_readme_names():
    assert sorted(ORDERED) == ["axpy_gridstride_unroll", "strip_sums2d"]


@pytest.mark.slow
@pytest.mark.parametrize("program", [pytest.param(p, marks=pair_marks(p, ORDER_DIFFERS.get(p))) for p in ORDERED])
def test_the_faster_of_a_pair_is_the_gpus_where_they_differ_by_30_percent(capsys, program):
    a, b = PAIRS[program]
    ours, theirs = modelled(capsys, program)[0], gpu(program)
    assert (ours[a][DURATION] < ours[b][DURATION]) == (theirs[a][DURATION] < theirs[b][DURATION])


# -- whole programs ----------------------------------------------------------------------------------

WHOLE_DIR = FIDELITY_DIR / "heldout2" / "programs"
WHOLE = sorted(path.stem for path in WHOLE_DIR.glob("*.cu"))
# a line that gives a time: its numbers are the run's own
TIMED = re.compile(r"\b(ms|msec|GFlop/s)\b")

# (program, build) -> how minicuda's output differs from the GPU run's, when first compared.
PRINTS_DIFFER: dict[tuple[str, str], str] = {}

# (program, build) -> why its run is left out of the suite: the time minicuda took (2 cores under load)
TOO_SLOW = {("matmul_guide_events", "G"): "4 minutes (2 loaded cores): at -G the kernel's 6 launches of 240 blocks "
                                          "of 256 threads call GetElement, SetElement and GetSubMatrix through "
                                          "the VM's call stack; the -O3 build, inlined and its structs in "
                                          "registers, takes 15 to 35 s (the GPU run: under a second)"}


def whole_output(program: str, build: str) -> list[str]:
    """What the GPU run of `program` built as `build` printed, its exit status checked."""
    text = (DATA / "programs" / "programs.out").read_text()
    lines = text.split(f"=== {program} {build}\n", 1)[1].split("\n=== ", 1)[0].splitlines()
    assert lines[-1] == "exit 0"
    return lines[:-1]


def untimed(lines: list[str]) -> list[str]:
    """The lines with every number of a time line replaced by `#`."""
    return [re.sub(r"\d+(\.\d+)?", "#", line) if TIMED.search(line) else line for line in lines]


def test_the_whole_programs_print_the_same_but_times_in_both_builds():
    assert WHOLE == ["dot_events", "matmul_guide_events", "scan_large_events"]
    for program in WHOLE:
        o3, g = whole_output(program, "O3"), whole_output(program, "G")
        assert untimed(o3) == untimed(g) and o3 != g, program
        assert sum(bool(TIMED.search(line)) for line in o3) == 1, program
    durations = gpu_counters("scan_large_events", DATA / "programs" / "programs.ncu.csv")
    assert set(durations) == {"scanBlocks", "scanSums", "addOffsets"}


def whole_marks(program: str, build: str) -> list:
    if (program, build) in TOO_SLOW:
        return [pytest.mark.skip(reason=TOO_SLOW[program, build])]
    if (program, build) in PRINTS_DIFFER:
        return [pytest.mark.xfail(reason=PRINTS_DIFFER[program, build], strict=True)]
    return []


@pytest.mark.slow   # the programs on the JIT, both builds: minutes under load
@pytest.mark.parametrize("program,build", [pytest.param(p, b, marks=whole_marks(p, b), id=f"{p}-{b}")
                                           for p in WHOLE for b in BUILDS])
def test_the_whole_programs_print_the_gpus_output_but_the_times(capsys, program, build):
    status, out, err = run(capsys, *(["-G"] if build == "G" else []), "-arch", "sm_90", WHOLE_DIR / f"{program}.cu")
    assert "internal error" not in err.lower() and "Traceback" not in err, err
    assert (status, untimed(out.splitlines())) == (0, untimed(whole_output(program, build)))

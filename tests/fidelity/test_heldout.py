"""Issues 15 and 20's targets on held-out kernels: programs written fresh in the styles of
teaching material while the compiler was being changed, recorded once on an H100 (nvcc 13.0,
ncu 2025.3.1: tests/data/groundtruth/fidelity/heldout/README.md), and compared here with
minicuda launch by launch, as test_unseen_branches and test_unseen_timing compare the
unseen sets.

- heldout/branches/: fifteen one-launch kernels (nested ifs, an if-else-if chain on
  threadIdx.x, constant, unrolled and data-dependent loops, early returns, break and continue,
  switch, && and ||, a shared tree reduction, a __shfl_xor_sync butterfly, atomics, min/max/abs,
  a grid-stride loop, __device__ helpers): divergent branches and branches per launch equal to
  the GPU's at -O3 and -G, and warp instructions at -O3 within 25% of the GPU's on the median.
- heldout/timing/: six pairs of kernels of the book's chapters 3-5: every launch's memory
  counters (global requests, sectors and efficiency, shared wavefronts and bank conflicts)
  within 2% of ncu's, its modelled duration within 2x of the GPU's, and the faster of a pair
  the GPU's where the GPU's two differ by 30% or more.

Every difference measured when the set was recorded is a strict xfail giving minicuda's value
and the GPU's: when a change makes one agree, its xfail fails and the launch joins the agreeing
set (remove the entry)."""
import statistics

import pytest

from fidelity.groundtruth import BUILDS, DATA_DIR, FIDELITY_DIR, gpu_launches as suite_launches, minicuda_metrics
from fidelity.test_unseen_branches import KERNELS as UNSEEN_KERNELS, cases
from fidelity.test_unseen_more import gpu_counters, printed_metrics, run
from minicuda.bench.fidelity import GpuLaunch, gpu_launches as read_launches

PROGRAMS = FIDELITY_DIR / "heldout" / "branches"
DATA = DATA_DIR / "heldout"
KERNELS = sorted(path.stem for path in PROGRAMS.glob("*.cu"))

# (kernel, build) -> minicuda's divergent branches against the GPU's where they differ (the set
# was recorded with an older minicuda; these are what the merged compiler of the -G header
# calls, -O3 predicated exits and loop unrolling still gets wrong; the sm_90 SASS in the data
# folder shows what ptxas does).
DIVERGENT_DIFFERS: dict[tuple[str, str], str] = {
    ("warp_role_chain", "O3"): "minicuda 2 divergent branches, the GPU 0 (branches 14 both): ptxas keeps the "
                               "warp-uniform `t < 32` branch and predicates the rest of the chain (IMAD, SEL)",
}

# (kernel, build) -> minicuda's branches against the GPU's where they differ.
BRANCHES_DIFFER: dict[tuple[str, str], str] = {
    **{key: why for key, why in DIVERGENT_DIFFERS.items() if key != ("warp_role_chain", "O3")},
    ("opcode_switch", "O3"): "minicuda 88 branches, the GPU 72 (divergent 40 both)",
    ("vote_counter_atomic", "G"): "minicuda 248 branches, the GPU 256 (divergent 9 both): the header calls of "
                                  "atomicAdd, atomicMax and atomicMin are modelled, 8 branches short (one a "
                                  "warp; gshape/'s p_atomic_nested has the same unexplained one)",
}

# build -> the median of minicuda's warp instructions over the GPU's, when it was off by more than 25%.
# (Issue 15's target is -O3's; nvcc -G keeps every variable in memory, minicuda -G does not: 0.29.)
WARP_INSTRUCTIONS_OFF: dict[str, str] = {}


def launches() -> list[GpuLaunch]:
    return read_launches(DATA / "fidelity.tsv", PROGRAMS)


def gpu_launch(kernel: str, build: str) -> GpuLaunch:
    return next(l for l in launches() if (l.kernel, l.build) == (kernel, build))


def check_branch_recording(data, kernels: list[str], recorded: list[GpuLaunch]):
    """A held-out set's branch recording in `data`: fifteen kernels, one launch per build each,
    every program's `NAME OK`, consistent counters, every kernel's SASS, nvcc 13.0 on an H100."""
    assert len(kernels) == 15
    assert sorted((l.kernel, l.build) for l in recorded) == sorted((k, b) for k in kernels for b in BUILDS)
    for build in BUILDS:
        assert sorted((data / f"programs_{build}.txt").read_text().splitlines()) == [f"{k} OK" for k in kernels]
    for launch in recorded:
        assert launch.divergent + launch.uniform == launch.branches, launch
        assert launch.thread_instructions <= 32 * launch.warp_instructions, launch
    for build in BUILDS:
        sass = (data / "sass" / f"sm_90_{build}.sass").read_text()
        assert all(f".function _Z{len(k)}{k}" in sass for k in kernels), build
    versions = (data / "versions.txt").read_text()
    assert "release 13.0" in versions and "H100" in versions


def test_every_branch_program_has_one_launch_per_build_and_checked_its_output():
    check_branch_recording(DATA, KERNELS, launches())


# kernel -> the kernel of the same shape already in the repository (the textbook's canonical form,
# written from the book): their launches are less held out than the others (README.md there).
SEEN_SHAPES = {"block_sum_shared": "tests/fidelity/kernels/reduce_shared_interleaved.cu",
               "reduceStrided": "tests/fidelity/kernels/reduce_shared_strided_index.cu",
               "addByRows": "tests/fidelity/timing/sum_matrix.cu",
               "reduceInterleaved": "samples/reduceInteger.cu",
               "reduceUnrolling8": "samples/reduceInteger.cu"}


def test_the_held_out_programs_are_new():
    """No program is a file of the suite or of the unseen sets; the kernels of a shape already
    there are named (SEEN_SHAPES)."""
    named = set(KERNELS) | {k for pair in PAIRS.values() for k in pair}
    assert set(SEEN_SHAPES) <= named
    assert all((FIDELITY_DIR.parent.parent / where).exists() for where in SEEN_SHAPES.values())
    suite = {l.kernel for l in suite_launches()}
    assert not (suite | set(UNSEEN_KERNELS)) & set(KERNELS)
    texts = {p.read_text() for folder in ("kernels", "unseen/branches") for p in (FIDELITY_DIR / folder).glob("*.cu")}
    assert not texts & {p.read_text() for p in PROGRAMS.glob("*.cu")}


def test_every_known_difference_names_a_launch():
    assert set(DIVERGENT_DIFFERS) | set(BRANCHES_DIFFER) <= {(k, b) for k in KERNELS for b in BUILDS}
    assert set(WARP_INSTRUCTIONS_OFF) <= set(BUILDS)


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

TIMING = FIDELITY_DIR / "heldout" / "timing"
TIMING_DATA = DATA / "timing"
PAIRS = {"copy_vec4": ("copyScalar", "copyVec4"), "matadd_rowcol": ("addByRows", "addByCols"),
         "reduce_interleave": ("reduceStrided", "reduceSequential"),
         "reduce_unroll8": ("reduceInterleaved", "reduceUnrolling8"),
         "stencil_radius3": ("stencilGlobal", "stencilShared"),
         "transpose_pad16": ("transposeTile", "transposeTilePadded")}
MEMORY = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
          "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
          "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
DURATION, OCCUPANCY = "gpu__time_duration.sum", "sm__warps_active.avg.pct_of_peak_sustained_active"

# (program, kernel) -> the memory counters minicuda gives differently (by more than 2%), when recorded.
MEMORY_DIFFERS: dict[tuple[str, str], str] = {}

# (program, kernel) -> the modelled duration against the GPU's, when more than 2x off at the recording.
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


_MODELLED: dict[str, tuple[dict, list[str]]] = {}   # program -> minicuda's metrics per kernel, its output


def modelled(capsys, program: str) -> tuple[dict[str, dict[str, float]], list[str]]:
    """minicuda's counters and modelled duration of each kernel of `program` (an H100, as
    --arch hopper models it), and what the program printed; one run per program."""
    if program not in _MODELLED:
        status, out, _ = run(capsys, "--arch", "hopper", "--metrics", ",".join([*MEMORY, DURATION, OCCUPANCY]),
                             TIMING / f"{program}.cu")
        assert status == 0
        printed = [line for line in out.splitlines() if not line.startswith(" ") and "==minicuda==" not in line]
        _MODELLED[program] = printed_metrics(out, [*MEMORY, DURATION, OCCUPANCY]), printed
    return _MODELLED[program]


def launch_cases(known: dict):
    for program, kernels in PAIRS.items():
        for kernel in kernels:
            reason = known.get((program, kernel))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(program, kernel, marks=marks, id=f"{program}-{kernel}")


def differs_by_30_percent(a: float, b: float) -> bool:
    return max(a, b) >= 1.3 * min(a, b)


def test_every_pair_was_recorded_twice_and_checked_its_output():
    assert sorted(PAIRS) == sorted(p.stem for p in TIMING.glob("*.cu"))
    for program, kernels in PAIRS.items():
        assert set(gpu(program)) == set(gpu(program, repeat=True)) == set(kernels)
        assert all(name in gpu(program)[k] for k in kernels for name in [*MEMORY, DURATION, OCCUPANCY])
        output = gpu_output(program)
        assert len(output) == 2 and not any("FAIL" in line for line in output), output
        # the durations of the two recordings: within 10% of each other, and a pair's order the
        # same in both wherever it is the 30% this file asks the model to reproduce
        first, second = gpu(program), gpu(program, repeat=True)
        for kernel in kernels:
            assert abs(first[kernel][DURATION] / second[kernel][DURATION] - 1) <= 0.1, (program, kernel)
        a, b = kernels
        if differs_by_30_percent(first[a][DURATION], first[b][DURATION]):
            assert (first[a][DURATION] < first[b][DURATION]) == (second[a][DURATION] < second[b][DURATION])
    versions = (TIMING_DATA / "env.txt").read_text()
    assert "release 13.0" in versions and "H100" in versions


@pytest.mark.slow   # the kernels on the interpreter (the model's counters): 8-45 s a program
@pytest.mark.parametrize("program", sorted(PAIRS))
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


@pytest.mark.slow
@pytest.mark.parametrize("program", [pytest.param(p, marks=[pytest.mark.xfail(reason=ORDER_DIFFERS[p], strict=True)]
                                                  if p in ORDER_DIFFERS else []) for p in ORDERED])
def test_the_faster_of_a_pair_is_the_gpus_where_they_differ_by_30_percent(capsys, program):
    a, b = PAIRS[program]
    ours, theirs = modelled(capsys, program)[0], gpu(program)
    assert (ours[a][DURATION] < ours[b][DURATION]) == (theirs[a][DURATION] < theirs[b][DURATION])

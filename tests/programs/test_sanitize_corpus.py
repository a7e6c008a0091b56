"""racecheck and synccheck on the corpus tests/programs/sanitize/{race,sync}_*.cu: each
program's header names the verdict it must get under each scheduling model
(`// expect-pascal: racecheck errors=1 warnings=0`), which the run's summary lines and
exit status must show; and where compute-sanitizer can see the hazard (shared memory,
barriers), minicuda's verdict under ITS agrees with the H100's
(tests/data/groundtruth/sanitize/groundtruth.txt, recorded by record.sh there), save
where the header says `// gpu-differs: TOOL: why`."""
import re

import pytest

from helpers import GROUNDTRUTH_DIR, ROOT
from minicuda.cli import minicuda_main

CORPUS = ROOT / "tests" / "programs" / "sanitize"
PROGRAMS = sorted([*CORPUS.glob("race_*.cu"), *CORPUS.glob("sync_*.cu")])   # (init_ and leak_: test_sanitize_init.py)
EXPECT = re.compile(r"^// expect-(pascal|volta): (racecheck|synccheck) errors=(\d+)(?: warnings=(\d+))?$", re.M)
GPU_LINE = re.compile(r"^## (\S+) (racecheck|synccheck) exit=\d+ .*$", re.M)


def expectations(path):
    """{arch: (tool, errors, warnings)} from the program's header."""
    found = {m[1]: (m[2], int(m[3]), int(m[4] or 0)) for m in EXPECT.finditer(path.read_text())}
    assert set(found) == {"pascal", "volta"}, f"{path.name}: needs an expect-pascal and an expect-volta line"
    return found


def gpu_verdicts():
    """{(program, tool): (errors, warnings)} as the H100's summary lines counted them."""
    text = (GROUNDTRUTH_DIR / "sanitize" / "groundtruth.txt").read_text()
    verdicts = {}
    sections = GPU_LINE.split(text)[1:]
    for name, tool, body in zip(sections[0::3], sections[1::3], sections[2::3]):
        race = re.search(r"RACECHECK SUMMARY: \d+ hazards displayed \((\d+) errors, (\d+) warnings\)", body)
        errors = re.search(r"ERROR SUMMARY: (\d+) error", body)
        verdicts[name, tool] = (int(race[1]), int(race[2])) if race else (int(errors[1]) if errors else 0, 0)
    return verdicts


def run(capsys, path, arch, tool):
    status = minicuda_main(["run", "--arch", arch, "--tool", tool, str(path)])
    return status, capsys.readouterr().err


def shared_memory_reports(err):
    """(errors, warnings) among racecheck's reports of shared memory (the GPU's reach)."""
    reports = [r for r in err.split("=========\n") if "Race reported between" in r]
    shared = [r for r in reports if "global memory: not checked" not in r]
    return (sum(r.lstrip().startswith("========= Error") for r in shared),
            sum(r.lstrip().startswith("========= Warning") for r in shared))


def test_the_corpus_is_there():
    assert len([p for p in PROGRAMS if p.name.startswith("race_")]) >= 15
    assert len([p for p in PROGRAMS if p.name.startswith("sync_")]) >= 6


@pytest.mark.parametrize("arch", ["pascal", "volta"])
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_each_program_gets_its_verdict(capsys, path, arch):
    tool, errors, warnings = expectations(path)[arch]
    status, err = run(capsys, path, arch, tool)
    assert f"========= ERROR SUMMARY: {errors} error{'' if errors == 1 else 's'}\n" in err
    if tool == "racecheck":
        assert (f"========= RACECHECK SUMMARY: {errors + warnings} hazards displayed "
                f"({errors} errors, {warnings} warnings)\n") in err
        assert err.count("Race reported between") == errors + warnings
    assert err.rstrip().endswith(f"ERROR SUMMARY: {errors} error{'' if errors == 1 else 's'}")
    assert status == (1 if errors else 0)   # as compute-sanitizer --error-exitcode 1; warnings alone: 0
    if arch == "volta" and f"// gpu-differs: {tool}:" not in path.read_text():
        agrees_with_the_gpu(path, tool, err)


def agrees_with_the_gpu(path, tool, err):
    """Where compute-sanitizer sees (shared memory, barriers) ITS's verdict is the H100's:
    racecheck's errors or not, hazards or not; synccheck's count of errors."""
    gpu_errors, gpu_warnings = gpu_verdicts()[path.stem, tool]
    if tool == "racecheck":
        errors, warnings = shared_memory_reports(err)
        assert (errors > 0, warnings + errors > 0) == (gpu_errors > 0, gpu_warnings + gpu_errors > 0)
    else:
        assert int(re.search(r"ERROR SUMMARY: (\d+) error", err)[1]) == gpu_errors


SYNCCHECKED = [p for p in PROGRAMS if "synccheck" in p.read_text() or "__syncwarp" in p.read_text()
               or "__shfl" in p.read_text()]


@pytest.mark.parametrize("arch", ["pascal", "volta"])
@pytest.mark.parametrize("path", SYNCCHECKED, ids=lambda p: p.stem)
def test_synccheck_under_the_jit_reports_what_the_interpreter_reports(capsys, path, arch):
    """synccheck is compiled into native code (its warp-synchronous instructions go to the
    interpreter's hooks, native code stops as each barrier opens): every report, in its
    order, and the exit status are the interpreter's, whatever --jobs."""
    def run_on(*engine):
        status = minicuda_main(["run", *engine, "--arch", arch, "--tool", "synccheck", str(path)])
        out = capsys.readouterr()
        return status, out.out, out.err
    assert run_on("--engine", "jit", "--jobs", "2") == run_on("--engine", "interp")


RACECHECKED = [p for p in PROGRAMS if "racecheck" in p.read_text()]


@pytest.mark.parametrize("path", RACECHECKED, ids=lambda p: p.stem)
def test_racecheck_under_the_jit_reports_what_the_interpreter_reports(capsys, path):
    """Under ITS racecheck is compiled into native code (its memory instructions, fences
    and warp-synchronous instructions go to the interpreter's hooks, native code stops as
    each barrier opens): every report and the exit status are the interpreter's.  (Under
    the stack model every instruction a warp runs orders its lanes: kernels run on the
    interpreter.)"""
    def run_on(*engine):
        status = minicuda_main(["run", *engine, "--arch", "volta", "--tool", "racecheck", str(path)])
        out = capsys.readouterr()
        return status, out.out, out.err
    assert run_on("--engine", "jit", "--jobs", "2") == run_on("--engine", "interp")


@pytest.mark.parametrize("opt,errors", [("-O0", 16), ("-O3", 0)])
def test_a_barrier_after_exits_is_divergent_under_the_stack_model_only_where_the_branch_is_kept(capsys, opt, errors):
    """sync_barrier_tid_exit.cu on pascal: -O0 keeps `if (t < N)` a branch, so the warp that
    straddles N waits at the barrier divergent (one error per waiting thread); -O3 exits the
    other threads first (@!P0 EXIT), so the warp arrives converged: a warning only."""
    path = CORPUS / "sync_barrier_tid_exit.cu"
    status = minicuda_main(["run", "--arch", "pascal", "--tool", "synccheck", opt, str(path)])
    err = capsys.readouterr().err
    assert err.rstrip().endswith(f"ERROR SUMMARY: {errors} errors") and status == (1 if errors else 0)
    assert ("completed with only part of the block: the other threads had exited" in err) == (not errors)

"""initcheck, leak check and the ITS seed options, whole programs: each program of
tests/programs/sanitize/ (init_*, leak_*) says in `// expect: TOOL [OPTIONS] errors=N`
lines what `minicuda run --tool TOOL [OPTIONS]` reports (the ERROR SUMMARY's count, exit
status 1 when N > 0); where the H100 ran one (tests/data/groundtruth/sanitize/init/),
compute-sanitizer's count is minicuda's.  The samples get no report."""
import io
import re
import sys

import pytest

import minicuda
from helpers import GROUNDTRUTH_DIR, ROOT, SAMPLES
from minicuda.cli import minicuda_main
from minicuda.vm.code import Code
from minicuda.vm.jit.engine import compile_function
from minicuda.vm.jit.module import module_ir
from minicuda.vm.machine import Machine

CORPUS = ROOT / "tests" / "programs" / "sanitize"
RECORDED = GROUNDTRUTH_DIR / "sanitize" / "init"
EXPECT = re.compile(r"^// expect: (\w+)((?: --[\w-]+(?: full)?)*) errors=(\d+)$", re.M)
SUMMARY = re.compile(r"^========= ERROR SUMMARY: (\d+) errors?$", re.M)


def expectations():
    cases = []
    for path in sorted(CORPUS.glob("*.cu")):
        for tool, options, errors in EXPECT.findall(path.read_text()):
            cases.append(pytest.param(path, ["--tool", tool] + options.split(), int(errors),
                                      id=f"{path.stem}-{tool}{options.replace(' ', '')}"))
    return cases


def run(capsys, *argv):
    status = minicuda_main(["run", *map(str, argv)])
    out = capsys.readouterr()
    return status, out.out, out.err


def summary(err: str) -> int:
    counts = SUMMARY.findall(err)
    assert len(counts) == 1, err
    return int(counts[0])


def test_corpus_is_large_enough():
    names = [p.stem for p in CORPUS.glob("*.cu")]
    assert len([n for n in names if n.startswith(("init_", "leak_"))]) >= 10
    assert len(expectations()) >= 15


@pytest.mark.parametrize("path,options,errors", expectations())
def test_each_program_gets_its_expected_verdict(capsys, path, options, errors):
    status, _, err = run(capsys, *options, path)
    assert summary(err) == errors
    assert status == (1 if errors else 0)


@pytest.mark.parametrize("record", sorted(RECORDED.glob("*.txt")), ids=lambda p: p.stem)
def test_counts_agree_with_compute_sanitizer_on_the_h100(capsys, record):
    program, tool = record.stem.split(".")
    options = {"initcheck": ["--tool", "initcheck"], "leak": ["--leak-check", "full"]}[tool]
    _, _, err = run(capsys, *options, CORPUS / f"{program}.cu")
    assert summary(err) == summary(record.read_text())


def test_an_uninitialised_read_is_reported_per_thread_as_compute_sanitizer_does(capsys):
    path = CORPUS / "init_partial_memcpy.cu"
    status, out, err = run(capsys, "--tool", "initcheck", path)
    assert out == "h[31] = 62\n"   # the run goes on
    reports = err.split("=========\n")
    assert re.fullmatch(
        r"========= Uninitialized __global__ memory read of size 4 bytes\n"
        rf"=========     at {re.escape(str(path))}:7:35 in 'scale'\n"
        r"=========     by thread \(0,0,0\) in block \(1,0,0\)\n"
        r"=========     Address 0x[0-9a-f]+\n", reports[0]), reports[0]
    assert [r.count("by thread") for r in reports[:-1]] == [1] * 32
    assert status == 1


def test_an_atomic_on_an_uninitialised_counter_is_one_read_per_warp(capsys):
    _, _, err = run(capsys, "--tool", "initcheck", CORPUS / "init_atomic_counter.cu")
    assert re.findall(r"by thread \((\d+),0,0\) in block \((\d+),0,0\)", err) == [("31", "0"), ("31", "1")]


def test_unused_memory_names_the_bytes_never_used(capsys):
    _, _, err = run(capsys, "--tool", "initcheck", "--track-unused-memory", CORPUS / "init_unused.cu")
    assert "=========     Not used 64 bytes at offset 0xc0 (" in err
    assert "=========     25% of allocation were unused." in err
    assert "=========     100% of allocation were unused." in err


def test_a_leak_names_its_size_and_the_line_that_allocated_it(capsys):
    status, _, err = run(capsys, "--leak-check", "full", CORPUS / "leak_pitch.cu")
    assert re.search(r"========= Leaked 5,120 bytes at 0x[0-9a-f]+\n=========     allocated by "
                     r"cudaMallocPitch\(40, 10\) at line 7\n", err), err
    assert "========= LEAK SUMMARY: 5220 bytes leaked in 2 allocations\n========= ERROR SUMMARY: 2 errors\n" in err
    assert status == 1


def test_a_leak_at_cudaDeviceReset_is_reported_once(capsys):
    _, _, err = run(capsys, "--tool", "memcheck", "--leak-check", "full", CORPUS / "leak_reset.cu")
    assert err.count("Leaked 512 bytes") == 1


@pytest.mark.parametrize("options", [["--engine", "interp"], ["--jobs", "1"], ["--jobs", "2"], ["--sched", "stack"]])
def test_verdicts_do_not_depend_on_the_engine_or_jobs(capsys, options):
    _, _, err = run(capsys, "--tool", "initcheck", *options, CORPUS / "init_read_before_write.cu")
    assert summary(err) == 48


INITCHECK_PROGRAMS = sorted(p for p in CORPUS.glob("init_*.cu") if "expect: initcheck" in p.read_text())


@pytest.mark.parametrize("sched", ["stack", "its"])
@pytest.mark.parametrize("path", INITCHECK_PROGRAMS, ids=lambda p: p.stem)
def test_the_native_initcheck_reports_what_the_interpreter_reports(capsys, path, sched):
    """The JIT checks the bytes natively and hands the reads it finds unset to the
    interpreter: every report, its text and its place in the order, is the interpreter's,
    with one worker or two (init_many_blocks: blocks run side by side)."""
    options = ["--tool", "initcheck", "--track-unused-memory", "--sched", sched, path]
    reference = run(capsys, "--engine", "interp", *options)
    for engine in (["--jobs", "1"], ["--jobs", "2"]):
        assert run(capsys, "--engine", "jit", *engine, *options) == reference


@pytest.mark.parametrize("argv,message", [
    (["--tool", "initcheck", "--leak-check", "full"], "--leak-check applies to --tool memcheck"),
    (["--tool", "memcheck", "--track-unused-memory"], "--track-unused-memory applies to --tool initcheck"),
    (["--sched-seeds", "3", "--sched", "stack"], "it does not go with --sched stack"),
    (["--sched-seeds", "3", "--sched-seed", "1"], "--sched-seed runs one of them"),
])
def test_options_that_do_not_go_together_are_refused(capsys, argv, message):
    status, _, err = run(capsys, *argv, CORPUS / "init_clean.cu")
    assert status == 2 and message in err and "Traceback" not in err


def test_sched_seeds_names_the_seed_that_changes_the_output(capsys):
    # which seeds interleave the two lanes each way depends on the code's shape; that some
    # do, and that a named seed reproduces what it printed, does not
    path = CORPUS / "seed_race.cu"
    status, out, err = run(capsys, "--sched-seeds", "6", path)
    assert status == 1 and re.fullmatch(r"lane 0 saw lane 1's write \d+ times\n", out)   # seed 0's
    m = re.search(r"minicuda: seed (\d) changes the run: line 1 of the output is '(.*)' instead of '(.*)'; "
                  r"reproduce it with --sched-seed \1", err)
    other = m.group(2) + "\n"
    assert m.group(3) + "\n" == out != other
    assert re.search(r"\d changes? the output", err)
    for options in ([], ["--jobs", "1"], ["--engine", "interp"]):   # and the seed reproduces it
        assert run(capsys, "--sched", "its", "--sched-seed", m.group(1), *options, path)[1] == other


def test_sched_seeds_on_a_program_with_one_output_exits_as_it_does(capsys):
    status, out, err = run(capsys, "--sched-seeds", "3", CORPUS / "init_clean.cu")
    assert (status, out) == (0, "c[99] = 396\n")
    assert "3 schedules tried (--sched-seed 0 to 2); 0 change the output" in err


def test_sanitize_runs_every_tool_and_fails_on_an_error(capsys):
    assert minicuda_main(["sanitize", str(CORPUS / "leak_one_of_three.cu")]) == 1
    out = capsys.readouterr()
    assert out.out == "done\n"   # the program's output, once
    assert "========= minicuda sanitize: --tool memcheck --leak-check full\n" in out.err
    assert "========= minicuda sanitize: --tool initcheck\n" in out.err
    assert out.err.count("ERROR SUMMARY") >= 2
    assert minicuda_main(["sanitize", str(CORPUS / "init_clean.cu")]) == 0


# the samples' own arguments for sizes the interpreter (--engine interp) runs in seconds
SAMPLE_ARGS = {"reduceInteger": ["128", "2048"], "simpleDivergence": ["64", "1024"], "sumMatrix": ["128", "128"]}


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_no_report_on_the_samples(capsys, sample):
    for options in (["--tool", "initcheck", "--track-unused-memory"], ["--leak-check", "full"]):
        _, _, err = run(capsys, *options, sample, *SAMPLE_ARGS.get(sample.stem, []))
        assert "=========     " not in err and summary(err) == 0, err


def test_each_run_of_a_sweep_reads_the_same_input(capsys, monkeypatch, tmp_path):
    f = tmp_path / "reads.cu"
    f.write_text('#include <cstdio>\nint main() { int n = 0; if (scanf("%d", &n) != 1) return 3;\n'
                 '  int *d; cudaMalloc(&d, n); printf("n=%d\\n", n); return 0; }\n')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"64\n")))
    status, out, err = run(capsys, "--sched-seeds", "2", f)
    assert (status, out) == (0, "n=64\n") and "0 change the output" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"64\n")))
    assert minicuda_main(["sanitize", str(f)]) == 1   # the leak of the 64 bytes read
    assert capsys.readouterr().err.count("Leaked 64 bytes at") == 1


def test_initcheck_is_compiled_in_only_when_asked_for():
    """Kernels run natively under initcheck (racecheck and synccheck: on the interpreter),
    and code compiled without the tool carries no check: its speed is unchanged."""
    prog = minicuda.compile(CORPUS / "init_device_call.cu")
    code = Code(prog.functions["sums"])
    plain, _ = module_ir(code, "its", 32, [], True)
    checked, _ = module_ir(code, "its", 32, [], True, checks=frozenset({"initcheck"}))
    assert "@init_flags" not in plain and "call i1 @init_flags" in checked
    assert compile_function(code, "its", 32, True) is not compile_function(code, "its", 32, True,
                                                                           checks=frozenset({"initcheck"}))
    def kernel_engine(tool, sched):
        return Machine(prog, sched=sched, engine="jit", tools=[tool], stdout=io.BytesIO()).kernel_engine.name
    assert [kernel_engine(t, "its") for t in ("initcheck", "memcheck", "racecheck", "synccheck")] == ["jit"] * 4
    assert [kernel_engine(t, "stack") for t in ("initcheck", "racecheck", "synccheck")] == ["jit", "interp", "jit"]

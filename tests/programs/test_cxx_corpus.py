"""The C++ conformance corpus (tests/programs/cxx_corpus): programs written in the style of
public CUDA teaching material and NVIDIA's samples, each run under minicuda with both engines
and compared with what an H100 printed.

The ground truth is tests/data/groundtruth/cxx/: commands.txt (each program's nvcc command and
arguments; the test takes the source files, -I folders and -arch from it), go.sh (builds and runs
them all on the GPU machine) and out/cxx.txt (what they printed there, nvcc's version at its top).
A program runs in a scratch folder holding a copy of its own folder, as go.sh runs it. Its stdout
must equal the GPU's line for line, timing lines and device names masked; its exit status must be
the GPU's; every line the GPU wrote to stderr must appear in minicuda's stderr.

A program that does not pass yet is in PENDING with the missing feature, and runs as a strict
xfail: when it starts passing the suite fails until it is moved out.
"""
import re
import shlex
import shutil
from dataclasses import dataclass

import pytest

from helpers import GROUNDTRUTH_DIR, ROOT
from minicuda.cli import minicuda_main

CORPUS = ROOT / "tests" / "programs" / "cxx_corpus"
RECORDED = GROUNDTRUTH_DIR / "cxx"
ENGINES = ["interp", "jit"]
SOURCE_SUFFIXES = (".cu", ".cpp", ".c")
# run on every suite run (the whole corpus takes many minutes, the interpreter most: the rest is slow)
QUICK = {("scan", "jit"), ("stencil_1d", "jit"), ("transpose", "jit")}

TIMING_LINE = re.compile(r"(?i)\b(time|elapsed)\b")
NUMBER = re.compile(r"\d+(\.\d+)?([eE][-+]?\d+)?")
DEVICE_NAME = re.compile(r'(Device \d+: )"[^"]*"')

# programs the interpreter runs too slowly at the GPU's size for every suite run (seconds measured
# under load on 2 cores): their JIT run is compared with the GPU; the differential tests
# (tests/vm) hold the two engines to the same results
INTERP_TOO_SLOW = {"image_blur": 176, "histogram": 48, "bitonic_sort": 39, "ray_spheres": 27,
                   "sum_matrix_2d": 25, "stencil_1d": 25, "book_add_loop": 300, "nbody": 330,
                   "monte_carlo_pi": 900, "matmul_tiled": 600}   # monte_carlo_pi: its host loop, 131072 turns

# program: minicuda's first error (jit engine), the worklist for the C++ features
PENDING: dict[str, str] = {
}


@dataclass(frozen=True)
class Program:
    """One line of commands.txt: how nvcc built the program and what it was given."""
    name: str
    sources: list[str]      # relative to CORPUS
    includes: list[str]     # -I folders, relative to CORPUS
    arch: str
    args: list[str]

    @property
    def folder(self):
        """The program's own folder (copied beside it when it runs), or None for a one-file program."""
        path = CORPUS / self.name
        return path if path.is_dir() else None


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str


def programs() -> list[Program]:
    table = []
    for line in (RECORDED / "commands.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, command, args = line.split("\t")
        words = shlex.split(command)
        includes = [words[i + 1] for i, w in enumerate(words) if w == "-I"]
        arch = next(w.split("=")[1] for w in words if w.startswith("-arch="))
        table.append(Program(name, [w for w in words if w.endswith(SOURCE_SUFFIXES)], includes, arch,
                             shlex.split(args)))
    return table


def recorded_runs() -> dict[str, Run]:
    """out/cxx.txt as go.sh wrote it: per program '=== NAME exit=N', stdout, '--- stderr', stderr."""
    runs: dict[str, Run] = {}
    sections = re.split(r"^=== ", (RECORDED / "out" / "cxx.txt").read_text(), flags=re.M)[1:]
    for section in sections:
        header, _, body = section.partition("\n")
        match = re.fullmatch(r"(\S+) exit=(\d+)", header)
        if match:
            stdout, _, stderr = body.partition("--- stderr\n")
            runs[match[1]] = Run(int(match[2]), stdout, stderr)
    return runs


def masked(text: str) -> list[str]:
    """The lines of a program's stdout with what differs between machines and runs masked."""
    lines = []
    for line in text.splitlines():
        if TIMING_LINE.search(line):
            line = NUMBER.sub("X", line)
        lines.append(DEVICE_NAME.sub(r'\1"<device>"', line))
    return lines


def run_under_minicuda(program: Program, engine: str, folder, monkeypatch, capsys) -> Run:
    if program.folder:
        shutil.copytree(program.folder, folder, dirs_exist_ok=True)
    monkeypatch.chdir(folder)
    argv = ["run", "--engine", engine, "--arch", program.arch, "--timeout", "600"]
    for include in program.includes:
        argv += ["-I", str(CORPUS / include)]
    argv += [str(CORPUS / source) for source in program.sources]
    if any(a.startswith("-") for a in program.args):
        argv.append("--")
    status = minicuda_main(argv + program.args)
    captured = capsys.readouterr()
    return Run(status, captured.out, captured.err)


PROGRAMS = programs()
GPU = recorded_runs()


def cases() -> list:
    """Each program with each engine; a PENDING key is a program's name, or NAME-ENGINE for one engine."""
    params = []
    for program in PROGRAMS:
        for engine in ENGINES:
            if engine == "interp" and program.name in INTERP_TOO_SLOW:
                continue
            marks = [] if (program.name, engine) in QUICK else [pytest.mark.slow]
            reason = PENDING.get(f"{program.name}-{engine}") or PENDING.get(program.name)
            if reason:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            params.append(pytest.param(program, engine, marks=marks, id=f"{program.name}-{engine}"))
    return params


def test_the_corpus_is_complete_and_was_recorded_on_the_gpu():
    assert len(PROGRAMS) >= 45
    assert {p.name for p in PROGRAMS} == set(GPU), "every program has a recorded run, and only those"
    names = {p.name for p in PROGRAMS}
    assert set(PENDING) <= names | {f"{n}-{e}" for n in names for e in ENGINES}
    assert not {name for name, _ in QUICK} & set(PENDING)
    assert set(INTERP_TOO_SLOW) <= names and not set(INTERP_TOO_SLOW) & set(PENDING)
    header = (RECORDED / "out" / "cxx.txt").read_text().split("\n=== ")[0]
    assert "Cuda compilation tools, release 13" in header


def test_masking_hides_timings_and_device_names_only():
    text = 'Time: 1.25 ms\nsumArraysOnGPU <<< 16, 256 >>> Time elapsed 0.000123 sec\nGPU Device 0: "NVIDIA H100"\nsum 42\n'
    assert masked(text) == ["Time: X ms", "sumArraysOnGPU <<< X, X >>> Time elapsed X sec",
                            'GPU Device 0: "<device>"', "sum 42"]


@pytest.mark.parametrize("program,engine", cases())
def test_program_prints_what_the_gpu_printed(program, engine, tmp_path, monkeypatch, capsys):
    gpu = GPU[program.name]
    ran = run_under_minicuda(program, engine, tmp_path, monkeypatch, capsys)
    assert masked(ran.stdout) == masked(gpu.stdout)
    assert ran.status == gpu.status
    missing = [line for line in gpu.stderr.splitlines() if line not in ran.stderr.splitlines()]
    assert not missing, f"stderr lacks the GPU's {missing}; minicuda's stderr:\n{ran.stderr}"

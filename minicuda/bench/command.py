"""The command line of minicuda bench (`minicuda bench`, `python -m minicuda.bench`).

`main` parses the options, runs the benchmark, prints the report and writes it as
JSON when asked; its exit status is 1 when results disagree.  `--e2e-child`, first
on the line, is the end-to-end targets' own child process, not an option for people.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from minicuda.argtypes import MAX_JOBS, int_in, seconds
from minicuda.bench import compile_scale, fidelity, host_loops, runtime_scale, startup
from minicuda.bench.benchmark import run_benchmark
from minicuda.bench.end_to_end import e2e_child
from minicuda.bench.report import render
from minicuda.bench.suites import ENGINES, PACKAGE_ROOT, SUITES
from minicuda.outputs import OutputError, check_output, write_output
from minicuda.vm.watch import ProgressLine

DESCRIPTION = "minicuda bench: how fast the VM runs the samples' kernels, and against what."
PARTS = ("native", "pocl", "numba", "e2e")


def parse_args(argv: list[str]):
    p = argparse.ArgumentParser(prog="minicuda bench", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes for every engine, short baseline timings, no end-to-end targets (for tests)")
    p.add_argument("--engine", choices=ENGINES, help="measure one engine only")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="only these kernels or samples (repeat, or separate with commas)")
    p.add_argument("--jit-sizes", choices=["small", "full"], default="full",
                   help="the JIT's sizes: full (default) or the interpreter's small ones, for a like-for-like run")
    p.add_argument("--skip", action="append", default=[], metavar="PART",
                   help="leave out native, pocl, numba or e2e (repeat, or separate with commas)")
    p.add_argument("--jobs", type=int_in(1, MAX_JOBS), default=None, metavar="N", help="the JIT's parallel blocks (default: all cores)")
    p.add_argument("--arch", default="volta", help="the architecture the samples are compiled for (default volta)")
    p.add_argument("--samples", type=Path, default=PACKAGE_ROOT / "samples", metavar="DIR",
                   help="where reduceInteger.cu and the other samples are (default: the checkout's samples/)")
    p.add_argument("--timeout", type=seconds, default=600.0, metavar="S",
                   help="limit for each subprocess: an end-to-end run, a Numba run (default 600)")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON to FILE")
    p.add_argument("--compile-scaling", nargs="?", const="all", metavar="SHAPES",
                   help="instead: compile time per stage of generated programs at growing sizes "
                        f"({', '.join(compile_scale.SHAPES)}; all by default, or a comma-separated few)")
    p.add_argument("--runtime-scaling", nargs="?", const="all", metavar="CASES",
                   help="instead: the time of 10^3, 10^4, 10^5 runtime calls, each engine "
                        f"({', '.join(runtime_scale.CASES)}; all by default, or a comma-separated few)")
    p.add_argument("--host-loops", nargs="?", const="all", metavar="CASES",
                   help="instead: host code's loops per element against the same C built with cc -O2 "
                        f"({', '.join(host_loops.CASES)}; all by default, or a comma-separated few)")
    p.add_argument("--startup", action="store_true",
                   help="instead: the CPU seconds `minicuda run` spends before main, cold and warm (issue 17's < 0.3 s)")
    p.add_argument("--fidelity", nargs="?", const="all", metavar="BUILDS",
                   help="instead: the fidelity suite's table, minicuda's branches, divergent branches and warp "
                        "instructions beside an H100's per launch (O3, G; both by default; --only picks kernels)")
    opts = p.parse_args(argv)
    if opts.fidelity is not None:
        return _fidelity_args(p, opts)
    if opts.runtime_scaling is not None:
        opts.cases = _picked(p, "--runtime-scaling", "case", opts.runtime_scaling, list(runtime_scale.CASES))
    if opts.host_loops is not None:
        opts.loops = _picked(p, "--host-loops", "case", opts.host_loops, list(host_loops.CASES))
    if opts.compile_scaling is not None:
        opts.shapes = _picked(p, "--compile-scaling", "shape", opts.compile_scaling, list(compile_scale.SHAPES))
    opts.only = [n for item in opts.only for n in item.split(",") if n]
    opts.skip = {n for item in opts.skip for n in item.split(",") if n}
    unknown = opts.skip - set(PARTS)
    if unknown:
        p.error(f"--skip: unknown part(s) {', '.join(sorted(unknown))} ({', '.join(PARTS)})")
    names = {s.sample for s in SUITES} | {k for s in SUITES for k in s.kernels}
    if set(opts.only) - names:
        p.error(f"--only: no kernel or sample {', '.join(sorted(set(opts.only) - names))}")
    if not (opts.samples / "reduceInteger.cu").is_file():
        p.error(f"no samples in {opts.samples} (give --samples DIR)")
    opts.engines = (opts.engine,) if opts.engine else ENGINES
    opts.sizes = {"interp": "quick", "jit": "quick"} if opts.quick else {"interp": "small", "jit": opts.jit_sizes}
    opts.min_seconds = 0.005 if opts.quick else 0.2
    return opts


def _fidelity_args(p: argparse.ArgumentParser, opts):
    """--fidelity's builds and kernels (the suite is in a source checkout's tests/)."""
    tsv = fidelity.DATA_DIR / "fidelity.tsv"
    if not tsv.is_file() or not fidelity.KERNELS_DIR.is_dir():
        p.error(f"--fidelity: the suite is not here ({tsv} and {fidelity.KERNELS_DIR}: a source checkout's tests/)")
    opts.builds = _picked(p, "--fidelity", "build", opts.fidelity, list(fidelity.BUILDS))
    opts.launches = [l for l in fidelity.gpu_launches(tsv) if l.build in opts.builds]
    opts.only = [n for item in opts.only for n in item.split(",") if n]
    unknown = set(opts.only) - {l.kernel for l in opts.launches}
    if unknown:
        p.error(f"--only: no fidelity kernel {', '.join(sorted(unknown))}")
    if opts.only:
        opts.launches = [l for l in opts.launches if l.kernel in opts.only]
    return opts


def _picked(p: argparse.ArgumentParser, flag: str, what: str, value: str, known: list[str]) -> list[str]:
    """The comma-separated names `value` picks from `known` ("all" or none: every one);
    an unknown one is the parser's error."""
    names = [n for n in value.split(",") if n and n != "all"]
    unknown = set(names) - set(known)
    if unknown:
        p.error(f"{flag}: no {what} {', '.join(sorted(unknown))} ({', '.join(known)})")
    return names or known


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 1 when results disagree (a check value or an end-to-end output)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--e2e-child"]:
        return e2e_child(argv[1:])
    opts = parse_args(argv)
    try:
        check_output(opts.json, [])
    except OutputError as e:
        print(f"minicuda bench: error: {e}", file=sys.stderr)
        return 1
    if opts.fidelity is not None:
        return fidelity_table(opts)
    if opts.compile_scaling is not None:
        return compile_scaling(opts)
    if opts.runtime_scaling is not None:
        return runtime_scaling(opts)
    if opts.host_loops is not None:
        return host_loop_times(opts)
    if opts.startup:
        return startup_times(opts)
    opts.progress_line = ProgressLine("minicuda bench: ", timed=True)
    try:
        report = run_benchmark(opts)
    finally:
        opts.progress_line.clear()
    print(render(report))
    if opts.json:
        try:
            write_output(json.dumps(report.as_dict(), indent=2) + "\n", opts.json)
        except OutputError as e:
            print(f"minicuda bench: error: {e}", file=sys.stderr)
            return 1
    return 1 if report.wrong() else 0


def runtime_scaling(opts) -> int:
    """minicuda bench --runtime-scaling: the time of runtime calls by their number."""
    line = ProgressLine("minicuda bench: ", timed=True)
    results = runtime_scale.run_scaling("quick" if opts.quick else "full", opts.cases, opts.engines, line.show)
    line.clear()
    print(runtime_scale.render_scaling(results))
    if opts.json:
        Path(opts.json).write_text(json.dumps(runtime_scale.as_dicts(results), indent=2) + "\n")
    return 0


def host_loop_times(opts) -> int:
    """minicuda bench --host-loops: host loops per element, minicuda against cc -O2."""
    line = ProgressLine("minicuda bench: ", timed=True)
    try:
        results = host_loops.run_host_loops("quick" if opts.quick else "full", opts.loops, line.show)
    except RuntimeError as e:
        line.clear()
        print(f"minicuda bench: error: {e}", file=sys.stderr)
        return 1
    line.clear()
    print(host_loops.render_host_loops(results))
    if opts.json:
        Path(opts.json).write_text(json.dumps(host_loops.as_dicts(results), indent=2) + "\n")
    return 0


def startup_times(opts) -> int:
    """minicuda bench --startup: the CPU time before main of `minicuda run`, cold and warm."""
    line = ProgressLine("minicuda bench: ", timed=True)
    results = startup.run_startup(opts.samples, 1 if opts.quick else 3, line.show)
    line.clear()
    print(startup.render_startup(results))
    if opts.json:
        Path(opts.json).write_text(json.dumps(startup.as_dicts(results), indent=2) + "\n")
    return 0


def fidelity_table(opts) -> int:
    """minicuda bench --fidelity: the agreement table; exit status 1 when a run wrote no metrics."""
    line = ProgressLine("minicuda bench: ", timed=True)
    rows = fidelity.compare(opts.launches, progress=line.show, timeout=opts.timeout)
    line.clear()
    print(fidelity.render(rows))
    if opts.json:
        write_output(json.dumps([r.as_dict() for r in rows], indent=2) + "\n", opts.json)
    return 1 if any(r.ours is None for r in rows) else 0


def compile_scaling(opts) -> int:
    """minicuda bench --compile-scaling: the table of compile time by program size."""
    line = ProgressLine("minicuda bench: ", timed=True)
    results = compile_scale.run_scaling("quick" if opts.quick else "full", opts.shapes, progress=line.show)
    line.clear()
    print(compile_scale.render_scaling(results))
    if opts.json:
        Path(opts.json).write_text(json.dumps(compile_scale.as_dicts(results), indent=2) + "\n")
    return 0

"""One benchmark run: every selected suite on minicuda's engines, then its baselines, Numba and the targets.

Per suite: compile the driver once, run it on each engine at that engine's preset
(the JIT after a warm-up run), then time the native and PoCL baselines at the
reference run's size.  What cannot be measured here (a missing tool, a failing
engine) is a note, never an abort.  Progress goes to stderr's progress line (vm/watch.py's
ProgressLine, when stderr is a terminal), the report to the caller.
"""
from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path

from minicuda.bench.baselines import build_native, c_compiler, numba_entry, run_native, run_numba
from minicuda.bench.end_to_end import run_target
from minicuda.bench.engines import compile_driver, measure_engine, warm_up_jit
from minicuda.bench.host import machine_info, versions
from minicuda.bench.opencl import OpenCL, cl_launch
from minicuda.bench.results import KernelResult, Report, Unavailable
from minicuda.bench.suites import NUMBA_KERNELS, SUITES, TARGETS, Suite, selected, suite_of


def progress(opts, message: str) -> None:
    """What is being measured now, on stderr's progress line when it is a terminal (a full
    run takes minutes); nothing otherwise."""
    line = getattr(opts, "progress_line", None)
    if line is not None:
        line.show(message)


def measure_minicuda(report: Report, suite: Suite, kernels: list[str], program, opts) -> dict[str, KernelResult]:
    results = {k: KernelResult(suite.sample, k) for k in kernels}
    for engine in opts.engines:
        args = suite.sizes[opts.sizes[engine]]
        progress(opts, f"{suite.sample} on {engine} at {' '.join(args)}")
        try:
            if engine == "jit":
                report.jit_warmup_s[suite.sample] = warm_up_jit(program, suite, kernels, args, opts.jobs)
            runs = measure_engine(program, suite, kernels, engine, args, opts.jobs)
        except Unavailable as e:
            report.notes.append(str(e))
            continue
        for k, run in runs.items():
            results[k].runs[engine] = run
    return results


def measure_baselines(report: Report, suite: Suite, results: dict[str, KernelResult], opts, tools: dict) -> None:
    """Native and PoCL at each kernel's reference size (the reference engine ran the whole suite at one size)."""
    refs = [r.reference for r in results.values() if r.reference is not None]
    if not refs:
        return
    args, kernels = refs[0].args, [k for k, r in results.items() if r.reference is not None]
    if "native" in tools:
        progress(opts, f"{suite.sample}, native at {' '.join(args)}")
        try:
            exe = build_native(tools["native"], suite, tools["workdir"])
            for k, b in run_native(exe, suite, kernels, args, opts.min_seconds).items():
                results[k].native = b
        except Unavailable as e:
            report.notes.append(str(e))
    if "pocl" in tools:
        ocl = tools["pocl"]
        progress(opts, f"{suite.sample}, PoCL at {' '.join(args)}")
        try:
            program = ocl.build(suite, args)
            for k in kernels:
                results[k].pocl = ocl.time(program, k, cl_launch(suite, k, args), args, opts.min_seconds)
        except Unavailable as e:
            report.notes.append(str(e))


def baseline_tools(opts, report: Report) -> dict:
    """The baselines that this machine has (C compiler, PoCL), with a note for each missing one."""
    tools = {}
    if "native" not in opts.skip:
        cc = c_compiler()
        if cc:
            tools["native"] = cc
        else:
            report.notes.append("native: no C compiler (cc or gcc) on PATH; the native baseline is skipped")
    if "pocl" not in opts.skip:
        try:
            tools["pocl"] = OpenCL()
            report.versions["opencl"] = tools["pocl"].description
        except Unavailable as e:
            report.notes.append(str(e))
    return tools


def measure_numba(report: Report, programs: dict, opts) -> None:
    if not importlib.util.find_spec("numba"):
        report.notes.append("numba: not importable; the CUDA simulator comparison is skipped (pip install numba)")
        return
    preset = "quick" if opts.quick else "small"
    for kernel, (sample, sizes) in NUMBA_KERNELS.items():
        suite = suite_of(sample)
        if sample not in programs or kernel not in selected(suite, opts.only):
            continue
        progress(opts, f"{kernel} on Numba's CUDA simulator at {' '.join(sizes[preset])}")
        try:
            sim = run_numba(kernel, sizes[preset], opts.timeout)
            interp = measure_engine(programs[sample], suite, [kernel], "interp", sizes[preset], opts.jobs)[kernel]
        except Unavailable as e:
            report.notes.append(str(e))
            continue
        report.numba.append(numba_entry(kernel, sizes[preset], sim, interp))


def measure_end_to_end(report: Report, opts) -> None:
    if "jit" not in opts.engines:
        report.notes.append("end-to-end: the targets are for the JIT, which --engine leaves out")
        return
    for target in TARGETS:
        if not opts.only or target.sample in opts.only:
            progress(opts, f"end-to-end: {target.sample}.cu {' '.join(target.args)} with the JIT")
            report.end_to_end.append(run_target(target, opts.samples, opts.arch, opts.jobs, opts.timeout))


def run_benchmark(opts) -> Report:
    report = Report(machine_info(), versions(c_compiler()), {
        "mode": "quick" if opts.quick else "full", "arch": opts.arch, "engines": list(opts.engines),
        "jobs": opts.jobs or os.cpu_count(), "sizes": opts.sizes, "native_flags": "-O2 on one thread",
        "min_baseline_seconds": opts.min_seconds})
    tools = baseline_tools(opts, report)
    programs = {}
    with tempfile.TemporaryDirectory(prefix="minicuda-bench-") as workdir:
        tools["workdir"] = Path(workdir)
        for suite in SUITES:
            kernels = selected(suite, opts.only)
            if not kernels:
                continue
            programs[suite.sample] = compile_driver(suite, opts.samples, opts.arch)
            results = measure_minicuda(report, suite, kernels, programs[suite.sample], opts)
            measure_baselines(report, suite, results, opts, tools)
            report.kernels.extend(results.values())
    if "numba" not in opts.skip:
        measure_numba(report, programs, opts)
    if not opts.quick and "e2e" not in opts.skip:
        measure_end_to_end(report, opts)
    return report

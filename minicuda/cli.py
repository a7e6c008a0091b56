"""Command lines: `minicudac` (the compiler) and `minicuda` (compile and run).

Exit status: 0 on success, 1 when the user's program is wrong (diagnostics on
stderr, clang-shaped), 2 for bad command-line usage, 70 for an internal compiler
error.  No user mistake ever ends in a Python traceback.

It is over 800 lines because both commands' options are declared here, each with the
nvcc, nvprof or ncu spelling users type (minicuda/nvccflags.py holds nvcc's rules), and
each option's checks sit beside its declaration.

The compiler's side (parser, sema, passes, linker) is imported by the functions that
use it, not here: `minicuda run` of a program in the compile cache
(minicuda/compile_cache.py) never loads it, and loading it is most of a run's start-up.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import traceback
from typing import TYPE_CHECKING

# numpy's OpenBLAS starts a thread per core when numpy is imported (below), for nothing the
# commands use: 2.4 s of CPU at start-up on 16 cores.  One thread, unless the user set it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from minicuda.argtypes import INT64_MAX, MAX_JOBS, block_warp, int_in, seconds
from minicuda.arch import ITS_FROM, arch_choices, format_arch, parse_arch, sched_summary, sm_of
from minicuda.compile_cache import compile_cached
from minicuda.diagnostics import CompileError, DiagnosticEngine, InternalError
from minicuda.grammar.languages import SUFFIXES, language_of
from minicuda.grammar.nesting import BRACKET_DEPTH
from minicuda.ir import IRParseError, format_module, parse_module, verify
from minicuda.nvccflags import FATAL, STD_VALUES, NvccError, check_std, joined_values, ptxas_verbose, \
    simulated_target
from minicuda.outputs import OutputError, check_output, silence_stdout, write_output
from minicuda.passes.loops import instructions
from minicuda.report.source_view import launch_lines, source_view
from minicuda.sourcefile import SourceFileError, SourceText, check_regular, read_stream, read_text
from minicuda.timing import TIMES
from minicuda.version import __version__
from minicuda.vm.errors import SIGNALS, VMError
from minicuda.vm.tools import ERROR, TOOLS, leak_reports
from minicuda.vm.machine import Machine
from minicuda.vm.occupancy import occupancy
from minicuda.vm.timing_model import gpu_keys
from minicuda.vm.metrics import has_nested, kernel_totals, metrics_named
from minicuda.vm.runtime import binary_stream
from minicuda.vm.stop import EXIT_STATUS, TIMEOUT, StopFlag, Stopped, report_lines
from minicuda.vm.watch import ProgressLine, Watcher, is_terminal

if TYPE_CHECKING:
    from minicuda.compiler import CompiledProgram
    from minicuda.pipeline import Options

EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 70


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def _add_frontend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-I", "--include-path", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add DIR to the include search path")
    p.add_argument("-D", "--define-macro", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a preprocessor macro")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME",
                   help="undefine a preprocessor macro")
    p.add_argument("--expt-relaxed-constexpr", dest="defines", action="append_const", const="__CUDACC_RELAXED_CONSTEXPR__",
                   help="let device code call the standard library's constexpr host functions (std::min, "
                        "std::max, ...), as nvcc (which defines __CUDACC_RELAXED_CONSTEXPR__ for it)")
    p.add_argument("-x", dest="language", choices=["cu", "cuda"], default=None, metavar="LANG",
                   help="read the input as mini-CUDA source (cu or cuda) whatever its name; needed for - "
                        "(standard input)")
    p.add_argument("-fbracket-depth", dest="bracket_depth", type=int_in(1, INT64_MAX), default=None, metavar="N",
                   help=f"let (), [] and {{}} nest N deep, each kind (default {BRACKET_DEPTH}, as clang)")


def _add_fast_math_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-use_fast_math", "--use_fast_math", dest="fast_math", action="store_true",
                   help="as nvcc: device code's sinf, cosf, tanf, expf, logf, log2f, log10f and powf are "
                        "their fast intrinsics (__sinf, ...) and float x / y is __fdividef(x, y); host code keeps "
                        "IEEE math (docs/semantics.md); implies -ftz=true")
    p.add_argument("-ftz", "--ftz", dest="ftz", choices=["true", "false"], default=None,
                   help="as nvcc: true flushes f32 denormal inputs and results of device code's float "
                        "instructions to zero (the .FTZ modifier); default false, true under -use_fast_math")


def _ftz(args) -> bool | None:
    """-ftz as given (None: not given, so -use_fast_math decides)."""
    value = getattr(args, "ftz", None)
    return None if value is None else value == "true"


def _add_fmad_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-fmad", "--fmad", dest="fmad", choices=["true", "false"], default="true",
                   help="as nvcc: true (the default) contracts a float multiply and a dependent add or subtract "
                        "in device code into one FFMA/DFMA, rounded once, at -O1..-O3 as ptxas does; false "
                        "never does (the fma-contract pass)")


def _add_predication_options(p: argparse.ArgumentParser) -> None:
    """If-conversion's thresholds, for minicudac and minicuda run alike."""
    p.add_argument("--uniform-threshold", type=int_in(0, INT64_MAX), default=None, metavar="N",
                   help="predicate a uniform branch whose arms hold fewer than N instructions (default 4)")
    p.add_argument("--divergent-threshold", type=int_in(0, INT64_MAX), default=None, metavar="N",
                   help="predicate a possibly divergent branch under N instructions (default 7)")
    p.add_argument("--predication-rule", choices=["seed", "guide"], default=None,
                   help="seed: < thresholds (nvcc's behaviour); guide: the CUDA Programming Guide's <= 4 / <= 7")


def _predication_given(args) -> dict:
    """The if-conversion settings and --fmad named on the command line, as Options fields
    (part of the compile cache's key)."""
    given = {"uniform_threshold": args.uniform_threshold, "divergent_threshold": args.divergent_threshold,
             "rule": args.predication_rule, "fmad": False if getattr(args, "fmad", "true") == "false" else None}
    return {k: v for k, v in given.items() if v is not None}


def _add_rdc_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-rdc", "--relocatable-device-code", dest="rdc", choices=["true", "false"], default="false",
                   help="relocatable device code: a __device__ function or variable of one unit may be used by "
                        "another (default false: each unit's device code is its own, as nvcc's whole-program mode)")


def compiler_parser() -> argparse.ArgumentParser:
    from minicuda.opt import ANNOTATIONS

    p = _Parser(prog="minicudac", description="Compile a mini-CUDA program.", epilog=_pass_list(),
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="file",
                   help="the .cu source file, or a .sass file to check, print again or report on, or a module text "
                        "(.ir, .sass) to run --passes on; several sources (.cu, .cpp, .c) and object files (.o) "
                        "are compiled and linked into one program, as nvcc does")
    p.add_argument("-E", dest="preprocess_only", action="store_true", help="print the preprocessed source and stop")
    p.add_argument("-c", "--compile", dest="compile_only", action="store_true",
                   help="compile each source to an object file (FILE.o in the current directory, or -o's) and stop")
    p.add_argument("-dc", dest="device_c", action="store_true", help="as nvcc: -c -rdc=true")
    _add_rdc_option(p)
    p.add_argument("--emit", choices=["sass-like", "ir", "cfg", "cfg-svg", "ast"], default=None,
                   help="what to print: sass-like (the final bytecode, the default with -o), ir (right "
                        "after lowering), cfg (Graphviz DOT, IPDOMs and divergent branches marked), cfg-svg (the same CFG as SVG, reconvergence points marked too), ast")
    p.add_argument("-arch", "--arch", "--gpu-architecture", dest="arch", default=None, metavar="ARCH",
                   help=f"target (default sm_70): {arch_choices()} (compute_XX names the same GPU); below "
                        f"{format_arch(ITS_FROM)} the stack model's SSY/SYNC, else BSSY/BSYNC")
    _add_nvcc_options(p)
    _add_fast_math_option(p)
    _add_fmad_option(p)
    p.add_argument("--sched", choices=["stack", "its"], default=None,
                   help="place the reconvergence markers for this scheduling model instead of the arch's "
                        "(stack: SSY/SYNC, its: BSSY/BSYNC); the VM runs the module under it")
    p.add_argument("-O", dest="opt", type=int, choices=[0, 1, 2, 3], default=None, metavar="LEVEL",
                   help="-O0 keeps every branch (like nvcc -G); -O1..-O3 run every pass (default -O3)")
    p.add_argument("-G", "--device-debug", dest="debug", action="store_true", help="like nvcc -G: the same as -O0")
    p.add_argument("--time-report", "-ftime-report", dest="time_report", action="store_true",
                   help="print on stderr where the compile's time went (start-up, each stage, each pass), as "
                        "clang's -ftime-report")
    p.add_argument("--print-after", action="append", default=[], metavar="PASS",
                   help="print the IR after PASS (repeatable; 'all' for every pass) to stderr; the passes are "
                        "listed below")
    p.add_argument("--verify-each", action="store_true", help="verify the IR after every pass")
    p.add_argument("--passes", metavar="PASS,...", default=None,
                   help="for a module text (.ir or .sass): run these passes on every function, in order, verify, "
                        "and print the module, as LLVM's opt does; the passes are listed below")
    p.add_argument("--print-analysis", action="append", default=[], choices=list(ANNOTATIONS), metavar="ANALYSIS",
                   help=f"for a module text: print ANALYSIS ({', '.join(ANNOTATIONS)}) as `// ANALYSIS: ...` "
                        "lines under each function's header and block labels (repeatable)")
    p.add_argument("--print-changes", action="store_true",
                   help="for a module text: print the passes that reported a change under each function's header")
    p.add_argument("--resource-usage", action="store_true",
                   help="print ptxas-style resource usage (registers, shared memory, stack frame) to stderr")
    p.add_argument("--report", choices=["predication"], default=None,
                   help="print a report: predication (one line per conditional branch of device code, "
                        "then one per loop exit)")
    p.add_argument("--report-host", action="store_true",
                   help="--report lists host code's branches too")
    p.add_argument("--report-format", choices=["text", "json"], default="text")
    _add_predication_options(p)
    p.add_argument("-fsyntax-only", dest="syntax_only", action="store_true",
                   help="check the program and stop")
    p.add_argument("-o", "--output-file", dest="output", metavar="FILE", help="write the output to FILE instead of stdout")
    _add_frontend_options(p)
    p.add_argument("--version", action="version", version=f"minicudac {__version__}")
    return p


def _add_nvcc_options(p: argparse.ArgumentParser) -> None:
    """nvcc's options that minicudac takes as nvcc users type them (see minicuda/nvccflags.py)."""
    p.add_argument("-code", "--gpu-code", dest="codes", action="append", default=[], metavar="sm_XX,...",
                   help="as nvcc: the real architectures to generate code for (-arch then names a compute_XX)")
    p.add_argument("-gencode", "--generate-code", dest="gencodes", action="append", default=[],
                   metavar="arch=compute_XX,code=sm_XX",
                   help="as nvcc (repeatable). minicuda simulates ONE GPU: of all the targets -arch, -code and "
                        "-gencode name, the highest (the code a fat binary runs on the newest of them); -v says "
                        "which")
    p.add_argument("-std", "--std", dest="std", default=None, metavar="c++NN",
                   help=f"as nvcc: {', '.join(STD_VALUES)}; accepted, but the C++ minicuda implements is nvcc's default "
                        "C++17 whatever the value, and __cplusplus stays 201703L")
    p.add_argument("-lineinfo", "--generate-line-info", dest="lineinfo", action="store_true",
                   help="accepted: line information is always kept (errors and faults name source lines)")
    p.add_argument("-Xptxas", dest="ptxas_options", action="append", default=[], metavar="OPTIONS",
                   help="also --ptxas-options: -v prints ptxas's resource report (registers, barriers, shared "
                        "memory per kernel, nvcc 13's wording) to stderr; -O0..-O3 accepted")
    p.add_argument("-Xcompiler", dest="compiler_options", action="append", default=[], metavar="OPTIONS",
                   help="also --compiler-options: accepted and unused (host code runs on minicuda's VM, "
                        "compiled by minicuda)")
    p.add_argument("-ccbin", "--compiler-bindir", dest="ccbin", default=None, metavar="DIR",
                   help="accepted and unused, as -Xcompiler")
    p.add_argument("--extended-lambda", "--expt-extended-lambda", dest="cxx_flags",
                   action="append_const", const=True, default=[],
                   help="accepted: minicuda's lambdas need no flag")
    p.add_argument("-g", "--debug", dest="host_debug", action="store_true",
                   help="accepted: host debug information (the VM always knows source lines)")
    p.add_argument("-v", "--verbose", dest="verbose", action="store_true",
                   help="say what nvcc-style options mean here (the target simulated) on stderr")


def _pass_list() -> str:
    from minicuda.pipeline import PASSES

    width = max(len(name) for name in PASSES)
    return "passes (for --passes and --print-after):\n" + "\n".join(f"  {name:<{width}}  {p.description}"
                                                       for name, p in PASSES.items())


def _write(text: str, output: str | None) -> None:
    write_output(text, output)   # OutputError when it cannot be written


def _report(diags: DiagnosticEngine | None, error: CompileError | None = None) -> None:
    if diags is None:
        return
    if error is not None:
        for d in error.diagnostics:
            if d not in diags.diagnostics:
                diags.diagnostics.append(d)
    text = diags.render()
    if text:
        print(text, file=sys.stderr)
    n = diags.error_count
    if n:
        print(f"{n} error{'s' if n != 1 else ''} generated.", file=sys.stderr)


# options that only a .cu input can take: (attribute, flag)
CU_ONLY = [("preprocess_only", "-E"), ("arch", "--arch"), ("sched", "--sched"), ("opt", "-O"), ("debug", "-G"),
           ("print_after", "--print-after"), ("verify_each", "--verify-each"),
           ("uniform_threshold", "--uniform-threshold"), ("divergent_threshold", "--divergent-threshold"),
           ("predication_rule", "--predication-rule"), ("include_dirs", "-I"), ("defines", "-D"),
           ("undefines", "-U"), ("bracket_depth", "-fbracket-depth"), ("language", "-x")]


SASS_HEADER = b"// minicuda sass-like output"   # the first line of what minicudac -o writes


def _is_sass(path: str) -> bool:
    """A .sass file, or a file of another name minicudac wrote (`minicudac a.cu b.cpp -o prog`)."""
    if path.endswith(".sass"):
        return True
    if path == "-" or path.endswith((".cu", ".cpp", ".cc", ".cxx", ".c", ".o", ".ir", ".cuh", ".h")):
        return False
    try:
        check_regular(path, path)
        with open(path, "rb") as f:
            return f.read(len(SASS_HEADER)) == SASS_HEADER
    except (SourceFileError, OSError):
        return False


def _source_input(args) -> SourceText:
    """The program the command line names: the file's text, or standard input's for `-`
    with -x cu (as clang); SourceFileError when there is none to read.  The name is never
    taken for program text."""
    if args.file != "-":
        return SourceText(args.file, read_text(args.file))
    if not args.language:
        raise SourceFileError("-x cu required when input is from standard input")
    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:
        raise SourceFileError("cannot read '<stdin>': standard input is closed")
    return SourceText("<stdin>", read_stream(stdin))


def _cu_only_option(args, allowed=()) -> str | None:
    """The first option given that only makes sense for a .cu input (None when none is)."""
    for attribute, flag in CU_ONLY:
        value = getattr(args, attribute, None)
        if flag not in allowed and value is not None and value is not False and value != []:   # -O0 is given
            return flag
    return None


def _load_sass(path: str, prog: str):
    """The module a .sass file holds; None, with a located error printed, when it is malformed."""
    try:
        text = read_text(path)
    except SourceFileError as e:
        print(f"{prog}: error: {e.message}", file=sys.stderr)
        return None
    try:
        return parse_module(text, check=True)
    except IRParseError as e:
        print(f"{path}:{e.line}: error: {e.message}", file=sys.stderr)
        return None


def _compile_sass(args) -> int:
    """minicudac FILE.sass: check the module, print it again, report on it."""
    from minicuda.passes.regalloc import resource_usage
    
    flag = _cu_only_option(args) or (f"--emit={args.emit}" if args.emit not in (None, "sass-like") else None)
    if flag:
        print(f"minicudac: error: {flag} applies to a .cu source; {args.file} is compiled already", file=sys.stderr)
        return EXIT_USAGE
    module = _load_sass(args.file, "minicudac")
    if module is None:
        return EXIT_USER
    if getattr(args, "syntax_only", False) or getattr(args, "command", None) == "check":
        return 0
    if args.resource_usage:
        for fn in module.functions.values():
            _print_resource_usage(resource_usage(fn, module.arch))
    emit = args.emit or ("sass-like" if args.output or not args.report else None)
    if emit == "sass-like":
        _write(format_module(module), args.output)
    if args.report == "predication":
        _write_report(_report_records(list(module.functions.values()), args), args, emit)
    return 0


def _compile(args) -> int:
    from minicuda.frontend import load, preprocess_only
    from minicuda.grammar.astdump import dump

    check_output(args.output, list(args.files))
    if _links(args):
        return _compile_units(args)
    if len(args.files) > 1:
        return _compile_each(args)
    if _runs_passes(args):
        return _run_pass_list(args)
    if _is_sass(args.file) and not args.language:
        return _compile_sass(args)
    diags = DiagnosticEngine()
    try:
        source = _source_input(args)
        language = language_of(args.file, args.language)
        if args.preprocess_only:
            pp, _ = preprocess_only(source, args.include_dirs, args.defines, args.undefines, diags, language)
            _report(diags)
            _write(pp.text if pp.text.endswith("\n") else pp.text + "\n", args.output)
            return 0
        if args.emit == "ast" or getattr(args, "syntax_only", False) or not hasattr(args, "arch"):
            fe = load(source, args.include_dirs, args.defines, args.undefines, diags, _bracket_depth(args), language)
            _report(diags)
            if args.emit == "ast":
                _write(dump(fe.tu), args.output)
            return 0
        return _compile_to_ir(args, source, diags)
    except SourceFileError as e:
        print(f"{_prog(args)}: error: {e.message}", file=sys.stderr)
        return EXIT_USER
    except CompileError as e:
        _report(diags, e)
        return EXIT_USER


# options a module text given to --passes takes besides those of a .sass file
PASS_OPTIONS = ("--arch", "--sched", "--print-after", "--verify-each", "--uniform-threshold", "--divergent-threshold",
                "--predication-rule")


def _runs_passes(args) -> bool:
    """Whether minicudac runs passes on a module text: a .ir file, or an option that asks."""
    return (args.file.endswith(".ir") and not args.language) or getattr(args, "passes", None) is not None or \
        bool(getattr(args, "print_analysis", None)) or getattr(args, "print_changes", False)


def _load_module_text(path: str):
    """The module a .ir or .sass file holds, every function verified (a .sass file is also
    checked against the opcode table); None, with a located error printed, when it is malformed."""
    if _is_sass(path):
        return _load_sass(path, "minicudac")
    try:
        module = parse_module(read_text(path))
        for fn in module.functions.values():
            verify(fn, "input")
        return module
    except SourceFileError as e:
        print(f"minicudac: error: {e.message}", file=sys.stderr)
    except IRParseError as e:
        print(f"{path}:{e.line}: error: {e.message}", file=sys.stderr)
    except InternalError as e:
        print(f"{path}: error: {str(e).split(': ', 2)[-1]}", file=sys.stderr)
    return None


def _run_pass_list(args) -> int:
    """minicudac FILE.ir --passes=a,b (LLVM's opt): parse the module text, run the named
    passes on every function, verify, and print the module with the analyses asked for."""
    from minicuda.opt import format_annotated, run_pass_list
    from minicuda.passes.regalloc import resource_usage
    from minicuda.pipeline import passes_named

    if not args.file.endswith((".ir", ".sass")):
        print(f"minicudac: error: --passes, --print-analysis and --print-changes apply to a module text (.ir or "
              f".sass); write one with minicudac {args.file} --emit=ir -o FILE.ir", file=sys.stderr)
        return EXIT_USAGE
    flag = _cu_only_option(args, allowed=PASS_OPTIONS) or \
        (f"--emit={args.emit}" if args.emit not in (None, "sass-like", "ir") else None)
    if flag:
        print(f"minicudac: error: {flag} applies to a .cu source; {args.file} is a module text", file=sys.stderr)
        return EXIT_USAGE
    module = _load_module_text(args.file)
    if module is None:
        return EXIT_USER
    if getattr(args, "command", None) == "check":
        return 0
    try:
        options = _pass_list_options(args, module)
        passes = passes_named([n for n in (args.passes or "").split(",") if n], options)
    except ValueError as e:
        print(f"minicudac: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    module.arch = format_arch(options.arch)
    changes, analyses = run_pass_list(module, passes, options)
    if any(p.name == "reconverge" for p in passes):
        module.sched = "stack" if options.stack_arch else "its"
    if args.resource_usage:
        for fn in module.functions.values():
            _print_resource_usage(resource_usage(fn, module.arch))
    emit = args.emit or ("sass-like" if args.output or not args.report else None)
    if emit is not None:
        _write(format_annotated(module, analyses, args.print_analysis, changes if args.print_changes else None),
               args.output)
    if args.report == "predication":
        _write_report(_report_records(list(module.functions.values()), args), args, emit)
    return 0


def _pass_list_options(args, module) -> Options:
    """The options of --passes: the module's arch unless -arch names another; ValueError
    for an unknown arch or --print-after pass."""
    from minicuda.pipeline import Options, check_pass_names

    check_pass_names(args.print_after)
    return Options(arch=parse_arch(args.arch) if args.arch else module.sm, sched=args.sched,
                   verify_each=args.verify_each, print_after=tuple(args.print_after),
                   **_predication_given(args))


def _compiler_options(args) -> Options:
    """minicudac's Options (arch and -O level set); ValueError for an unknown arch or pass."""
    from minicuda.pipeline import Options, check_pass_names

    arch = parse_arch(args.arch or "sm_70")
    check_pass_names(args.print_after)
    options = Options(verify_each=args.verify_each, print_after=tuple(args.print_after), sched=args.sched,
                      bracket_depth=_bracket_depth(args), rdc=getattr(args, "rdc", "false") == "true",
                      fast_math=getattr(args, "fast_math", False), ftz=_ftz(args), **_predication_given(args))
    options.arch, options.opt = arch, 0 if args.debug else 3 if args.opt is None else args.opt
    return options


def _compile_to_ir(args, source: SourceText, diags: DiagnosticEngine) -> int:
    from minicuda.compiler import compile_program

    try:
        options = _compiler_options(args)
    except ValueError as e:
        print(f"minicudac: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    program = compile_program(source, options.arch, options.opt, options, args.include_dirs, args.defines, diags,
                              language=language_of(args.file, args.language))
    _report(diags)
    return _emit_program(args, program)


OCCUPANCY_BLOCK_SIZES = (128, 256, 512, 1024)


def _print_resource_usage(usage) -> None:
    """--resource-usage: ptxas's lines, then a kernel's theoretical occupancy (vm/occupancy.py)
    at a few block sizes, with what limits it, as the occupancy calculator gives it."""
    lines = usage.ptxas_lines()
    if usage.kind == "kernel":
        sm = sm_of(usage.arch)
        lines += [f"minicuda info : {occupancy(sm, 0, usage.shared_bytes, size, registers=usage.registers).line()}"
                  for size in OCCUPANCY_BLOCK_SIZES]
    print("\n".join(lines), file=sys.stderr)


def _emit_program(args, program: CompiledProgram) -> int:
    """What minicudac prints of a compiled (or linked) program: the sass-like text, the IR,
    the CFG, resource usage, the predication report, as its options ask."""
    from minicuda.passes.dot import module_dot
    from minicuda.ptxasinfo import ptxas_report

    if args.resource_usage:
        for usage in program.resource_usage.values():
            _print_resource_usage(usage)
    if getattr(args, "ptxas_verbose", False):
        print("\n".join(ptxas_report(program.module)), file=sys.stderr)
    emit = args.emit or ("sass-like" if args.output or not args.report else None)
    if emit == "sass-like":
        _write(program.sass(), args.output)
    elif emit == "ir":
        _write("".join(program.ir_before.values()), args.output)
    elif emit == "cfg":
        _write(module_dot(program), args.output)
    elif emit == "cfg-svg":
        from minicuda.report.cfg_svg import module_svg   # (the report's side, loaded when asked)

        _write(module_svg(program.module), args.output)
    if args.report == "predication":
        _write_report(_report_records(list(program.functions.values()), args), args, emit)
    return 0


# ---- several translation units ---------------------------------------------------------------
OBJECT_SUFFIX = ".o"
LINK_INPUTS = (".cu", ".cpp", ".cc", ".cxx", ".c", OBJECT_SUFFIX)   # what `minicuda run` takes as its inputs
RUN_INPUTS = LINK_INPUTS + (".sass",)


def _links(args) -> bool:
    """Whether minicudac compiles units to objects (-c) or links a program of several inputs."""
    if getattr(args, "command", None) == "check" or args.preprocess_only or args.syntax_only or args.emit == "ast":
        return False
    return args.compile_only or len(args.files) > 1 or args.files[0].endswith(OBJECT_SUFFIX)


def _compile_each(args) -> int:
    """-E, -fsyntax-only, --emit=ast and check of several files: each file alone, in order."""
    if args.output:
        print(f"{_prog(args)}: error: cannot specify -o with several files here (each file's output is "
              f"separate)", file=sys.stderr)
        return EXIT_USAGE
    status = 0
    for path in args.files:
        one = argparse.Namespace(**vars(args))
        one.file, one.files = path, [path]
        status = max(status, _compile(one))
    return status


def _compile_units(args) -> int:
    """minicudac -c (each source to an object file) or the link of several inputs."""
    modules = [f for f in args.files if f.endswith((".sass", ".ir")) or f == "-"]
    if modules:
        print(f"minicudac: error: {modules[0]}: only sources ({', '.join(SUFFIXES)}) and object files (.o) are "
              f"compiled and linked together", file=sys.stderr)
        return EXIT_USAGE
    try:
        options = _compiler_options(args)
    except ValueError as e:
        print(f"minicudac: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    if args.compile_only:
        return _write_objects(args, options)
    program = _linked_program(args, args.files, options, "minicudac")
    return program if isinstance(program, int) else _emit_program(args, program)


def _write_objects(args, options: Options) -> int:
    from minicuda.linker import format_object
    from minicuda.ptxasinfo import ptxas_report

    sources = [f for f in args.files if not f.endswith(OBJECT_SUFFIX)]
    if args.output and len(sources) > 1:
        print("minicudac: error: cannot specify -o with -c and several files", file=sys.stderr)
        return EXIT_USAGE
    status = 0
    for path in args.files:
        if path.endswith(OBJECT_SUFFIX):
            print(f"minicudac: warning: {path}: linker input file unused because linking not done", file=sys.stderr)
            continue
        unit = _compiled_unit(args, path, options, "minicudac")
        if isinstance(unit, int):
            status = unit
            continue
        if args.ptxas_verbose:
            print("\n".join(ptxas_report(unit[0].module)), file=sys.stderr)
        stem = os.path.splitext(os.path.basename(path))[0]
        _write(format_object(unit[0]), args.output or stem + OBJECT_SUFFIX)
    return status


def _compiled_unit(args, path: str, options: Options, prog: str):
    """(ObjectUnit, its IR after lowering, its Frontend) of one source, diagnostics
    reported; an exit status when it does not compile."""
    from minicuda.compiler import compile_unit
    from minicuda.frontend import load

    diags = DiagnosticEngine()

    def compiled():
        fe = load(SourceText(path, read_text(path)), args.include_dirs, args.defines, getattr(args, "undefines", []),
                  diags, _bracket_depth(args), language_of(path, args.language))
        return (*compile_unit(fe, options, args.rdc == "true"), fe)
    return _reported(compiled, diags, prog)


def _reported(compile_step, diags: DiagnosticEngine, prog: str):
    """What `compile_step()` returns, its diagnostics reported; EXIT_USER when the source
    cannot be read or does not compile."""
    try:
        result = compile_step()
    except SourceFileError as e:
        print(f"{prog}: error: {e.message}", file=sys.stderr)
        return EXIT_USER
    except CompileError as e:
        _report(diags, e)
        return EXIT_USER
    _report(diags)
    return result


def _read_object(path: str, options: Options, prog: str):
    """The unit an object file holds, checked against the link's arch and scheduling model;
    an exit status when it cannot be linked."""
    from minicuda.linker import ObjectFormatError, parse_object

    try:
        unit = parse_object(read_text(path))
    except SourceFileError as e:
        print(f"{prog}: error: {e.message}", file=sys.stderr)
        return EXIT_USER
    except ObjectFormatError as e:
        print(f"{prog}: error: {path}: {e}", file=sys.stderr)
        return EXIT_USER
    sched = options.sched or ("stack" if options.stack_arch else "its")
    if unit.module.sm != options.arch or unit.module.sched != sched:
        print(f"{prog}: error: {path} was compiled for {unit.module.arch} ({unit.module.sched}); this link is for "
              f"sm_{options.arch} ({sched}): compile every unit for one target", file=sys.stderr)
        return EXIT_USER
    return unit


def _linked_program(args, inputs: list[str], options: Options, prog: str):
    """The program of several sources and object files, compiled and linked, every unit's
    diagnostics and the linker's reported; an exit status when there is none."""
    from minicuda.compiler import CompiledProgram
    from minicuda.linker import LinkError, link

    if args.arch is None:   # objects alone name the target
        first = next((f for f in inputs if f.endswith(OBJECT_SUFFIX)), None)
        if first is not None and not any(not f.endswith(OBJECT_SUFFIX) for f in inputs):
            unit = _read_object(first, options, prog) if os.path.exists(first) else None
            if unit is not None and not isinstance(unit, int):
                options.arch = unit.module.sm
    units, objects, ir_before, status = [], [], {}, 0
    link_diags = DiagnosticEngine()   # the link's errors, shown with the units' source lines
    for path in inputs:
        if path.endswith(OBJECT_SUFFIX):
            unit = _read_object(path, options, prog)
            if not isinstance(unit, int):
                units.append(unit)
                objects.append(unit)
        else:
            unit = _compiled_unit(args, path, options, prog)
            if not isinstance(unit, int):
                objects.append(unit[0])
                ir_before.update({f"{path}:{name}": text for name, text in unit[1].items()})
                units.append(unit[2])
                link_diags.sources.files.update(unit[2].diags.sources.files)
        status = unit if isinstance(unit, int) else status
    if status:
        return status
    try:
        module = link(objects)
    except LinkError as e:
        link_diags.diagnostics.extend(e.diagnostics)
        _report(link_diags)
        return EXIT_USER
    first = next((u for u in units if not hasattr(u, "symbols")), None)
    return CompiledProgram(first, module, options, ir_before, units, args.rdc == "true")


def _report_records(functions: list, args) -> list:
    """The records --report lists: device code's, a device function's once per call site
    (inlined, under its caller; alone only where it is still called or its address taken),
    host code's with --report-host."""
    named = {getattr(s, "name", None) for fn in functions for ins in fn.instructions() for s in ins.srcs}
    return [d for fn in functions if (fn.kind != "host" or args.report_host) and (fn.kind != "device" or fn.name in named)
            for d in fn.branch_decisions]


def _unrolled(record) -> str:
    """What loop-unroll did to a loop, as the report's loop section says it."""
    if record.unrolled == "full":
        return "fully unrolled"
    if record.unrolled:
        return f"unrolled by {record.unrolled} with a remainder loop"
    why = record.reason.split("not unrolled: ", 1)
    return f"not unrolled ({why[1].rsplit(' (', 1)[0]})" if len(why) == 2 else "not unrolled"


def _write_report(records, args, emit: str | None) -> None:
    """--report=predication: one line (or JSON object) per conditional branch, then a
    section of the loops' exits."""
    if args.report_format == "json":
        text = json.dumps([r.as_dict() for r in records], indent=2) + "\n"
    else:
        branches = [f"{r.file}:{r.line}:{r.column}: {r.function}: {'uniform' if r.uniform else 'divergent'}, "
                    f"{instructions(r.instructions)}, {'predicated' if r.predicated else 'kept'}: "
                    f"{r.reason.split(': ', 1)[-1]}\n" for r in records if not r.loop]
        loops = [f"{r.file}:{r.line}:{r.column}: {r.function}: {'uniform' if r.uniform else 'divergent'} exit, "
                 f"{'trip count unknown' if r.trip_count is None else f'trip count {r.trip_count}'}, "
                 f"{_unrolled(r)}\n" for r in records if r.loop]
        text = "".join(branches) + ("loops:\n" + "".join(loops) if loops else "")
    if emit is None and args.output:
        _write(text, args.output)
    else:
        _write(text, None)


def _run(args) -> int:
    """minicuda run, watched from the start: --timeout counts the compile too, Ctrl-C is heard."""
    check_output(args.metrics_json, list(args.files))
    check_output(args.output, list(args.files))
    check_output(args.decisions_json, list(args.files))
    if sys.stdout is None:   # a closed stdout: the program's output is lost, as a C program's is
        sys.stdout = open(os.devnull, "w")
    progress = not args.quiet and is_terminal(sys.stderr)
    if args.time_report:
        TIMES.start()
    watcher = Watcher(StopFlag(), args.timeout, args.watchdog, progress).start()
    try:
        return _run_watched(args, watcher)
    except KeyboardInterrupt:
        if watcher.while_compiling != TIMEOUT:
            raise
        print(f"minicuda: error: timed out after {args.timeout:g} s (--timeout) while compiling", file=sys.stderr)
        return EXIT_STATUS[TIMEOUT]
    finally:
        watcher.close()
        if args.time_report:
            sys.stdout.flush()
            print(TIMES.finish(), file=sys.stderr)


def _run_watched(args, watcher: Watcher) -> int:
    problem = _tool_options_problem(args)
    if problem:
        print(f"minicuda: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.sched_seeds is not None and args.sched is None:
        args.sched = "its"
    program = _run_input(args)
    if isinstance(program, int):
        return program
    if args.sanitize:
        return _sanitize(args, program, watcher)
    if args.sched_seeds is not None:
        return _sweep_seeds(args, program, watcher)
    return _run_program(args, program, watcher, args.tool, args.sched_seed)[0]


def _tool_options_problem(args) -> str | None:
    """What is wrong with the sanitizer and seed options together, or None."""
    if args.leak_check == "full" and not args.tool and not args.sanitize:
        args.tool = ["memcheck"]   # compute-sanitizer's default tool
    if args.sanitize and args.tool:
        return "minicuda sanitize runs every tool; --tool is for minicuda run"
    if args.leak_check == "full" and not args.sanitize and "memcheck" not in args.tool:
        return "--leak-check applies to --tool memcheck"
    if args.track_unused_memory and not args.sanitize and "initcheck" not in args.tool:
        return "--track-unused-memory applies to --tool initcheck"
    if args.sched_seeds is not None:
        if args.sched == "stack":
            return "--sched-seeds tries schedules of the ITS model; it does not go with --sched stack"
        if args.sched_seed is not None:
            return "--sched-seeds tries seeds 0 to N-1; --sched-seed runs one of them"
        if args.sanitize:
            return "--sched-seeds goes with minicuda run, not sanitize"
    return None


def _sanitize(args, program, watcher: Watcher) -> int:
    """minicuda sanitize: the program run under each tool of TOOLS (memcheck with its leak
    check), its output shown once; 1 when a tool reported an error, else the program's status."""
    status, failed = None, False
    stdin = _stdin_bytes()
    for tool in TOOLS:
        args.leak_check = "full" if tool == "memcheck" else "no"
        flags = f"--tool {tool}" + (" --leak-check full" if tool == "memcheck" else "")
        print(f"========= minicuda sanitize: {flags}", file=sys.stderr, flush=True)
        quiet = io.BytesIO() if status is not None else None
        code, errors = _run_program(args, program, watcher, [tool], args.sched_seed, quiet, stdin=stdin)
        status = code if status is None else status
        failed = failed or errors > 0
    return 1 if failed else status


def _sweep_seeds(args, program, watcher: Watcher) -> int:
    """--sched-seeds N: the program under ITS with seeds 0 to N-1, each seed whose output or
    exit status differs from seed 0's named (1 when one does)."""
    runs = []
    stdin = _stdin_bytes()
    for seed in range(args.sched_seeds):
        out = io.BytesIO()
        code, _ = _run_program(args, program, watcher, args.tool, seed, out, quiet_errors=seed > 0, stdin=stdin)
        runs.append((code, out.getvalue()))
        if seed == 0:
            binary_stream(sys.stdout).write(out.getvalue())
            sys.stdout.flush()
    differing = [seed for seed, run in enumerate(runs) if run != runs[0]]
    for seed in differing:
        print(f"minicuda: seed {seed} changes the run: {_difference(runs[0], runs[seed])}; reproduce it with "
              f"--sched-seed {seed}", file=sys.stderr)
    print(f"minicuda: {len(runs)} schedule{'s' if len(runs) != 1 else ''} tried (--sched-seed 0 to "
          f"{len(runs) - 1}); {len(differing)} change{'s' if len(differing) == 1 else ''} the output", file=sys.stderr)
    return 1 if differing else runs[0][0]


def _stdin_bytes() -> bytes | None:
    """Standard input read whole, for a program run several times to read each time; None
    when it is a terminal (each run reads it) or cannot be read."""
    try:
        if sys.stdin is None or sys.stdin.isatty():
            return None
        return sys.stdin.buffer.read()
    except (AttributeError, OSError, ValueError):
        return None


def _difference(first: tuple[int, bytes], other: tuple[int, bytes]) -> str:
    """How run `other` (exit status, output) differs from `first`: the first line of output
    that differs, or the status."""
    a, b = first[1].decode(errors="replace").split("\n"), other[1].decode(errors="replace").split("\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1} of the output is '{y}' instead of '{x}'"
    if len(a) != len(b):
        return f"the output has {len(b) - 1} lines instead of {len(a) - 1}"
    return f"exit status {other[0]} instead of {first[0]}"


def _print_note(line: str) -> None:
    """A note of the run's, on stderr as it happens (after what the program printed so far)."""
    sys.stdout.flush()
    print(line, file=sys.stderr, flush=True)


def _run_program(args, program, watcher: Watcher, tools, seed, stdout=None, quiet_errors=False,
                 stdin: bytes | None = None) -> tuple[int, int]:
    """One run of `program` with `tools` and ITS seed `seed`, its output to `stdout` (the
    terminal's by default): (exit status, the errors its tools reported)."""
    trace = None
    if args.trace or os.environ.get("MINICUDA_TRACE") == "1":
        trace = lambda line: print(line, file=sys.stderr)
    try:
        with TIMES.phase("VM set-up (memory, static data, engine)"):
            machine = Machine(program, sched=args.sched, max_steps=args.max_steps, trace=trace, seed=seed,
                              engine=args.engine, jobs=args.jobs, tools=tools, stdout=stdout,
                              stderr=io.BytesIO() if quiet_errors else None,
                              stdin=io.BytesIO(stdin) if stdin is not None else None,
                              profile=args.source_view or args.report == "html", timeline_warp=args.timeline_warp,
                              memory_counters=any(m.memory for m in args.metrics),
                              time=getattr(args, "time", "wall"), timing_model=any(m.timing for m in args.metrics),
                              gpu=getattr(args, "gpu", None))
    except VMError as e:   # a static object that cannot be placed: the load fails, as a link would
        print(f"minicuda: error: {e}", file=sys.stderr)
        return EXIT_USER, 0
    if args.leak_check == "full" and "memcheck" in tools:
        machine.leaks = []
    if not (quiet_errors or getattr(args, "quiet", False)):
        machine.interp.note = machine.host.note = _print_note
    watcher.attach(machine)
    try:
        code = machine.run([args.file] + list(args.args))
    except Stopped as stop:
        watcher.close()
        sys.stdout.flush()
        machine.runtime.flush_device()
        what = f"timed out after {args.timeout:g} s (--timeout)" if stop.reason == TIMEOUT else "interrupted"
        print("\n".join(report_lines(stop, what)), file=sys.stderr)
        return EXIT_STATUS.get(stop.reason, EXIT_USER), 0
    except VMError as e:
        sys.stdout.flush()
        machine.runtime.flush_device()
        where = f"{e.loc}: " if e.loc is not None else ""
        print(f"{where}error: {e}", file=sys.stderr)
        if e.note:
            print(f"{where}note: {e.note}", file=sys.stderr)
        code = EXIT_USER
        if e.kind in SIGNALS:   # as the shell reports a native program's death by the signal
            shell_line, code = SIGNALS[e.kind]
            print(shell_line, file=sys.stderr)
    sys.stdout.flush()
    if not quiet_errors:
        for warning in machine.interp.warnings:
            print(warning, file=sys.stderr)
    errors = 0
    if tools:
        errors, code = _sanitizer_end(args, machine, tools, code, quiet_errors)
    with TIMES.phase("metrics printed and written"):
        if args.metrics:
            _print_metrics(machine.launches, args.metrics)
        if args.source_view:
            for launch in machine.launches:
                print(source_view(launch, machine.module))
        if args.metrics_json:
            _write(json.dumps(_metrics_records(machine), indent=2), args.metrics_json)
        if args.decisions_json:
            _write(json.dumps([d.as_dict() for d in _run_decisions(program)], indent=2) + "\n", args.decisions_json)
        if args.report == "html":
            code = _write_html_report(args, machine, watcher) or code
    return code, errors


def _sanitizer_end(args, machine, tools, code: int, quiet: bool) -> tuple[int, int]:
    """The tools' reports, those made at the end of a run (unused memory, leaks) and
    compute-sanitizer's summary lines: (the errors, the exit status: 1 for a run that
    reported an error, as compute-sanitizer --error-exitcode 1, unless the program failed
    first)."""
    findings = machine.interp.findings
    shadow = machine.memory.shadow
    if args.track_unused_memory and shadow is not None:
        for report in shadow.unused_reports():
            findings.report("initcheck", ERROR, report)
    leaks = None
    if machine.leaks is not None:
        leaks = machine.leaks + leak_reports(machine.memory, machine.leaked)
        for _, report in leaks:
            findings.report("memcheck", ERROR, report)
    lines = list(findings.texts)
    if findings.hidden:
        lines.append(f"========= {findings.hidden} more reports not shown (the first {len(findings.texts)} are)")
    lines += findings.summary_lines(tools, leaks)
    if not quiet:
        print("\n".join(lines), file=sys.stderr)
    errors = findings.errors()
    return errors, (findings.exit_status() if code == 0 else code)


def _metrics_records(machine) -> list[dict]:
    """--metrics-json: one object per launch (with its per-line section when the run was
    profiled), then per-kernel totals when launches nested."""
    totals = kernel_totals(machine.launches) if has_nested(machine.launches) else []
    records = []
    for m in machine.launches:
        record = m.as_dict()
        if m.profile is not None:
            record["lines"] = [line.as_dict() for line in launch_lines(m, machine.module)]
        records.append(record)
    return records + [m.as_dict() for m in totals]


def _run_decisions(program) -> list:
    """The predication decisions of the program run: its device code's branches (as
    minicudac --report predication lists them)."""
    module = getattr(program, "module", program)
    return [d for fn in module.functions.values() if fn.kind != "host" for d in fn.branch_decisions]


def _run_input(args):
    """What `minicuda run` runs: a .sass file's module, or the .cu program compiled for
    --arch with the markers for --sched; an exit status when there is nothing to run."""
    if _is_sass(args.file) and not args.language:
        if len(args.files) > 1:
            print(f"minicuda: error: {args.file} is a linked program; it runs alone (link sources and object "
                  f"files instead)", file=sys.stderr)
            return EXIT_USAGE
        flag = _cu_only_option(args, allowed=("--sched",))
        if flag:
            print(f"minicuda: error: {flag} applies to a .cu source; {args.file} is compiled already "
                  f"(its .arch line names the target)", file=sys.stderr)
            return EXIT_USAGE
        module = _load_sass(args.file, "minicuda")
        if module is None:
            return EXIT_USER
        if args.sched and module.sched and args.sched != module.sched:
            print(f"minicuda: error: {args.file} has its reconvergence markers placed for the {module.sched} model "
                  f"(.sched {module.sched}); compile it with minicudac --sched {args.sched} to run it under "
                  f"{args.sched}", file=sys.stderr)
            return EXIT_USAGE
        return module
    try:
        arch = parse_arch(args.arch or "sm_70")
    except ValueError as e:
        print(f"minicuda: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    diags = DiagnosticEngine()
    opt = 0 if args.debug else 3 if args.opt is None else args.opt
    if len(args.files) > 1 or args.file.endswith(OBJECT_SUFFIX):
        from minicuda.pipeline import Options   # (see the module's docstring)

        options = Options(sched=args.sched, bracket_depth=_bracket_depth(args), fast_math=args.fast_math,
                          ftz=_ftz(args), **_predication_given(args))
        options.arch, options.opt = arch, opt
        return _linked_program(args, args.files, options, "minicuda")
    def compiled():
        source = _source_input(args)
        return compile_cached(source.filename, source.text, arch, opt, args.sched, _bracket_depth(args),
                              args.include_dirs, args.defines, diags, language_of(args.file, args.language),
                              enabled=not args.no_cache, rdc=args.rdc == "true", fast_math=args.fast_math,
                              predication=tuple(sorted(_predication_given(args).items())), ftz=_ftz(args))
    return _reported(compiled, diags, "minicuda")


def _print_metrics(launches, metrics) -> None:
    """The nvprof-like table of --metrics: the metrics asked for, per kernel launch; with
    nested launches, then per kernel over all its grids."""
    out = sys.stdout
    print("==minicuda== Metric result:", file=out)
    width = max([30] + [len(metric.name) for metric in metrics])
    for m in launches:
        print(f"    Kernel: {m.kernel} <<<({m.grid[0]},{m.grid[1]},{m.grid[2]}), ({m.block[0]},{m.block[1]},{m.block[2]})>>> "
              f"[{m.arch}, {m.sched}]" + (f" depth {m.depth}, launched by {m.parent}" if m.depth else ""), file=out)
        for metric in metrics:
            print(f"        {metric.name:<{width}} {metric.description:<45} {metric.value(m)}", file=out)
        if m.counted_memory and any(metric.memory for metric in metrics):
            _print_memory_sites(m, out)
    if not has_nested(launches):
        return
    print("==minicuda== Metric totals per kernel (nested launches):", file=out)
    for m in kernel_totals(launches):
        print(f"    Kernel: {m.kernel}, {m.grids} grid{'s' if m.grids != 1 else ''} [{m.arch}, {m.sched}]", file=out)
        for metric in metrics:
            print(f"        {metric.name:<{width}} {metric.description:<45} {metric.value(m)}", file=out)


def _print_memory_sites(m, out) -> None:
    """The memory counters of each load and store instruction of a launch that ran one."""
    rows = m.site_rows()
    if not rows:
        return
    print("        Memory per instruction:", file=out)
    for r in rows:
        what = (f"{r['bank_conflicts']} bank conflicts" if r["space"] == "shared"
                else f"{r['efficiency']:.2f}% efficiency")
        unit = "wavefronts" if r["space"] == "shared" else "sectors"
        print(f"          {r['site']}: {r['space']} {r['op']}, {r['requests']} requests, {r['sectors']} {unit} "
              f"({r['sectors'] / r['requests']:.2f} per request), {what}", file=out)


def _run_command(parser: argparse.ArgumentParser, run: argparse.ArgumentParser, argv: list[str],
                 sanitize: bool = False) -> int:
    """minicuda run [OPTIONS] FILE... [ARGS]: run's options come before the program's
    arguments (minicuda run f.cu --arch pascal 512 1024), and `--` ends them."""
    own, program_args = _split_run_argv(argv, run)
    args, unknown = parser.parse_known_args(["run"] + own)
    if unknown:
        print(f"minicuda {FATAL}Unknown option '{unknown[0]}' (the program's own options go after --)",
              file=sys.stderr)
        return EXIT_USAGE
    args.files, args.args = [args.file] + args.args, program_args
    args.sanitize = sanitize
    late = _own_option_among(program_args, run) if "--" not in argv else None
    if late:
        print(f"minicuda: warning: '{late}' comes after the program's arguments and is passed to the program; "
              f"minicuda's own options go before them", file=sys.stderr)
    try:
        args.metrics = metrics_named(args.metrics) if args.metrics else []
    except ValueError as e:
        print(f"minicuda: error: {e}", file=sys.stderr)
        return EXIT_USER
    problem = _report_options_problem(args)
    if problem:
        print(f"minicuda: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    return _guard(_run, args)


def _report_options_problem(args) -> str | None:
    """What is wrong with run's --report, -o and --timeline-warp together (None: nothing);
    the report's warp is 0:0 unless one is named."""
    if args.report == "html" and not args.output:
        return "--report=html needs -o FILE (the report's file)"
    if args.output and args.report != "html":
        return "-o names the file --report=html writes; give --report=html too"
    if args.timeline_warp is not None and args.report != "html":
        return "--timeline-warp chooses the warp of the HTML report's timeline; give --report=html -o FILE too"
    if args.compare_archs and args.report != "html":
        return ("--compare-archs runs the program under pascal and volta for the HTML report; "
                "give --report=html -o FILE too")
    if args.compare_archs and (_is_sass(args.file) or len(args.files) > 1 or args.file == "-"):
        return "--compare-archs compiles one source file for pascal and volta; give a .cu file"
    if args.report == "html" and args.timeline_warp is None:
        args.timeline_warp = (0, 0)
    return None


def _own_option_among(program_args: list[str], run: argparse.ArgumentParser) -> str | None:
    """The first of the program's arguments that is one of run's own options (its long
    names: a program's `-n` is its own), for a warning; None when there is none."""
    names = {o for a in run._actions for o in a.option_strings if len(o) > 2}
    return next((a for a in program_args if a.split("=")[0] in names), None)


def _split_run_argv(argv: list[str], run: argparse.ArgumentParser) -> tuple[list[str], list[str]]:
    """(run's options and input files, the program's arguments): the program's start at
    the first argument after the inputs (a source, object or .sass file each), or after `--`."""
    takes_value = {o for a in run._actions for o in a.option_strings if a.nargs not in (0, "?")}
    may_take_value = {o for a in run._actions for o in a.option_strings if a.nargs == "?"}
    own: list[str] = []
    files: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        following = argv[i + 1] if i + 1 < len(argv) else None
        if arg == "--":
            rest = argv[i + 1:]
            more = 0 if files else next((k for k, a in enumerate(rest[1:], 1) if not a.endswith(RUN_INPUTS)),
                                        len(rest))
            return own + ["--"] + files + rest[:more], rest[more:]
        if arg.startswith("-") and arg != "-":
            own.append(arg)
            if following is not None and "=" not in arg and (
                    arg in takes_value or (arg in may_take_value and not following.startswith("-")
                                           and not following.endswith(RUN_INPUTS))):
                own.append(following)
                i += 1
        elif not files or arg.endswith(RUN_INPUTS):
            files.append(arg)
        else:
            return own + ["--"] + files, argv[i:]
        i += 1
    return own + (["--"] + files if files else []), []


def _guard(fn, args) -> int:
    try:
        return fn(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # the reader has gone (| head): quiet, as cat is
        silence_stdout()
        return 0
    except OutputError as e:
        print(f"{_prog(args)}: error: {e}", file=sys.stderr)
        return EXIT_USER
    except Exception as e:  # a bug in minicuda, never the user's
        text = str(e) if isinstance(e, InternalError) else f"internal compiler error: {type(e).__name__}: {e}"
        print(text, file=sys.stderr)
        if "MINICUDA_DEBUG" in __import__("os").environ:
            traceback.print_exc()
        else:
            print("(set MINICUDA_DEBUG=1 for a traceback; please report this bug)", file=sys.stderr)
        return EXIT_INTERNAL


def _prog(args) -> str:
    """The command's name for its own messages: minicuda for its subcommands, else minicudac."""
    return "minicuda" if getattr(args, "command", None) else "minicudac"


def _bracket_depth(args) -> int:
    return args.bracket_depth or BRACKET_DEPTH


def minicudac_main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # files may come between options, as nvcc's
    args, unknown = compiler_parser().parse_known_intermixed_args(joined_values(argv))
    if unknown:
        print(f"minicudac {FATAL}Unknown option '{unknown[0]}'", file=sys.stderr)
        return EXIT_USAGE
    try:
        _read_nvcc_options(args)
    except NvccError as e:
        print(f"minicudac {FATAL}{e}", file=sys.stderr)
        return EXIT_USAGE
    args.file = args.files[0]
    if args.device_c:
        args.compile_only, args.rdc = True, "true"
    if not args.time_report:
        return _guard(_compile, args)
    TIMES.start()
    try:
        return _guard(_compile, args)
    finally:
        sys.stdout.flush()
        print(TIMES.finish(), file=sys.stderr)


def _read_nvcc_options(args) -> None:
    """Check nvcc's options and settle what they mean here: the one target simulated
    (noted on stderr with -v) and whether ptxas's report is asked for; NvccError."""
    check_std(args.std)
    args.ptxas_verbose = ptxas_verbose(args.ptxas_options)
    args.arch, note = simulated_target(args.arch, args.codes, args.gencodes)
    if note and args.verbose:
        print(f"minicudac: note: {note}", file=sys.stderr)


def minicuda_main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:   # the benchmark has its own options (minicuda bench --help)
        from minicuda.bench import main as bench_main   # loaded only for it (it loads much of its own)

        return bench_main(argv[1:])
    if argv[:1] == ["sweep"]:   # the sweep has its own options (minicuda sweep --help)
        from minicuda.sweep import main as sweep_main   # loaded only for it

        return sweep_main(argv[1:])
    p = _Parser(prog="minicuda", description="Compile and inspect mini-CUDA programs.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("bench", help="measure the engines per kernel against native C, PoCL and Numba "
                                 "(see minicuda bench --help)")
    sub.add_parser("sweep", help="run programs x architectures x options from a TOML spec, locally or on a Dask "
                                 "cluster, into Parquet and CSV; --plot draws them (see minicuda sweep --help)")
    check = sub.add_parser("check", help="check a program (parse and type-check) and report every error")
    check.add_argument("files", nargs="+", metavar="file", help="the sources to check, each alone")
    _add_frontend_options(check)
    sub.add_parser("sanitize", help="run a program under every --tool (memcheck with --leak-check full, initcheck, "
                                    "...), as compute-sanitizer; exit status 1 when one reports an error "
                                    "(takes run's options: minicuda sanitize FILE.cu [OPTIONS] [ARGS])")
    run = sub.add_parser("run", help="compile a program (or load a .sass file) and run it on the VM, warp by warp")
    run.add_argument("file", help="a .cu source, or a .sass file minicudac wrote; several sources (.cu, .cpp, "
                                  ".c) and object files (.o) are compiled and linked into one program")
    run.add_argument("args", nargs="*", help="arguments for the program's main (after -- when they start with -); "
                                             "the first that is no source or object file starts them")
    run.add_argument("-arch", "--arch", "--gpu-architecture", dest="arch", default=None, help=f"target architecture: {arch_choices()} (default sm_70); "
                     f"{sched_summary()}")
    run.add_argument("--sched", choices=["stack", "its"], default=None,
                     help="force a scheduling model (a .cu is compiled with its markers for it)")
    run.add_argument("--sched-seed", type=int_in(-2**63, 2**64 - 1), default=None, metavar="N",
                     help="ITS: choose the next path at random with seed N instead of round-robin (reproducible)")
    run.add_argument("-O", dest="opt", type=int, choices=[0, 1, 2, 3], default=None,
                     help="optimisation level (default 3)")
    run.add_argument("-G", dest="debug", action="store_true", help="like nvcc -G: -O0, every branch kept")
    run.add_argument("--max-steps", type=int_in(1, INT64_MAX), default=None, metavar="N",
                     help="stop after N warp instructions (default 40000000000 with the JIT, "
                          "200000000 with the interpreter)")
    run.add_argument("--metrics", action="append", nargs="?", const="all", default=[], metavar="NAME,...",
                     help="print these metrics per kernel launch after the output, as nvprof --metrics: nvprof's "
                          "names (branch_efficiency,divergent_branch,...), ncu's (smsp__sass_branch_targets.sum, "
                          "...) or all (the default with no NAME)")
    run.add_argument("--time", choices=["auto", "model", "wall"], default="auto",
                     help="the time cudaEventElapsedTime and the host's clocks (gettimeofday, omp_get_wtime) "
                          "measure: model, the timing model's GPU time for every launch (kernels then run on the "
                          "interpreter, which counts what the model reads; docs/timing.md); wall, the host's wall "
                          "time of the simulation; auto (the default), model for a program that calls "
                          "cudaEventElapsedTime, else wall")
    run.add_argument("--gpu", choices=gpu_keys(), default=None,
                     help="the GPU the timing model times launches on (default: the --arch family's: pascal p100, "
                          "volta v100, ampere a100, hopper h100)")
    run.add_argument("--metrics-json", metavar="FILE", help="write one JSON object per kernel launch to FILE "
                                                            "(with a per-source-line section under --source-view)")
    run.add_argument("--source-view", action="store_true",
                     help="print each kernel launch's source annotated with per-line metrics (the launches run "
                          "on the interpreter, which counts per instruction)")
    run.add_argument("--report", choices=["html"], default=None,
                     help="write a self-contained HTML report of the run (-o FILE; needs the [report] extra)")
    run.add_argument("-o", "--output-file", dest="output", metavar="FILE", help="where --report writes")
    run.add_argument("--timeline-warp", type=block_warp, default=None, metavar="BLOCK:WARP",
                     help="the warp whose lane timeline the report draws (block's linear index, warp in the "
                          "block; default 0:0)")
    run.add_argument("--compare-archs", action="store_true",
                     help="the report also runs the program under pascal (SIMT stack) and volta (independent thread "
                          "scheduling) and shows the warp's timeline under both side by side")
    run.add_argument("--decisions-json", metavar="FILE",
                     help="write the predication decision of each conditional branch of device code to FILE "
                          "(as minicudac --report predication --report-format json)")
    run.add_argument("--engine", choices=["jit", "interp"], default="jit",
                     help="jit: native code compiled with llvmlite (default); interp: the reference interpreter")
    run.add_argument("--jobs", "-j", type=int_in(1, MAX_JOBS), default=None, metavar="N",
                     help="run independent blocks on N threads (default: the number of cores)")
    run.add_argument("--trace", action="store_true", help="print warp, pc, active mask, stack depth per instruction")
    run.add_argument("--tool", action="append", choices=sorted(TOOLS), default=[], metavar="NAME",
                     help="add a compute-sanitizer-like check (may be repeated): "
                          + "; ".join(f"{name}: {text}" for name, text in TOOLS.items()))
    run.add_argument("--leak-check", choices=["full", "no"], default="no",
                     help="with memcheck (implied when no --tool is given): report each device allocation "
                          "(cudaMalloc, cudaMallocPitch, cudaMallocManaged) not freed at exit or cudaDeviceReset, "
                          "with the line that made it, each an error")
    run.add_argument("--track-unused-memory", action="store_true",
                     help="with initcheck: report each device allocation of which bytes were never used, an error each")
    run.add_argument("--sched-seeds", type=int_in(1, 1 << 20), default=None, metavar="N",
                     help="run the program N times under ITS with --sched-seed 0 to N-1 and name each seed whose "
                          "output or exit status differs from seed 0's (exit status 1 when one does)")
    run.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                     help="stop the run after SECONDS (compiling included), saying where each warp or the host "
                          "was; exit status 124, as timeout(1)")
    run.add_argument("--watchdog", type=seconds, default=None, metavar="SECONDS",
                     help="fail a kernel launch that runs longer than SECONDS with cudaErrorLaunchTimeout, as a "
                          "display GPU's watchdog does; the error sticks and the program runs on (default: off)")
    run.add_argument("--no-cache", action="store_true",
                     help="compile the program again instead of taking its module from the compile cache "
                          "(MINICUDA_COMPILE_CACHE=0 does the same; MINICUDA_JIT_CACHE=0 turns off the JIT's)")
    run.add_argument("-q", "--quiet", action="store_true",
                     help="no progress line for long kernels (shown only when stderr is a terminal), and no notes "
                          "(a function too large for the JIT that runs on the interpreter)")
    run.add_argument("--time-report", "-ftime-report", dest="time_report", action="store_true",
                     help="print on stderr where the run's time went (start-up, each compile stage and pass, the "
                          "JIT, host code, each kernel, each runtime call), as clang's -ftime-report")
    _add_predication_options(run)
    _add_rdc_option(run)
    _add_fast_math_option(run)
    _add_fmad_option(run)
    _add_frontend_options(run)
    p.add_argument("--version", action="version", version=f"minicuda {__version__}")
    if argv[:1] in (["run"], ["sanitize"]):
        return _run_command(p, run, argv[1:], sanitize=argv[0] == "sanitize")
    args, extra = p.parse_known_args(argv)
    if extra:
        p.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "check":
        args.file = args.files[0]
        args.preprocess_only, args.emit, args.output, args.syntax_only = False, None, None, True
        args.compile_only = False
        return _guard(_compile, args)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(minicudac_main())


def _write_html_report(args, machine, watcher: Watcher) -> int:
    """--report=html: the run's report written to -o FILE (with --compare-archs, after the
    program's runs under pascal and volta); 0, or a status when the [report] extra is not
    installed or the comparison's runs were stopped.  Progress on stderr, when a terminal."""
    from minicuda.report.compare import compare_archs   # (the report's side, loaded when asked)
    from minicuda.report.html import MissingExtra, environment, write_report

    line = ProgressLine("minicuda: report: ", enabled=not args.quiet and is_terminal(sys.stderr), timed=True)
    try:
        environment()   # (the extra's absence said before any work)
        compare = None
        if args.compare_archs:
            compare = compare_archs(lambda sm: _compile_for(args, sm), [args.file] + list(args.args),
                                    args.timeline_warp, args.max_steps, watcher.attach, line.show, args.engine)
        write_report(machine, args.output, compare=compare, progress=line.show)
    except MissingExtra as e:
        line.clear()
        print(f"minicuda: error: {e}", file=sys.stderr)
        return EXIT_USER
    except Stopped as stop:
        line.clear()
        watcher.close()
        what = f"timed out after {args.timeout:g} s (--timeout)" if stop.reason == TIMEOUT else "interrupted"
        print("\n".join(report_lines(stop, what)), file=sys.stderr)
        return EXIT_STATUS.get(stop.reason, EXIT_USER)
    line.clear()
    return 0


def _compile_for(args, sm: str):
    """--compare-archs: the program compiled for `sm` with run's other options, or its
    diagnostics (for the page; stderr gets a note)."""
    again = argparse.Namespace(**vars(args))
    again.arch, again.sched = sm, None
    diagnostics = io.StringIO()
    with contextlib.redirect_stderr(diagnostics):
        program = _run_input(again)
    if isinstance(program, int):
        print(f"minicuda: note: --compare-archs: the program does not compile for {sm}; the report shows why",
              file=sys.stderr)
        return diagnostics.getvalue().strip() or f"exit status {program}"
    return program

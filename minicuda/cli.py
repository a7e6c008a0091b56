"""Command lines: `minicudac` (the compiler) and `minicuda` (compile and run).

Exit status: 0 on success, 1 when the user's program is wrong (diagnostics on
stderr, clang-shaped), 2 for bad command-line usage, 70 for an internal compiler
error.  No user mistake ever ends in a Python traceback.
"""
from __future__ import annotations

import argparse
import sys
import traceback

from minicuda import __version__
from minicuda.diagnostics import CompileError, DiagnosticEngine, InternalError

EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 70


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def _add_frontend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="add DIR to the include search path")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a preprocessor macro")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME",
                   help="undefine a preprocessor macro")


def compiler_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="minicudac", description="Compile a mini-CUDA program.")
    p.add_argument("file", help="the .cu source file")
    p.add_argument("-E", dest="preprocess_only", action="store_true", help="print the preprocessed source and stop")
    p.add_argument("--emit", choices=["ast"], default=None,
                   help="what to print: ast (the checked syntax tree)")
    p.add_argument("-fsyntax-only", dest="syntax_only", action="store_true",
                   help="check the program and stop")
    p.add_argument("-o", dest="output", metavar="FILE", help="write the output to FILE instead of stdout")
    _add_frontend_options(p)
    p.add_argument("--version", action="version", version=f"minicudac {__version__}")
    return p


def _write(text: str, output: str | None) -> None:
    if output and output != "-":
        with open(output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


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


def _compile(args) -> int:
    from minicuda.frontend import load, preprocess_only
    diags = DiagnosticEngine()
    try:
        if args.preprocess_only:
            pp, _ = preprocess_only(args.file, args.include_dirs, args.defines, args.undefines, diags)
            _report(diags)
            _write(pp.text if pp.text.endswith("\n") else pp.text + "\n", args.output)
            return 0
        fe = load(args.file, args.include_dirs, args.defines, args.undefines, diags)
        _report(diags)
        if args.emit == "ast":
            from minicuda.grammar.astdump import dump
            _write(dump(fe.tu), args.output)
        return 0
    except CompileError as e:
        _report(diags, e)
        return EXIT_USER


def _guard(fn, args) -> int:
    try:
        return fn(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug in minicuda, never the user's
        text = str(e) if isinstance(e, InternalError) else f"internal compiler error: {type(e).__name__}: {e}"
        print(text, file=sys.stderr)
        if "MINICUDA_DEBUG" in __import__("os").environ:
            traceback.print_exc()
        else:
            print("(set MINICUDA_DEBUG=1 for a traceback; please report this bug)", file=sys.stderr)
        return EXIT_INTERNAL


def minicudac_main(argv: list[str] | None = None) -> int:
    args = compiler_parser().parse_args(argv)
    return _guard(_compile, args)


def minicuda_main(argv: list[str] | None = None) -> int:
    p = _Parser(prog="minicuda", description="Compile and inspect mini-CUDA programs.")
    sub = p.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="check a program (parse and type-check) and report every error")
    check.add_argument("file")
    _add_frontend_options(check)
    p.add_argument("--version", action="version", version=f"minicuda {__version__}")
    args = p.parse_args(argv)
    if args.command == "check":
        args.preprocess_only, args.emit, args.output = False, None, None
        return _guard(_compile, args)
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(minicudac_main())

"""`minicuda sweep`: the command line of the sweep.

    minicuda sweep SPEC.toml [-o OUT] [--jobs N | --scheduler tcp://HOST:PORT] [--resume]
    minicuda sweep --plot RESULTS [--plot-dir DIR] [--format svg|png] [--metric NAME]

Exit status: 0 when the sweep ran (failed points are rows, not errors: see the
summary), 1 for a bad spec or an unusable results file, 2 for a bad command line,
130 when interrupted (finished points stay in OUT.journal.jsonl for --resume).
"""
from __future__ import annotations

import argparse
import os
import sys

from minicuda.argtypes import int_in
from minicuda.sweep import results
from minicuda.sweep.extra import ExtraMissing
from minicuda.sweep.plot import plot_results
from minicuda.sweep.run import default_output, main_stream, run_sweep
from minicuda.sweep.spec import SpecError, load_spec

EXIT_USER, EXIT_USAGE = 1, 2


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="minicuda sweep", description="Run minicuda over programs x architectures x "
                                "options (a TOML spec: docs/sweep.md) and collect every metric, or plot the results.")
    p.add_argument("spec", nargs="?", metavar="SPEC.toml", help="the sweep's specification")
    p.add_argument("-o", "--output", metavar="OUT", help="results prefix: OUT.parquet and OUT.csv "
                   "(default: the spec's output, else SPEC-results beside the spec)")
    p.add_argument("-j", "--jobs", type=int_in(1, 1024), default=None, metavar="N",
                   help="points run at once by the local pool (default: the spec's jobs, else the cores)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the points on this Dask distributed cluster")
    p.add_argument("--resume", action="store_true", help="skip the points the results (or a journal left by an "
                   "interrupted sweep) already hold: same program text, included files and options")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line and no summary table")
    p.add_argument("--plot", metavar="RESULTS", help="draw the standard pictures of a results file "
                   "(.parquet or .csv) instead of running a sweep")
    p.add_argument("--plot-dir", metavar="DIR", help="where --plot writes (default: beside RESULTS)")
    p.add_argument("--format", choices=["svg", "png"], default="svg", help="--plot's image format (default svg)")
    p.add_argument("--metric", default="branch_efficiency", metavar="NAME",
                   help="the metric --plot draws against the block size (default branch_efficiency)")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.plot and args.spec:
        print("minicuda sweep: error: give a SPEC to run or --plot RESULTS to draw, not both", file=sys.stderr)
        return EXIT_USAGE
    if not args.plot and not args.spec:
        print("minicuda sweep: error: a SPEC.toml is needed (or --plot RESULTS)", file=sys.stderr)
        return EXIT_USAGE
    try:
        return _plot(args) if args.plot else _sweep(args)
    except (SpecError, ExtraMissing) as e:
        print(f"minicuda sweep: error: {e}" if isinstance(e, ExtraMissing) else str(e), file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("\nminicuda sweep: interrupted; finished points are kept (run again with --resume)", file=sys.stderr)
        return 130


def _sweep(args) -> int:
    spec = load_spec(args.spec)
    output = args.output or default_output(spec)
    frame = run_sweep(spec, output, args.jobs, args.scheduler, args.resume, None if args.quiet else main_stream())
    parquet, csv, _ = results.paths(output)
    if not args.quiet:
        results.summary(frame, sys.stdout)
    print(f"minicuda sweep: wrote {parquet} and {csv}", file=sys.stderr)
    return 0


def _plot(args) -> int:
    if not os.path.isfile(args.plot):
        print(f"minicuda sweep: error: cannot read '{args.plot}': No such file", file=sys.stderr)
        return EXIT_USER
    try:
        written, notes = plot_results(args.plot, args.plot_dir, args.format, args.metric)
    except (KeyError, ValueError, OSError) as e:
        print(f"minicuda sweep: error: {args.plot} is not a sweep's results file ({type(e).__name__}: {e})",
              file=sys.stderr)
        return EXIT_USER
    for note in notes:
        print(f"minicuda sweep: note: left out {note}", file=sys.stderr)
    for path in written:
        print(path)
    return 0

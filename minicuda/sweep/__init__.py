"""minicuda sweep: one program at one setting is a command; a corpus at hundreds of
settings is a sweep.

A TOML spec (docs/sweep.md) names programs and axes (arch, sched, opt, predication
rule and thresholds, ITS seeds, program arguments, -D macros); every point runs as
its own `minicuda run --metrics-json` process, on a local pool or a Dask cluster, and
the results (one row per point and kernel launch: the point's settings, its status,
every metric, the kernel's predication decisions) go to Parquet and CSV.

Where it lives: spec (the TOML file, checked), points (the product of the axes, each
point's task and key), execute (one point in its own process), backends (local pool,
Dask), results (journal, Parquet, CSV, summary), run (run_sweep), plot (the
pictures), command (the command line). Nothing in the compiler or the VM imports it.

    from minicuda.sweep import load_spec, run_sweep, plot_results
    frame = run_sweep(load_spec("sweep.toml"), output="out/results", jobs=2)
"""
from minicuda.sweep.command import main
from minicuda.sweep.plot import plot_results
from minicuda.sweep.run import run_sweep
from minicuda.sweep.spec import Spec, SpecError, load_spec, parse_spec_text

__all__ = ["Spec", "SpecError", "load_spec", "main", "parse_spec_text", "plot_results", "run_sweep"]

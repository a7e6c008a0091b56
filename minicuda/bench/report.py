"""minicuda bench's report for people: a header on the machine and settings, then one table per part.

Numbers are shortened for reading (3 significant digits with k/M/G/T, seconds in
s/ms/us, ratios as 12.3x); the --json report keeps them whole.  A table shows '-'
for what was not measured, MISMATCH where check values disagree, MISS for an
end-to-end target not met and WRONG for a sample's wrong output.
"""
from __future__ import annotations

from minicuda.bench.results import Report
from minicuda.bench.suites import ENGINES, TARGET_RSS_RATIO, TARGET_THREAD_RATE, TARGET_WALL_S


def si(x: float | None) -> str:
    """3 significant digits with k, M, G, T: 12.3M."""
    if x is None:
        return "-"
    for scale, unit in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def secs(x: float | None) -> str:
    if x is None:
        return "-"
    if x >= 1:
        return f"{x:.2f} s"
    if x >= 1e-3:
        return f"{x * 1e3:.3g} ms"
    return f"{x * 1e6:.3g} us"


def ratio(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}x" if x >= 100 else f"{x:.3g}x"


def table(headers: list[str], rows: list[list[str]]) -> str:
    """Left-aligned first columns of text, right-aligned numbers (any column whose header ends with ':')."""
    right = [h.endswith(":") for h in headers]
    headers = [h.rstrip(":") for h in headers]
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]
    lines = []
    for row in [headers, *rows]:
        cells = [str(c).rjust(w) if r else str(c).ljust(w) for c, w, r in zip(row, widths, right)]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def engines_table(report: Report) -> str:
    rows = []
    for k in report.kernels:
        for i, engine in enumerate(e for e in ENGINES if e in k.runs):
            r = k.runs[engine]
            rows.append([k.kernel if i == 0 else "", engine, " ".join(r.args), f"{r.inst_executed:,}",
                         f"{r.thread_inst_executed:,}", secs(r.wall_s), si(r.warp_inst_per_s), si(r.thread_inst_per_s),
                         ratio(k.jit_over_interp()) if engine == "jit" else ""])
        if not k.runs:
            rows.append([k.kernel, "-", "", "", "", "", "", "", ""])
    return table(["kernel", "engine", "size", "warp inst:", "thread inst:", "wall:", "warp inst/s:",
                  "thread inst/s:", "jit/interp:"], rows)


def baselines_table(report: Report) -> str:
    rows = []
    for k in report.kernels:
        ref = k.reference
        if ref is None:
            continue
        native, pocl = k.native, k.pocl
        rows.append([k.kernel, " ".join(ref.args), f"{ref.engine} {secs(ref.wall_s)}",
                     secs(native.wall_s) if native else "-",
                     si(ref.thread_inst_executed / native.wall_s) if native else "-",
                     ratio(ref.wall_s / native.wall_s) if native else "-",
                     secs(pocl.wall_s) if pocl else "-", ratio(ref.wall_s / pocl.wall_s) if pocl else "-",
                     "ok" if k.checks_agree() else "MISMATCH"])
    return table(["kernel", "size", "minicuda:", "native:", "native thread inst/s eq:", "minicuda/native:",
                  "PoCL:", "minicuda/PoCL:", "check"], rows)


def numba_table(report: Report) -> str:
    rows = [[n["kernel"], " ".join(n["args"]), f"{n['threads']:,}", secs(n["numba_wall_s"]),
             si(n["numba_threads_per_s"]), si(n["numba_thread_inst_per_s_equiv"]), secs(n["interp_wall_s"]),
             si(n["interp_threads_per_s"]), si(n["interp_thread_inst_per_s"]),
             "ok" if n["checks_agree"] else "MISMATCH"]
            for n in report.numba]
    return table(["kernel", "size", "threads:", "numba:", "numba threads/s:", "numba thread inst/s eq:",
                  "interp:", "interp threads/s:", "interp thread inst/s:", "check"], rows)


def e2e_table(report: Report) -> str:
    def mark(entry: dict, key: str) -> str:
        return " ok" if entry.get("meets", {}).get(key) else " MISS"
    rows = []
    for e in report.end_to_end:
        name = f"{e['sample']} {' '.join(e['args'])}"
        if "meets" not in e:
            rows.append([name, secs(e.get("process_wall_s")), "-", "-", "-", "-", "-", e.get("error", "no result")])
            continue
        rows.append([name, secs(e["process_wall_s"]) + mark(e, "wall"), secs(e["compile_s"]), secs(e["run_s"]),
                     si(e["geomean_thread_inst_per_s"]) + mark(e, "thread_rate"),
                     f"{si(e['peak_rss_bytes'])}B - {si(e['baseline_rss_bytes'])}B",
                     f"{si(e['peak_live_bytes'])}B, {ratio(e['rss_over_live'])}{mark(e, 'rss')}",
                     "ok" if e["output_ok"] else "WRONG: " + " / ".join(e["output_tail"])])
    return table(["program", "wall:", "compile:", "run:", "geomean thread inst/s:", "peak RSS - baseline:",
                  "live peak, net RSS/live:", "output"], rows)


def settings_line(s: dict) -> str:
    sizes = ", ".join(f"{e} at the {s['sizes'][e]} sizes" for e in s["engines"])
    jit = f"; JIT on {s['jobs']} threads, timed after a warm-up run (no compile time)" if "jit" in s["engines"] else ""
    return (f"arch {s['arch']}; {sizes}{jit}; native C {s['native_flags']} and PoCL on all its compute units, "
            f"each the mean of runs lasting >= {s['min_baseline_seconds']} s")


def render(report: Report) -> str:
    m, v, s = report.machine, report.versions, report.settings
    memory = f", {m['memory_bytes'] / 2**30:.1f} GiB" if m["memory_bytes"] else ""
    found = ", ".join(f"{name} {version}" for name, version in v.items() if version and name not in ("cc", "opencl"))
    parts = [f"minicuda bench ({s['mode']}) on {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable){memory}, "
             f"{m['system']}",
             f"versions: {found}; {v['cc'] or 'no C compiler'}" + (f"; OpenCL: {v['opencl']}" if "opencl" in v else ""),
             settings_line(s)]
    if report.kernels:
        parts += ["", "minicuda engines, per kernel launch", engines_table(report)]
    if report.jit_warmup_s:
        parts.append("JIT warm-up (compiling the kernels): " + ", ".join(
            f"{sample} {secs(t)}" for sample, t in report.jit_warmup_s.items()))
    if any(k.reference for k in report.kernels):
        parts += ["", "baselines at the reference run's size (the JIT's, else the interpreter's)",
                  baselines_table(report)]
    if report.numba:
        parts += ["", "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1) and the interpreter, same launch",
                  numba_table(report)]
    if report.end_to_end:
        parts += ["", f"end-to-end with the JIT, each in its own process (targets: wall < {TARGET_WALL_S:.0f} s, "
                      f"geomean >= {si(TARGET_THREAD_RATE)} thread inst/s, net RSS <= {TARGET_RSS_RATIO:g}x the live "
                      "peak; net RSS = peak RSS - that of a process that only imported minicuda and compiled)",
                  e2e_table(report)]
    if report.notes:
        parts += ["", "notes:"] + [f"  - {n}" for n in report.notes]
    return "\n".join(parts)

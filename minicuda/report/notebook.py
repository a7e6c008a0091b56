"""Rich display in a Jupyter notebook: `_repr_html_` of a compiled program and of a
launch's metrics.

A launch's display is the metrics table `minicuda run --metrics` prints (each value
in a cell with `data-metric`), and, for a profiled launch that recorded a warp's
issue trace (`Device(program, timeline_warp=(0, 0))`), that warp's lane timeline,
drawn by timeline.py as in the HTML report.  A program's display is its functions
with their resources, the predication decision of each conditional branch, and the
launches run so far on the devices `program.kernel[grid, block](...)` used.  Both are
rendered from this package's templates (the report's totals and timeline pieces,
shared through `_parts.html.j2`), with a few styles inlined and no script: a notebook
shows them as they are, and they need no network.

Without jinja2 (the `[report]` extra) the display is the object's text in a <pre>,
with what to install.  The VM does not import this module: loading it (minicuda/api.py
does, so `minicuda.compile` brings it) installs `launch_html` as LaunchMetrics's
display; a launch's metrics seen before that display as text.
"""
from __future__ import annotations

import html

from minicuda.report.html import MissingExtra, environment, launch_timeline
from minicuda.vm.metrics import MEMORY_METRICS, METRICS, install_html_display, kernel_totals

NOTEBOOK_CSS = """
.minicuda-nb table { border-collapse: collapse; font-size: 12px; margin: 0.3em 0; }
.minicuda-nb th, .minicuda-nb td { padding: 1px 6px; text-align: left; border: 1px solid #ddd; }
.minicuda-nb td.num { text-align: right; font-variant-numeric: tabular-nums; }
.minicuda-nb .note { color: #555; font-size: 0.9em; }
.minicuda-nb .timeline-box { overflow-x: auto; border: 1px solid #ddd; }
"""


def launch_html(m) -> str:
    """The rich display of a LaunchMetrics (or a kernel's KernelTotals)."""
    rows = [(metric.name, metric.description, metric.value(m))
            for metric in METRICS + (MEMORY_METRICS if m.counted_memory else ())]
    timeline = None
    if m.profile is not None and m.issue_trace is not None and m.issue_trace.issues:
        timeline = launch_timeline(m)
    return _render(m, "launch.html.j2", launch=m, rows=rows, timeline=timeline)


def program_html(program) -> str:
    """The rich display of a CompiledProgram."""
    launches = [m for device in program.__dict__.get("_devices", {}).values() for m in device.launches]
    device_code = {name for name, fn in program.functions.items() if fn.kind != "host"}
    sources = [getattr(u, "filename", "") for u in program.units] or [program.frontend.filename]
    return _render(program, "program.html.j2", program=program, sources=sources,
                   usage=[u for name, u in program.resource_usage.items() if name in device_code],
                   decisions=[d for d in program.branch_decisions if d.function in device_code],
                   launches=launches, totals=kernel_totals(launches))


def _render(obj, template: str, **values) -> str:
    try:
        env = environment("minicuda's rich display")
    except MissingExtra as e:
        return f"<pre>{html.escape(repr(obj))}\n({html.escape(str(e))})</pre>"
    return env.get_template(template).render(css=NOTEBOOK_CSS, **values)


install_html_display(launch_html)

"""Seeing a run: per-line metrics in the terminal (`source_view`), the CFG as SVG
(`cfg_svg`), and one self-contained HTML page per run (`html`).

Dependencies point one way: this package reads the compiled module and a Machine's
launches (vm/profile.py's counters); nothing below it imports it.  `html` needs the
`[report]` extra (jinja2, graphviz); `source_view` and `cfg_svg` need nothing more
than minicuda's own dependencies (`cfg_svg` uses graphviz's `dot` when installed).
"""

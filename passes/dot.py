"""`--emit=cfg`: every function's CFG as Graphviz DOT.

Blocks show their instructions; each node names its immediate post-dominator, and
a block ending in a branch that may diverge is drawn red (uniform ones green).
"""
from __future__ import annotations

from minicuda.ir import format_instr
from minicuda.passes.cfg import EXIT, build_cfg, conditional_branch
from minicuda.passes.divergence import analyze_divergence
from minicuda.passes.postdom import ipdom_of


def function_dot(fn) -> str:
    cfg = build_cfg(fn)
    ipdom = ipdom_of(cfg)
    divergence = analyze_divergence(fn)
    name = fn.name.replace('"', "'")
    lines = [f'  subgraph "cluster_{name}" {{', f'    label="{fn.kind} {name}";']
    for b in fn.blocks:
        text = "\\l".join(format_instr(i, with_loc=False).replace('"', '\\"') for i in b.instrs)
        branch = conditional_branch(b)
        color = ""
        if branch is not None:
            color = ', color=red, penwidth=2' if not divergence.branch_is_uniform(b.label) else ', color=darkgreen'
        node = f"{name}{b.label}"
        lines.append(f'    "{node}" [shape=box, fontname=monospace, label="{b.label}  (ipdom {ipdom.get(b.label)})\\l{text}\\l"{color}];')
        for s in cfg.succs(b.label):
            target = f"{name}:EXIT" if s == EXIT else f"{name}{s}"
            lines.append(f'    "{node}" -> "{target}";')
    lines.append(f'    "{name}:EXIT" [shape=doublecircle, label="exit"];')
    lines.append("  }")
    return "\n".join(lines)


def module_dot(program) -> str:
    body = "\n".join(function_dot(fn) for fn in program.module.functions.values())
    return "digraph minicuda {\n" + body + "\n}\n"

"""Passes on a module text, as LLVM's opt runs them: `minicudac FILE.ir --passes=...`.

`run_pass_list` runs passes built from the registry on every function of a parsed
module, verifies every function after them, and returns, per function, the names
of the passes that reported a change.  `format_annotated` prints the module as
`format_module` does, with comment lines that state analyses and changes: a
function's under its header, a block's under its label.  The parser ignores
comments, so the annotated text parses back to the same module.  The pass tests
(tests/passes/filecheck/) check this text with FileCheck.

Annotation lines are `// NAME: TEXT`; register sets are listed in register order
(`%p0 %r2 %r10 %rd1`), `-` when empty:

  changed     function  the passes that reported a change, in order
  cfg         block     `succs A B`: successors, a conditional branch's target first,
                        EXIT for the virtual exit; `(unreachable)` after a block the
                        entry does not reach
  ipdom       block     the immediate post-dominator, EXIT, or `none` when no path
                        from the block reaches the exit
  divergence  function  `varying REGS` and `uniform REGS` (the function's other registers)
              block     `divergent branch` or `uniform branch`, where a conditional
                        branch ends the block
  liveness    block     `in REGS | out REGS`: live on entry and on exit
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from minicuda.ir import Function, Module, format_function, format_module, verify
from minicuda.pipeline import Analyses, Options, run_passes
from minicuda.passes.cfg import conditional_branch

CONSTANT_REGISTERS = {"RZ", "PT"}
Notes = tuple[list[str], dict[str, list[str]]]   # a function's annotation lines, {block label: its lines}


class RecordedPass:
    """A pass that appends its name to `changes` whenever it reports a change."""

    def __init__(self, inner, changes: list[str]):
        self.inner, self.changes = inner, changes

    @property
    def name(self) -> str:
        return self.inner.name

    def run(self, fn: Function, analyses: Analyses) -> bool:
        changed = self.inner.run(fn, analyses)
        if changed:
            self.changes.append(self.inner.name)
        return changed


def run_pass_list(module: Module, passes: list, options: Options) -> tuple[dict[str, list[str]], dict[str, Analyses]]:
    """Run `passes` on every function of `module` and verify it; per function, the
    passes that reported a change and the analyses left valid after them."""
    changes: dict[str, list[str]] = {}
    analyses: dict[str, Analyses] = {}
    for fn in module.functions.values():
        changes[fn.name] = []
        recorded = [RecordedPass(p, changes[fn.name]) for p in passes]
        analyses[fn.name] = run_passes(fn, recorded, options, module)
        verify(fn, "opt")
    return changes, analyses


# ---- annotations ----------------------------------------------------------------------------
def register_order(name: str) -> tuple[str, int]:
    """Sort key of a register name: its class, then its number (%r2 before %r10)."""
    m = re.fullmatch(r"(\D+)(\d*)", name)
    return (m.group(1), int(m.group(2) or -1)) if m else (name, -1)


def register_list(names) -> str:
    return " ".join(sorted(set(names), key=register_order)) or "-"


def registers_named(fn: Function) -> set[str]:
    """Every register the function's text names (parameters, returns, operands, guards)."""
    names = {p.reg.name for p in fn.params} | {r.name for r in fn.rets}
    for ins in fn.instructions():
        names |= {d.name for d in ins.dsts} | {r.name for r in ins.uses()}
    return names - CONSTANT_REGISTERS


def cfg_lines(fn: Function, analyses: Analyses) -> Notes:
    cfg = analyses.get("cfg")
    reachable = cfg.reachable()
    return [], {b.label: [f"succs {' '.join(cfg.succs(b.label))}" + ("" if b.label in reachable else " (unreachable)")]
                for b in fn.blocks}


def ipdom_lines(fn: Function, analyses: Analyses) -> Notes:
    post = analyses.get("ipdom")
    return [], {b.label: [post.get(b.label) or "none"] for b in fn.blocks}


def divergence_lines(fn: Function, analyses: Analyses) -> Notes:
    div = analyses.get("divergence")
    varying = set(div.varying)
    per_block = {b.label: [f"{'uniform' if div.branch_is_uniform(b.label) else 'divergent'} branch"]
                 for b in fn.blocks if conditional_branch(b) is not None}
    return [f"varying {register_list(varying)}", f"uniform {register_list(registers_named(fn) - varying)}"], per_block


def liveness_lines(fn: Function, analyses: Analyses) -> Notes:
    live = analyses.get("liveness")
    return [], {b.label: [f"in {register_list(live.live_in[b.label])} | out {register_list(live.live_out[b.label])}"]
                for b in fn.blocks}


# analysis name -> its annotation lines for one function
ANNOTATIONS: dict[str, Callable[[Function, Analyses], Notes]] = {
    "cfg": cfg_lines, "ipdom": ipdom_lines, "divergence": divergence_lines, "liveness": liveness_lines}


def format_annotated(module: Module, analyses: dict[str, Analyses], names: list[str],
                     changes: dict[str, list[str]] | None = None) -> str:
    """The module's text with the lines of the analyses `names` (and the changes, when given)."""
    text = format_module(replace(module, functions={}))
    for fn in module.functions.values():
        fn_lines = [f"changed: {' '.join(changes[fn.name]) or '-'}"] if changes is not None else []
        block_lines: dict[str, list[str]] = {b.label: [] for b in fn.blocks}
        for name in names:
            head, per_block = ANNOTATIONS[name](fn, analyses[fn.name])
            fn_lines += [f"{name}: {line}" for line in head]
            for label, lines in per_block.items():
                block_lines[label] += [f"{name}: {line}" for line in lines]
        text += "\n" + annotated_function(fn, fn_lines, block_lines)
    return text


def annotated_function(fn: Function, fn_lines: list[str], block_lines: dict[str, list[str]]) -> str:
    """fn's text with comment lines under its header and under its block labels."""
    header, *rest = format_function(fn).split("\n")
    out = [header] + [f"  // {line}" for line in fn_lines]
    for line in rest:
        out.append(line)
        if line.endswith(":") and not line.startswith(" "):
            out += [f"  // {note}" for note in block_lines.get(line[:-1], [])]
    return "\n".join(out)

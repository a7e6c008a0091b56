"""The import graph of minicuda's own modules, computed from the source: the layering
the design card fixes holds.

- No import cycle between modules (a package's __init__ running first is not an edge).
- The layers point one way: core (ir, isa, diagnostics, semantics, arch, builtins,
  version, sourcefile, cache_entry, timing) <- grammar (the frontend) <- passes <- the driver (compiler, pipeline, cli,
  api, bench); the VM (vm/) stands on core alone: it loads a Module and never
  imports the frontend or the passes.
- Imports are at module top; a function-level import is allowed only for an
  optional extra (a package outside the run-time dependencies), and for the parts of
  minicuda a command loads only when asked for (LAZY_PARTS: `minicuda bench`, and
  the compiler's side, which a `minicuda run` would otherwise pay for at every start:
  a run from the compile cache, minicuda/compile_cache.py, loads none of it; the JIT's
  llvmlite and code generator, which a run on the interpreter never loads and a run from
  the JIT's disk cache loads only in part).
- No private name (`_x`) is imported from another module, nor read through a module
  alias (`S._x`).

The package's `minicuda.compile` is loaded on first use (PEP 562 `__getattr__` in
minicuda/__init__.py), not by an import statement: a program that only runs the VM
never imports the frontend (tests/vm/test_reconvergence_markers.py checks that).
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"minicuda": "minicuda", "grammar": "minicuda.grammar", "passes": "minicuda.passes", "vm": "minicuda.vm"}
CORE = {"minicuda.ir", "minicuda.isa", "minicuda.diagnostics", "minicuda.semantics", "minicuda.arch",
        "minicuda.builtins", "minicuda.version", "minicuda.sourcefile", "minicuda.cache_entry", "minicuda.timing"}
OPTIONAL_EXTRAS = {"pyopencl", "numba", "jinja2", "graphviz", "dask", "distributed", "pyarrow", "pandas",
                   "matplotlib", "networkx",
                   "tomllib", "tomli"}   # minicuda sweep's TOML reader: stdlib from Python 3.11, tomli (the extra) on 3.10
LAZY_PARTS = {"minicuda.bench", "minicuda.sweep", "minicuda.compiler", "minicuda.frontend", "minicuda.pipeline", "minicuda.opt",
              "minicuda.linker", "minicuda.ptxasinfo", "minicuda.grammar", "minicuda.grammar.ast",
              "minicuda.grammar.astdump", "minicuda.passes.dot", "minicuda.passes.regalloc",
              "minicuda.vm.jit.native", "minicuda.vm.jit.module", "minicuda.report.html", "minicuda.report.cfg_svg",
              "minicuda.report.notebook", "minicuda.report.compare"}


def _modules() -> dict[str, Path]:
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package] + parts)] = path
    return out


MODULES = _modules()


def _layer(module: str) -> str:
    if module in CORE:
        return "core"
    for prefix, layer in (("minicuda.grammar", "grammar"), ("minicuda.passes", "passes"), ("minicuda.vm", "vm")):
        if module == prefix or module.startswith(prefix + "."):
            return layer
    if module == "minicuda.frontend":
        return "grammar"
    return "driver"


ALLOWED = {"core": {"core"}, "grammar": {"core", "grammar"}, "passes": {"core", "grammar", "passes"},
           "vm": {"core", "vm"}, "driver": {"core", "grammar", "passes", "vm", "driver"}}


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not MODULES[module].name == "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str):
    """(imported module, names, node, at top level) for every import in `module`."""
    tree = ast.parse(MODULES[module].read_text())
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, [], node, id(node) in top
        elif isinstance(node, ast.ImportFrom):
            yield _resolve(module, node), [a.name for a in node.names], node, id(node) in top


def _own(target: str, names: list[str]) -> list[str]:
    """The minicuda modules an import statement loads (a `from pkg import submodule` counts)."""
    found = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
    if target in MODULES and len(found) < len(names):
        found.append(target)
    return found


def graph() -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(MODULES)
    for module in MODULES:
        for target, names, _, _ in _imports(module):
            for dep in _own(target, names):
                if dep != module:
                    g.add_edge(module, dep)
    return g


def test_no_import_cycle():
    cycles = list(nx.simple_cycles(graph()))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c + c[:1]) for c in cycles[:5])


def test_layers_point_one_way():
    bad = [f"{a} ({_layer(a)}) imports {b} ({_layer(b)})" for a, b in graph().edges
           if _layer(b) not in ALLOWED[_layer(a)]]
    assert not bad, "\n".join(bad)


def test_vm_never_imports_frontend_or_passes():
    bad = [f"{a} imports {b}" for a, b in graph().edges
           if a.startswith("minicuda.vm") and b.startswith(("minicuda.grammar", "minicuda.passes", "minicuda.frontend",
                                                            "minicuda.compiler", "minicuda.pipeline"))]
    assert not bad, "\n".join(bad)


def test_imports_at_module_top():
    bad = []
    for module in MODULES:
        for target, _, node, at_top in _imports(module):
            if at_top or target.split(".")[0] in OPTIONAL_EXTRAS or target in LAZY_PARTS:
                continue
            bad.append(f"{MODULES[module].relative_to(ROOT)}:{node.lineno}: import of {target} inside a function")
    assert not bad, "\n".join(bad)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_private_name_from_another_module():
    """Neither `from m import _x` nor `m._x` through a module alias (`import m as S; S._x`)."""
    bad = []
    for module in MODULES:
        where = MODULES[module].relative_to(ROOT)
        aliases = {}
        for target, names, node, _ in _imports(module):
            if not target.startswith("minicuda"):
                continue
            for a in node.names:
                full = f"{target}.{a.name}" if isinstance(node, ast.ImportFrom) else a.name
                if full in MODULES:
                    aliases[a.asname or a.name] = full
                if isinstance(node, ast.ImportFrom) and _private(a.name):
                    bad.append(f"{where}:{node.lineno}: imports {target}.{a.name}")
        for node in ast.walk(ast.parse(MODULES[module].read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id in aliases and _private(node.attr) and aliases[node.value.id] != module:
                bad.append(f"{where}:{node.lineno}: uses {aliases[node.value.id]}.{node.attr}")
    assert not bad, "\n".join(sorted(set(bad)))


@pytest.mark.parametrize("module", sorted(MODULES))
def test_large_modules_say_why(module):
    """No module over 800 lines without a line in its header saying why."""
    path = MODULES[module]
    lines = path.read_text().splitlines()
    if len(lines) <= 800:
        return
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    assert "over 800 lines" in doc, f"{path.relative_to(ROOT)} has {len(lines)} lines and no header line saying why"

"""`--emit=ast`: the checked AST as an indented tree, in the spirit of clang -ast-dump.

One line per node: its kind, its key attributes, its type (after sema) and its
location `<line:col>`.  Declarations from minicuda's system headers are left out.
The tree is walked on an explicit stack, so any depth of nesting prints.
"""
from __future__ import annotations

from minicuda.grammar import ast as A
from minicuda.grammar.preprocess import is_system_location

_SKIP = {"loc", "ty", "decl", "specs", "declarator", "type_name", "template_params", "params"}


def dump(tu: A.TranslationUnit, include_system: bool = False) -> str:
    out: list[str] = []
    for d in tu.decls:
        if not include_system and is_system_location(d.loc):
            continue
        if isinstance(d, A.FunctionDef) and d.is_template:
            _line(out, 0, d, f"FunctionTemplate {d.name}<{', '.join(p.name for p in d.template_params)}>")
            for inst in tu.instantiations:
                if inst.name == d.name:
                    _node(out, 1, inst)
            continue
        _node(out, 0, d)
    return "\n".join(out) + "\n"


def _line(out, depth, node, text) -> None:
    loc = f" <{node.loc.line}:{node.loc.col}>" if node.loc is not None else ""
    ty = f" '{node.ty}'" if getattr(node, "ty", None) is not None and not isinstance(node, A.FunctionDef) else ""
    out.append("  " * depth + text + ty + loc)


def _node(out, depth, node) -> None:
    """Print node and everything under it, in order."""
    pending = [(depth, node)]
    while pending:
        depth, node = pending.pop()
        pending.extend(reversed(_one_node(out, depth, node)))


def _one_node(out, depth, node) -> list:
    """Print node's own line; the (depth, node) pairs to print under it."""
    kind = type(node).__name__
    if isinstance(node, A.FunctionDef):
        space = " ".join(sorted(node.exec_space))
        name = getattr(node, "instance_name", node.name)
        _line(out, depth, node, f"FunctionDecl {name} '{node.ty}' [{space}]" + (" builtin" if node.is_builtin else ""))
        for p in node.params:
            _line(out, depth + 1, p, f"ParmVarDecl {p.declarator.name or ''}")
        return [(depth + 1, node.body)] if node.body is not None else []
    if isinstance(node, A.Declaration):
        return [(depth, v) for v in node.decls]
    if isinstance(node, A.VarDecl):
        _line(out, depth, node, f"VarDecl {node.name} [{node.space}]")
        return [(depth + 1, node.init)] if node.init is not None else []
    if isinstance(node, A.DeclStmt):
        _line(out, depth, node, "DeclStmt")
        return [(depth + 1, node.declaration)]
    attrs = []
    for name in node.__dataclass_fields__:
        if name in _SKIP:
            continue
        value = getattr(node, name)
        if isinstance(value, (str, int, float, bool, bytes)) and not isinstance(value, A.Node):
            if name in ("text",) and not value:
                continue
            attrs.append(repr(value) if isinstance(value, (str, bytes)) else str(value))
        elif isinstance(value, list) and value and isinstance(value[0], str):
            attrs.append(f"{name}={value}")
    if isinstance(node, (A.Call, A.Launch)) and node.decl is not None:
        attrs.append(f"-> {getattr(node.decl, 'instance_name', node.decl.name)}")
    if isinstance(node, A.Name) and node.decl is not None and hasattr(node.decl, "space"):
        attrs.append(f"[{node.decl.space}]")
    if isinstance(node, A.Cast) and node.implicit:
        kind = "ImplicitCast"
        attrs = []
    _line(out, depth, node, " ".join([kind] + attrs))
    return [(depth + 1, child) for child in node.children()]

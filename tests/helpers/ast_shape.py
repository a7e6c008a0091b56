"""Comparing two ASTs (or parser values) field by field: node classes, fields, lists,
lark Tokens (with where they start and end) and source locations."""
import dataclasses

from lark import Token

from minicuda.diagnostics import SourceLocation


def shape(root) -> list:
    """`root` flattened in pre-order, each node, token and value as a comparable entry
    (on an explicit stack: any depth)."""
    out, stack = [], [root]
    while stack:
        o = stack.pop()
        if isinstance(o, Token):
            out.append(("token", o.type, str(o), o.start_pos, o.line, o.column, o.end_line, o.end_column, o.end_pos))
        elif isinstance(o, (str, int, float, bool, bytes, type(None))):
            out.append(repr(o))
        elif isinstance(o, SourceLocation):
            out.append(("loc", o.file, o.line, o.col, o.length))
        elif dataclasses.is_dataclass(o):
            names = [f.name for f in dataclasses.fields(o)]
            names += sorted(set(getattr(o, "__dict__", {})) - set(names))
            out.append((type(o).__name__, tuple(names)))
            stack.extend(reversed([getattr(o, n) for n in names]))
        elif isinstance(o, (list, tuple)):
            out.append((type(o).__name__, len(o)))
            stack.extend(reversed(o))
        elif isinstance(o, (set, frozenset)):
            out.append(("set", tuple(sorted(map(repr, o)))))
        elif isinstance(o, dict):
            out.append(("dict", tuple(map(repr, o))))
            stack.extend(reversed(list(o.values())))
        else:
            out.append(("object", type(o).__name__, repr(o)))
    return out


def first_difference(a, b) -> str | None:
    """Where the shapes of `a` and `b` first differ (an entry's index and both entries); None when equal."""
    sa, sb = shape(a), shape(b)
    for i, (x, y) in enumerate(zip(sa, sb)):
        if x != y:
            return f"entry {i}: {x!r} != {y!r}"
    return None if len(sa) == len(sb) else f"lengths {len(sa)} != {len(sb)}"

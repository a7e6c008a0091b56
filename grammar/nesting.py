"""Walking trees of any depth without Python's recursion limit.

Two tools, for the two kinds of recursive walk the frontend and the lowering make:

- `run_nested` runs a visitor whose steps are generators on an explicit stack.  A
  step yields the generator of a child's step where it would call itself, and gets
  back what that step returns; an exception in a child's step is raised in its
  parent at the `yield`, so `try`/`finally` and `with` in a step behave as in a call.
  Statements are walked this way: their depth costs no Python frames.
- `deep_first` picks, from the operands under an expression, those `SPAN`, 2*`SPAN`,
  ... levels down, deepest first: a walk that evaluates those early (and remembers
  their results) never recurses more than `SPAN` levels into the expression.
  Expressions are walked this way, so that each node's check or lowering stays an
  ordinary method and the order of evaluation is unchanged.

`TOO_DEEP` is the message for a construct that still exhausts Python's stack.

`bracket_overflow` is the bracket limit (clang's -fbracket-depth, `BRACKET_DEPTH`):
the parser checks the token stream with it before parsing.
"""
from __future__ import annotations

import re
from inspect import isgenerator
from typing import Any, Callable, Generator

from minicuda.diagnostics import DiagnosticEngine
from minicuda.grammar.preprocess import PreprocessedSource

BRACKET_DEPTH = 256   # clang's default for -fbracket-depth
SPAN = 32   # the most levels of an expression a walk recurses through
TOO_DEEP = "the program nests too deeply here for minicuda to compile"


def run_nested(root: Generator) -> Any:
    """The value `root` returns, its nested steps run on an explicit stack."""
    stack = [root]
    sent, thrown = None, None
    while stack:
        step = stack[-1]
        try:
            if thrown is not None:
                error, thrown = thrown, None
                child = step.throw(error)
            else:
                child = step.send(sent)
        except StopIteration as stop:
            stack.pop()
            sent = stop.value
            continue
        except BaseException as error:   # noqa: B036 -- re-raised in the parent step, or here
            stack.pop()
            if not stack:
                raise
            thrown = error
            continue
        stack.append(child)
        sent = None
    return sent


def finish(result) -> Generator:
    """A step's result: a step method written as a generator runs, a plain value is returned."""
    if isgenerator(result):
        return (yield from result)
    return result


def deep_first(root, operands: Callable[[Any], list]) -> tuple[list, list]:
    """(the nodes SPAN, 2*SPAN, ... levels under root through `operands`, deepest first
    and left to right among equals; every node reached, root included)."""
    reached, marked = [], []
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        reached.append(node)
        if depth and depth % SPAN == 0:
            marked.append((depth, node))
        stack.extend((child, depth + 1) for child in reversed(operands(node)))
    marked.sort(key=lambda m: -m[0])
    return [node for _, node in marked], reached


# ---- the bracket limit ---------------------------------------------------------------
_BRACKETS = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\#[^\n]*|(?P<bracket>[(\[{}\])])""",
                       re.S)
_CLOSING = {")": "(", "]": "[", "}": "{"}


def bracket_overflow(text: str, limit: int) -> int | None:
    """The offset of the first bracket that opens more than `limit` brackets of its
    kind ((), [] or {}) inside one another, as clang's BalancedDelimiterTracker counts;
    brackets in comments, strings, characters and directives do not count."""
    depth = {"(": 0, "[": 0, "{": 0}
    for m in _BRACKETS.finditer(text):
        tok = m.group("bracket")
        if tok is None:
            continue
        if tok in depth:
            if depth[tok] >= limit:
                return m.start()
            depth[tok] += 1
        elif depth[_CLOSING[tok]] > 0:
            depth[_CLOSING[tok]] -= 1
    return None


def report_bracket_overflow(pp: PreprocessedSource, diags: DiagnosticEngine, offset: int, limit: int) -> None:
    """clang's fatal error and note at the bracket at `offset` of the preprocessed text."""
    line = pp.text.count("\n", 0, offset) + 1
    col = offset - (pp.text.rfind("\n", 0, offset) + 1) + 1
    loc = pp.locate(line, col, 1)
    diags.fatal_later(f"bracket nesting level exceeded maximum of {limit}", loc)
    diags.note("use -fbracket-depth=N to increase maximum nesting level", loc)

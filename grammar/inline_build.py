"""Building the AST during the LALR parse, without a parse tree.

Lark's tree builder makes a Tree for every reduction, with its position
(`propagate_positions`), and a Transformer then turns that tree into the AST: two
passes over a large tree and most of a parse's time.  `inline_callbacks` makes parser
callbacks that call the same Transformer's methods while the parser reduces, so the
tree is never built.  The methods get exactly what the tree's Transformer would give
them, in the same order (a reduction's order is the tree's post-order):

- children as Lark shapes them: the tokens a rule filters out (anonymous punctuation)
  dropped, an inlined `_rule`'s children spliced in, a `?rule` with one child
  replaced by that child;
- a meta, as `propagate_positions` computes it: from the first to the last child that
  covers text, a child counted with its container (a `?rule` that passes a child on
  widens the child's container to its own tokens: `(a)` covers the parentheses).

The values on the parser's stack are Tokens and `Spanned`s: a reduction's result with
the text it covers (its container: all a parent needs).  A `Spanned` is also the
meta a method gets (`line`, `column`, `end_line`, `end_column`, `empty`).  The
Transformer's methods take `(meta, children)` (`@v_args(meta=True)`) and it has none
for tokens.
"""
from __future__ import annotations

from operator import itemgetter

from lark.parsers.lalr_analysis import Shift


class Spanned:
    """A reduction's value and the text it covers; `empty` when it covers none."""
    __slots__ = ("value", "line", "column", "end_line", "end_column", "empty")

    def __init__(self, value, first, last):
        self.value = value
        if first is None:
            self.empty = True
        else:
            self.empty = False
            self.line, self.column = first.line, first.column
            self.end_line, self.end_column = last.end_line, last.end_column


class NotParsed(Exception):
    """The parser met a token it has no action for: the text has a syntax error."""


def parse_to_end(ip, transformer):
    """The value of the start rule, for an InteractiveParser (`Lark.parse_interactive`)
    run to the end of its text with callbacks calling `transformer`.  Raises NotParsed
    (or the lexer's UnexpectedInput) at the first error, without saying more."""
    state = ip.parser_state
    conf = state.parse_conf
    states, end_state = conf.states, conf.end_state
    callbacks = inline_callbacks({arg for row in states.values() for action, arg in row.values() if action is not Shift},
                                 transformer)
    reductions = {rule: (callback, len(rule.expansion), rule.origin.name) for rule, callback in callbacks.items()}
    stack, values = state.state_stack, state.value_stack   # the contextual lexer reads the state from stack
    token = None
    for token in ip.lexer_thread.lex(state):
        kind = token.type
        while True:
            try:
                action, arg = states[stack[-1]][kind]
            except KeyError:
                raise NotParsed from None
            if action is Shift:
                stack.append(arg)
                values.append(token)
                break
            _reduce(reductions[arg], stack, values, states)
    while True:
        action, arg = _action(states[stack[-1]], "$END")
        if action is Shift:
            raise NotParsed
        _reduce(reductions[arg], stack, values, states)
        if stack[-1] == end_state:
            return values[-1].value


def _reduce(reduction: tuple, stack: list, values: list, states: dict) -> None:
    """One LALR reduction: pop the rule's symbols, push the value its callback builds
    and the state the goto table names."""
    reduce, size, name = reduction
    if size:
        children = values[-size:]
        del stack[-size:]
        del values[-size:]
    else:
        children = []
    values.append(reduce(children))
    stack.append(states[stack[-1]][name][1])


def _action(row: dict, token_type: str) -> tuple:
    try:
        return row[token_type]
    except KeyError:
        raise NotParsed from None


def inline_callbacks(rules, transformer) -> dict:
    """Parser callbacks (rule -> function of the reduced values) building what
    `transformer.transform(tree)` would build from the parse tree."""
    return {rule: _callback(rule, transformer) for rule in rules}


def _callback(rule, transformer):
    name = rule.alias or rule.options.template_source or rule.origin.name
    kept = tuple((i, _spliced(sym)) for i, sym in enumerate(rule.expansion)
                 if rule.options.keep_all_tokens or not (sym.is_term and sym.filter_out))
    pass_single = bool(rule.options.expand1) and not rule.alias
    if pass_single and len(rule.expansion) == 1 and kept == ((0, False),):
        return itemgetter(0)   # a ?rule handing its only child on: its text is the child's
    if name.startswith("_"):
        method = None   # an inlined rule: its parent splices its children in
    else:
        method = getattr(transformer, name, None)
        if method is None:
            method = _default(transformer, name)
    return _reducer(kept, pass_single, method)


def _spliced(sym) -> bool:
    return not sym.is_term and sym.name.startswith("_")


def _default(transformer, name):
    default = transformer.__default__
    return lambda meta, children: default(name, children, meta)


def _reducer(kept, pass_single, method):
    def reduce(values):
        first = last = None
        for v in values:
            if not (type(v) is Spanned and v.empty):
                first = v
                break
        if first is not None:
            for v in reversed(values):
                if not (type(v) is Spanned and v.empty):
                    last = v
                    break
        kids = []   # the children, each a Token or a Spanned
        for i, splice in kept:
            if not splice:
                kids.append(values[i])
            elif kids:
                kids += values[i].value
            else:
                kids = values[i].value   # a left-recursive list grows in place: no copy
        if method is None:
            return Spanned(kids, first, last)
        if pass_single and len(kids) == 1:
            return _passed_on(kids[0], first, last)
        node = Spanned(None, first, last)
        node.value = method(node, [v if type(v) is not Spanned else v.value for v in kids])
        return node
    return reduce


def _passed_on(child, first, last):
    """The one child a ?rule hands on, its container widened to the rule's text."""
    if type(child) is Spanned and first is not None:
        child.line, child.column = first.line, first.column
        child.end_line, child.end_column = last.end_line, last.end_column
        child.empty = False
    return child

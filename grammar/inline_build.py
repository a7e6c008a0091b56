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

from lark import Token
from lark.lexer import PatternStr, UnlessCallback
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


def parse_to_end(ip, transformer, start: tuple[int, int, int] = (0, 1, 0), prefix: bool = False):
    """The value of the start rule, for an InteractiveParser (`Lark.parse_interactive`)
    run to the end of its text with callbacks calling `transformer`.  Raises NotParsed
    (or the lexer's UnexpectedInput) at the first error, without saying more.

    `start`: where the lexer begins, (offset, line, offset of that line's start), for a
    parser whose stacks (and postlexer) hold the state a prefix of the text left
    (grammar/prelude.py).  With `prefix`, the text is such a prefix: the parser stops
    after its last token, before the reductions its end would make, and returns None
    (its state is in `ip.parser_state`'s stacks and in the postlexer)."""
    state = ip.parser_state
    conf = state.parse_conf
    table, rules = _action_table(conf.states)
    callbacks = inline_callbacks(rules, transformer)
    reductions = [(callbacks[rule], len(rule.expansion), rule.origin.name) for rule in rules]
    stack, values = state.state_stack, state.value_stack   # the contextual lexer reads the state from stack
    lexing = ip.lexer_thread.lexer
    passed_on: dict = {}   # (state below, state, token type) -> the state after the ?rules hand the child on
    tokens = _contextual_tokens(lexing.lexer, ip.lexer_thread.state.text.text, stack, *start)
    for token in lexing.postlexer.process(tokens):
        kind = token.type
        while True:
            try:
                action = table[stack[-1]][kind]
            except KeyError:
                raise NotParsed from None
            if action >= 0:
                stack.append(action)
                values.append(token)
                break
            reduce, size, name = reductions[~action]
            if size == 1 and reduce is _PASS_ON:   # a ?rule handing its child on: only the state changes
                key = (stack[-2], stack[-1], kind)
                top = passed_on.get(key)
                if top is None:
                    top = passed_on[key] = _passed_on_state(table, reductions, stack[-2], name, kind)
                stack[-1] = top
                continue
            if size:
                children = values[-size:]
                del stack[-size:]
                del values[-size:]
            else:
                children = []
            values.append(reduce(children))
            stack.append(table[stack[-1]][name])
    if prefix:
        return None
    while True:
        action = _action(table[stack[-1]], "$END")
        if action >= 0:
            raise NotParsed
        _reduce(reductions[~action], stack, values, table)
        if stack[-1] == conf.end_state:
            return values[-1].value


def _passed_on_state(table: dict, reductions: list, below: int, name: str, kind: str) -> int:
    """The state on top of `below` after a child reduced to `name` is handed on by every
    ?rule that hands it on before the token `kind` (`(a)`'s `a` up from primary to expr):
    such reductions change the top state only, by the same steps each time."""
    while True:
        top = table[below][name]
        action = table[top].get(kind)
        if action is None or action >= 0:
            return top
        reduce, size, name = reductions[~action]
        if not (size == 1 and reduce is _PASS_ON):
            return top


_ACTION_TABLES: dict = {}   # id(lark's parse table) -> (that table, its action table, its rules)


def _action_table(states: dict) -> tuple[dict, list]:
    """(state -> symbol -> action, the rules): lark's table with a shift (and a goto) as
    the next state and a reduction by rules[i] as ~i, so that no step hashes a Rule."""
    cached = _ACTION_TABLES.get(id(states))
    if cached is None or cached[0] is not states:
        rules = list({arg for row in states.values() for action, arg in row.values() if action is not Shift})
        index = {rule: i for i, rule in enumerate(rules)}
        table = {state: {symbol: arg if action is Shift else ~index[arg] for symbol, (action, arg) in row.items()}
                 for state, row in states.items()}
        cached = _ACTION_TABLES[id(states)] = (states, table, rules)
    return cached[1], cached[2]


def _contextual_tokens(lexer, text: str, stack: list, pos: int = 0, line: int = 1, line_start: int = 0):
    """The tokens lark's contextual lexer (`lexer`) reads from `text` (from offset `pos`,
    on line `line`, which starts at offset `line_start`), each matched with
    the terminals of the parser's state when it is read (`stack[-1]`), positioned as lark
    positions them; its per-token machinery is left out (a keyword that the identifier
    pattern matched is found by a dict, not by lark's regex).  Raises NotParsed where no
    terminal matches."""
    scanners: dict = {}
    end = len(text)
    while pos < end:
        state = stack[-1]
        try:
            matchers, ignore, newline_types, callbacks, keywords = scanners[state]
        except KeyError:
            scanners[state] = matchers, ignore, newline_types, callbacks, keywords = _state_scanner(lexer, state)
        for match in matchers:
            m = match(text, pos)
            if m is not None:
                break
        else:
            raise NotParsed
        value, kind = m.group(0), m.lastgroup
        start, column = pos, pos - line_start + 1
        token_line = line
        pos = m.end()
        if kind in newline_types:
            newlines = value.count("\n")
            if newlines:
                line += newlines
                line_start = start + value.rindex("\n") + 1
        if kind in ignore:
            if kind in callbacks:
                callbacks[kind](_new_token(kind, value, start, token_line, column, line, pos - line_start + 1, pos))
            continue
        if kind in keywords:
            kind = keywords[kind].get(value, kind)
        elif kind in callbacks:
            yield callbacks[kind](_new_token(kind, value, start, token_line, column, line, pos - line_start + 1, pos))
            continue
        yield _new_token(kind, value, start, token_line, column, line, pos - line_start + 1, pos)


def _state_scanner(lexer, state) -> tuple:
    """(matchers, ignored types, types that may hold a newline, callbacks, keywords) of the
    contextual lexer's scanner for parser state `state`; keywords: type -> {text: the
    keyword's type} for each lark "unless" callback (a terminal whose pattern also matches
    keywords: lark retypes such a token by matching its text against them), which then
    leaves `callbacks`."""
    basic = lexer.lexers[state]
    matchers = tuple(mre.match for mre in basic.scanner._mres)
    callbacks, keywords = dict(basic.callback), {}
    for kind, callback in basic.callback.items():
        if type(callback) is UnlessCallback and all(not t.pattern.flags and isinstance(t.pattern, PatternStr)
                                                    for t in callback.scanner.terminals):
            keywords[kind] = {t.pattern.value: t.name for t in callback.scanner.terminals}
            del callbacks[kind]
    return matchers, basic.ignore_types, basic.newline_types, callbacks, keywords


def _reduce(reduction: tuple, stack: list, values: list, table: dict) -> None:
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
    stack.append(table[stack[-1]][name])


def _action(row: dict, token_type: str) -> int:
    try:
        return row[token_type]
    except KeyError:
        raise NotParsed from None


_PASS_ON = itemgetter(0)
_new_token = Token._future_new   # Token(...) without its check for deprecated keywords


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
        return _PASS_ON   # a ?rule handing its only child on: its text is the child's
    if name.startswith("_"):
        method = None   # an inlined rule: its parent splices its children in
    else:
        method = getattr(transformer, name, None)
        if method is None:
            method = _default(transformer, name)
        method = getattr(method, "base_func", method)   # a v_args method, called without lark's wrapper
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

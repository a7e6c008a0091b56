"""Parsing: preprocessed mini-CUDA text -> AST (grammar/ast.py).

C needs to know which identifiers name types (`a * b;` declares b when `a` is a
typedef) and C++ which name templates (`f<3>(x)`).  Before parsing, `scan_names`
walks a light token stream and collects typedef names, struct tags, template type
parameters and template function names; while parsing, `_Retagger` (a Lark postlex
stage) turns those IDENT tokens into TYPE_NAME / TEMPLATE_NAME.

The AST is built while the LALR parser reduces (grammar/inline_build.py calls
`_ToAST`'s methods), without a parse tree.  A program with an error is parsed
again to a parse tree (with positions), which `_ToAST` transforms into the same
AST, and whose parser state the error messages read.

Syntax errors become clang-shaped diagnostics at the offending token.  After an
error the parser blanks the top-level declaration that held it and parses again, so
one run reports the first error of every broken declaration.

It is over 800 lines because `_ToAST` (a method per rule of minicuda.lark) and the
syntax-error messages (which read the parser's state) must agree with the grammar.
"""
from __future__ import annotations

import ast as pyast
import os
import pickle
import re
from functools import lru_cache

from lark import Lark, Token, Transformer_NonRecursive, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from minicuda.diagnostics import DiagnosticEngine, SourceLocation
from minicuda.grammar import ast as A
from minicuda.grammar.collector import collector_paused
from minicuda.grammar.inline_build import NotParsed, parse_to_end
from minicuda.grammar.nesting import BRACKET_DEPTH, bracket_overflow, report_bracket_overflow
from minicuda.grammar.prelude import PRELUDES, Prelude, freeze
from minicuda.grammar.preprocess import PreprocessedSource
from minicuda.grammar.stdnames import std_bodies, std_errors

GRAMMAR_PATH = os.path.join(os.path.dirname(__file__), "minicuda.lark")

# ---- the name pre-pass ---------------------------------------------------------------
_SCAN = re.compile(r"""
    (?P<skip>//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\#[^\n]*|\s+
            |__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)|alignas\s*\(\s*\d+\s*\))
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<num>\.?\d[\w.]*)
  | (?P<punct>->|::|<<|>>|.)
""", re.X | re.S)


def _scan_tokens(text: str) -> tuple[list[str], list[int]]:
    """(the tokens' texts, their offsets): two flat lists, no pair per token (strings and
    ints are nothing the cycle collector walks; a million pairs were)."""
    toks: list[str] = []
    offsets: list[int] = []
    for m in _SCAN.finditer(text):
        if m.lastgroup != "skip":
            toks.append(m.group())
            offsets.append(m.start())
    return toks, offsets


# a bundled header's namespace whose function templates are named by their qualified names, as std's
# are (cg::sync and cg::reduce are not a program's own sync or reduce)
HEADER_NAMESPACE = "cooperative_groups"


def scan_names(text: str, scanned: tuple[list[str], list[int]] | None = None) -> tuple[set[str], set[str], set[int], set[int], set[int]]:
    """(type names, template names, offsets where such a name is being declared, offsets
    of type names that qualify a member: `Foo` in `Foo::get`, and of the class templates
    that qualify a member type: `Foo` in `Foo<int>::iterator`).  A template namespace std
    declares is named `std::name` in the template names: a program's own `swap` is not it.
    `scanned`: `_scan_tokens(text)` when the caller has it already."""
    toks, offsets = scanned or _scan_tokens(text)
    types: set[str] = set()
    templates: set[str] = set()
    declaring: set[int] = set()
    n = len(toks)
    classes = _class_bodies(toks)
    scopes: set[int] = set()
    in_std = in_cg = None
    type_scopes: set[int] = set()
    for i, t in enumerate(toks):
        if t in ("struct", "union", "class") and i + 1 < n and _is_ident(toks[i + 1]):
            if not (i > 0 and toks[i - 1] in ("<", ",") and _in_template_header(toks, i)):
                types.add(toks[_last_of_qualified(toks, i + 1)])
        elif t == "enum" and i + 1 < n:
            j = i + 2 if toks[i + 1] in ("class", "struct") else i + 1
            if j < n and _is_ident(toks[j]):
                types.add(toks[_last_of_qualified(toks, j)])
        elif t == "using" and i + 2 < n and toks[i + 2] == "=" and _is_ident(toks[i + 1]):
            types.add(toks[i + 1])
            declaring.add(offsets[i + 1])
        elif t == "typedef":
            for j in _typedef_names(toks, i + 1):
                types.add(toks[j])
                declaring.add(offsets[j])
        elif t == "::" and i > 0 and toks[i - 1] in types:
            scopes.add(offsets[i - 1])
        elif t == "::" and i > 0 and toks[i - 1] == ">" and (k := _template_open(toks, i - 1)) is not None \
                and toks[k] in types:   # Foo<T>::get
            (type_scopes if i + 1 < n and toks[i + 1] in types else scopes).add(offsets[k])
        elif _names_special_member(toks, i, classes):
            declaring.add(offsets[i])
        elif t == "template" and i + 1 < n and toks[i + 1] == "<":
            j, depth = i + 1, 0
            while j < n:
                if toks[j] == "<":
                    depth += 1
                elif toks[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                elif toks[j] in ("typename", "class") and j + 1 < n and _is_ident(toks[j + 1]):
                    types.add(toks[j + 1])
                j += 1
            while j < n and toks[j] not in (";", "{"):
                if _is_ident(toks[j]) and toks[j] != "__launch_bounds__" and j + 1 < n and toks[j + 1] == "(":
                    if toks[j - 1] != "::":   # not a class template's member: `T Foo<T>::get()`
                        in_std = std_bodies(toks) if in_std is None else in_std
                        in_cg = std_bodies(toks, HEADER_NAMESPACE) if in_cg is None else in_cg
                        templates.add(("std::" if in_std[j] else HEADER_NAMESPACE + "::" if in_cg[j] else "") + toks[j])
                    declaring.add(offsets[j])
                    break
                j += 1
    declaring.update(offsets[i] for i in _declared_like_templates(toks, types, templates))
    return types, templates, declaring, scopes, type_scopes


def _declared_like_templates(toks: list[str], types: set[str], templates: set[str]):
    """Indices where a variable, member or function that has a template's name is declared
    (`int size() const` in a class, when the program also has a `size` template): after a
    type, or a type's `*` or `&`, and before `(`, `;`, `=`, `[`, `,` or `)`."""
    for i in range(1, len(toks) - 1):
        if toks[i] in templates and toks[i + 1] in _AFTER_DECLARED:
            before = i - 2 if toks[i - 1] in ("*", "&") and i > 1 else i - 1
            if toks[before] in types or toks[before] in _TYPE_WORDS:
                yield i


_AFTER_DECLARED = frozenset("( ; = [ , )".split())


def header_names(text: str, system_lines: frozenset[int], scan=_scan_tokens) -> tuple[set[str], set[str]]:
    """(type names, template names) that minicuda's own headers declare: the only ones a
    header's text sees, so a program's own `get` or `size` template leaves the headers' `get`
    and `size` members alone.  `scan`: `_scan_tokens`, or what gives its tokens faster."""
    if not system_lines:
        return set(), set()
    lines = text.split("\n")
    header_text = "\n".join(line if i in system_lines else "" for i, line in enumerate(lines, 1))
    types, templates, *_ = scan_names(header_text, scan(header_text))
    return types, templates


_TYPE_WORDS = frozenset("void char short int long float double signed unsigned bool auto const volatile".split())


def declarator_parens(text: str, types: set[str], scanned: tuple[list[str], list[int]] | None = None) -> set[int]:
    """Offsets of the `(` that open a parenthesised declarator: after a type, `(` then
    `*` or `&` (a name, array bounds or parameters) `)` and then `(` or `[`, as in `int (*cmp)(int)`,
    `float (&a)[N]`, `void (*table[3])(int)` and the abstract `float (*)(float)`.  An
    expression never has that shape after a type (`float(*p)` is followed by no `(`)."""
    toks, offsets = scanned or _scan_tokens(text)
    found: set[int] = set()
    for i in range(1, len(toks) - 3):
        if toks[i] != "(" or toks[i + 1] not in ("*", "&") or not (toks[i - 1] in _TYPE_WORDS or toks[i - 1] in types):
            continue
        j = i + 1
        while j < len(toks) and toks[j] in ("*", "&", "const", "volatile", "__restrict__"):
            j += 1
        if j < len(toks) and _is_ident(toks[j]) and toks[j] not in _KEYWORDS:
            j += 1
        while j < len(toks) and toks[j] in ("[", "("):   # `[3]` of an array of pointers; `(int)` of a function
            j = _after_group(toks, j)
        if j + 1 < len(toks) and toks[j] == ")" and toks[j + 1] in ("(", "["):
            found.add(offsets[i])
    return found


def _after_group(toks: list[str], j: int) -> int:
    """The index after the bracketed group opening at toks[j]."""
    depth = 0
    while j < len(toks):
        depth += toks[j] in ("(", "[")
        depth -= toks[j] in (")", "]")
        j += 1
        if depth == 0:
            break
    return j


def _class_bodies(toks: list[str]) -> dict[int, str]:
    """For each token directly inside a class body (not nested in braces), the class's name."""
    inside: dict[int, str] = {}
    stack: list[str | None] = []     # per open brace: the class whose body it opens, or None
    pending = None
    for i, t in enumerate(toks):
        if t in ("struct", "union", "class") and i + 1 < len(toks) and _is_ident(toks[i + 1]):
            pending = toks[i + 1]
        elif t == ";":
            pending = None
        elif t == "{":
            stack.append(pending)
            pending = None
        elif t == "}":
            if stack:
                stack.pop()
        elif stack and stack[-1] is not None:
            inside[i] = stack[-1]
    return inside


_MEMBER_START = {"{", ";", "}", ":", "__host__", "__device__", "inline", "explicit", "__forceinline__", "constexpr",
                 "mutable"}


def _names_special_member(toks: list[str], i: int, classes: dict[int, str]) -> bool:
    """Whether toks[i] names a constructor or destructor where it is declared: `~Foo`,
    `Foo::Foo`, or the class's name opening a member in its own body (`Foo(int a)`)."""
    t = toks[i]
    if not _is_ident(t) or i == 0:
        return False
    before = toks[i - 1]
    if before == "~" and (classes.get(i) == t or (i >= 3 and toks[i - 2] == "::" and toks[i - 3] == t)):
        return True
    if before == "::" and i >= 2 and (toks[i - 2] == t or (toks[i - 2] == ">" and _template_named(toks, i - 2) == t)):
        return True
    return classes.get(i) == t and i + 1 < len(toks) and toks[i + 1] == "(" and before in _MEMBER_START


def _template_named(toks: list[str], close: int) -> str | None:
    """The name before the template argument list that toks[close] (a `>`) closes."""
    k = _template_open(toks, close)
    return toks[k] if k is not None else None


def _template_open(toks: list[str], close: int) -> int | None:
    """The index of the name before the template argument list that toks[close] (a `>`) closes."""
    depth = 0
    for j in range(close, 0, -1):
        if toks[j] in (">", ">>"):
            depth += len(toks[j])
        elif toks[j] == "<":
            depth -= 1
            if depth == 0:
                return j - 1
        elif toks[j] in (";", "{", "}"):
            return None
    return None


def _last_of_qualified(toks: list[str], i: int) -> int:
    """The index of the last name of the qualified name starting at toks[i] (`ns::S`: S)."""
    while i + 2 < len(toks) and toks[i + 1] == "::" and _is_ident(toks[i + 2]):
        i += 2
    return i


def _in_template_header(toks: list[str], i: int) -> bool:
    depth = 0
    for j in range(i - 1, -1, -1):
        if toks[j] == ">":
            depth += 1
        elif toks[j] == "<":
            if depth == 0:
                return j > 0 and toks[j - 1] == "template"
            depth -= 1
        elif toks[j] in (";", "{", "}"):
            return False
    return False


def _typedef_names(toks: list[str], start: int) -> list[int]:
    """Indices of the names a typedef starting at toks[start] declares: not the parameters
    of a function type (`typedef void (*F)(int count, float *data);` declares F alone)."""
    names, depth, j = [], 0, start
    parens: list[bool] = []   # per open parenthesis: does it hold a parameter list?
    typed = False             # has the declared type been named yet (`typedef real (*fn)(real)`)
    while j < len(toks):
        t = toks[j]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif depth == 0 and t == ";":
            break
        elif t == "(":
            parens.append(j + 1 < len(toks) and toks[j + 1] not in ("*", "&", "("))
        elif t == ")" and parens:
            parens.pop()
        elif depth == 0 and not any(parens) and _is_ident(t) and j + 1 < len(toks):
            nxt = toks[j + 1]
            if nxt in (";", ",", "[") or (nxt == ")" and toks[j - 1] == "*") \
                    or (nxt == "(" and typed and t not in _NOT_DECLARATORS):   # typedef void handler(int code);
                names.append(j)
            typed = True
        elif depth == 0 and not parens and t in _TYPE_WORDS and t not in ("const", "volatile"):
            typed = True
        j += 1
    return names


# names a `(` follows in a typedef that are not the function type's name
_NOT_DECLARATORS = frozenset(("__attribute__", "__declspec", "alignas", "__align__", "__typeof__", "typeof",
                              "__launch_bounds__", "noexcept"))


_KEYWORDS = frozenset("""typedef extern static inline const volatile void char short int long float double
signed unsigned bool struct union class if else for while do switch case default break continue
return sizeof template typename true false __global__ __device__ __host__ __shared__ __constant__
__restrict__ register this public private protected operator enum namespace using new delete auto nullptr
decltype static_assert static_cast reinterpret_cast const_cast dynamic_cast constexpr""".split())


def _is_ident(t: str) -> bool:
    return (t[0].isalpha() or t[0] == "_") and t not in _KEYWORDS


# ---- Lark ------------------------------------------------------------------------------
class _Retagger:
    """Postlex stage: IDENT -> TYPE_NAME / TEMPLATE_NAME, and remembers recent tokens."""
    always_accept = ("IDENT", "SCOPED_NAME", "LBRACE", "LPAR")

    def __init__(self) -> None:
        self.types: set[str] = set()
        self.templates: set[str] = set()
        self.declaring: set[int] = set()
        self.scopes: set[int] = set()
        self.type_scopes: set[int] = set()
        self.decl_parens: set[int] = set()
        self.prev: Token | None = None
        self.last: Token | None = None
        self.shift_right = ""   # the grammar's name for the `>>` token (set once the grammar is built)
        self.system_lines: frozenset[int] = frozenset()   # the lines of minicuda's own headers
        self.header_types: set[str] = set()   # the type and template names those headers declare
        self.header_templates: set[str] = set()
        self.resumed: dict | None = None   # the state the next `process` starts from (`state()`), else a fresh one

    # what `process` keeps as it goes: with the parser's stacks, the state a prefix of the text leaves
    STATE = ("prev", "last", "angles", "brackets", "closed_args", "aliases", "braces", "alias_name", "alias_target",
             "used", "before_args", "args_in_parens")

    def state(self) -> dict:
        return {name: getattr(self, name, None) for name in self.STATE}

    def process(self, stream):
        if self.resumed is not None:
            self.__dict__.update(self.resumed)
            self.resumed = None
        else:
            self.angles: list[tuple] = []   # per open template argument list: the bracket depth it opened at, the token before its name
            self.brackets = 0
            self.closed_args: Token | None = None   # the `>` that closed a class template's arguments
            self.aliases: list[tuple[int, str, str]] = []   # namespace aliases in force: (brace depth, alias, target)
            self.braces, self.alias_name, self.alias_target = 0, None, None
            self.used: list[tuple[int, str]] = []   # namespaces of using-directives in force: (brace depth, namespace)
        for tok in stream:
            kind = tok.type
            if kind in _ALIAS_TYPES or tok.value in _BRACES or self.alias_name is not None:   # (others change nothing)
                self._follow_aliases(tok)
            if kind == "SCOPED_NAME":
                *head, tok = [self._unalias(t) for t in self._scoped(tok)]
                yield from head
                kind = tok.type
            while tok.value in (">>", ">>>") and self.angles and self.angles[-1][0] == self.brackets:
                first = _token_at(tok, "MORETHAN", ">", 0)
                self._angle(first)
                self.prev, self.last = self.last, first
                yield first
                rest = tok.value[1:]
                tok = _token_at(tok, "MORETHAN" if rest == ">" else self.shift_right, rest, 1)
                kind = tok.type
            if kind in _ANGLE_TYPES or tok.value in _BRACKETS:   # (others change nothing)
                self._angle(tok)
            if kind == "IDENT":
                at = tok.start_pos
                if at not in self.declaring:
                    value = tok.value
                    types, templates = self._names(tok)
                    if at in self.scopes:
                        tok = _retagged(tok, "SCOPE_NAME")
                    elif at in self.type_scopes:
                        tok = _retagged(tok, "TYPE_SCOPE")
                    elif (value in templates or (self.used and self._used_template(value))) and not self._names_member():
                        tok = _retagged(tok, "TEMPLATE_NAME")
                    elif value in types:
                        tok = _retagged(tok, "TYPE_NAME")
            elif kind == "LBRACE" and self._opens_brace_init():
                tok = _retagged(tok, "INIT_BRACE")
            elif kind == "LPAR" and tok.start_pos in self.decl_parens:
                tok = _retagged(tok, "DECL_PAREN")
            self.prev, self.last = self.last, tok
            yield tok

    def _follow_aliases(self, tok: Token) -> None:
        """Note `namespace x = y;` (in force to the end of its block) and leave the blocks that end."""
        if tok.value == "{":
            self.braces += 1
        elif tok.value == "}":
            self.braces -= 1
            while self.aliases and self.aliases[-1][0] > self.braces:
                self.aliases.pop()
            while self.used and self.used[-1][0] > self.braces:
                self.used.pop()
        elif tok.type == "IDENT" and self.prev is not None and self.prev.value == "using" \
                and self.last is not None and self.last.type == "NAMESPACE":
            self.used.append((self.braces, self._unalias(tok).value))
        elif tok.type == "EQUAL" and self.prev is not None and self.prev.type == "NAMESPACE" \
                and self.last is not None and self.last.type == "IDENT":
            self.alias_name = self.last.value
        elif self.alias_name is not None and tok.type in ("IDENT", "SCOPED_NAME"):
            self.alias_target = self._unalias(Token.new_borrow_pos("IDENT", _SPACES.sub("", tok.value), tok)).value
        elif self.alias_name is not None and tok.value == ";":
            if self.alias_target is not None:
                self.aliases.append((self.braces, self.alias_name, self.alias_target))
            self.alias_name = self.alias_target = None

    def _used_template(self, name: str) -> bool:
        """Whether `name` is a function template of a namespace a using-directive in force names."""
        after_member = self.last is not None and self.last.value in (".", "->")   # g.sync() is g's own
        return not after_member and any(f"{ns}::{name}" in self.templates for _, ns in self.used)

    def _unalias(self, tok: Token) -> Token:
        """`x::m` as `y::m` where `namespace x = y;` is in force (the token keeps its place)."""
        head, sep, rest = _SPACES.sub("", tok.value).partition("::")
        for _, alias, target in reversed(self.aliases):
            if alias == head:
                return Token.new_borrow_pos(tok.type, target + sep + rest, tok)
        return tok

    def _angle(self, tok: Token) -> None:
        """Follow template argument lists: `<` after a type or template name opens one, the
        `>` at its bracket depth closes it (`>>` closes two: process splits it)."""
        if tok.type == "LESSTHAN" and self.last is not None and self.last.type in ("TYPE_NAME", "TEMPLATE_NAME", "SCOPE_NAME", "TYPE_SCOPE"):
            self.angles.append((self.brackets, self.prev.value if self.prev is not None else None))
        elif tok.value in ("(", "["):
            self.brackets += 1
        elif tok.value in (")", "]"):
            self.brackets -= 1
        elif tok.type == "MORETHAN" and self.angles and self.angles[-1][0] == self.brackets:
            depth, self.before_args = self.angles.pop()
            self.closed_args, self.args_in_parens = tok, depth > 0

    def _names_member(self) -> bool:
        """Whether the next name is a member's, after `.` or `->` (`v.begin()` when the program
        has a `begin` template of its own)."""
        return self.last is not None and self.last.value in (".", "->")

    def _names(self, tok: Token) -> tuple[set[str], set[str]]:
        """The (type, template) names `tok` sees: a line of minicuda's headers sees only what
        the headers declare (they name nothing of the program's, as libstdc++'s do not)."""
        if tok.line in self.system_lines:
            return self.header_types, self.header_templates
        return self.types, self.templates

    def _scoped(self, tok: Token) -> list[Token]:
        """The tokens a qualified name `x::y` stands for: `Foo::get` of a class is SCOPE_NAME, SCOPE_SEP and the member's IDENT
        (retagged by its own position, so `Foo::Foo` stays a constructor's name); any other
        is one name that names what its last part names (a namespace's member, an enumerator)."""
        value = _SPACES.sub("", tok.value)
        types, templates = self._names(tok)
        if value.startswith("::") and self.last is not None and self.last is self.closed_args:   # Foo<int>::get
            at = tok.value.rindex(value[2:])
            member = "TYPE_NAME" if value[2:] in types else "IDENT"   # Foo<int>::iterator
            return [_token_at(tok, "SCOPE_SEP", "::", tok.value.index("::")), _token_at(tok, member, value[2:], at)]
        scope, _, last = value.rpartition("::")
        if scope and tok.start_pos + tok.value.rindex(last) in self.scopes:   # ns::Foo<int>::get
            return [Token.new_borrow_pos("SCOPE_NAME", value, tok)]
        if scope and tok.start_pos + tok.value.rindex(last) in self.type_scopes:   # std::vector<int>::iterator
            return [Token.new_borrow_pos("TYPE_SCOPE", value, tok)]
        if tok.start_pos in self.scopes and "::" not in scope and scope and (last not in types or last == scope):
            at = tok.value.rindex(last)
            sep = tok.value.index("::")
            return [Token.new_borrow_pos("SCOPE_NAME", scope, tok),
                    _token_at(tok, "SCOPE_SEP", "::", sep), _token_at(tok, "IDENT", last, at)]
        if last in templates or (value.startswith("std::") and "std::" + last in templates) \
                or self._unalias(Token.new_borrow_pos("IDENT", value, tok)).value in templates:
            return [Token.new_borrow_pos("TEMPLATE_NAME", value, tok)]
        if last in types:
            return [Token.new_borrow_pos("TYPE_NAME", value, tok)]
        return [Token.new_borrow_pos("IDENT", value, tok)]

    def _opens_brace_init(self) -> bool:
        """`{` right after a declared name (`Foo x{1, 2}`) or a type (`Foo{1, 2}`) opens an
        initialiser, unless it opens a class, enum or namespace body."""
        last, prev = self.last, self.prev
        if last is not None and last is self.closed_args:   # Box<float>{1.5f}, not `struct Box<float> {`
            in_range_for = self.before_args == ":" and self.args_in_parens   # for (auto &s : vector<string>{"x"})
            return self.before_args not in _BODY_OPENERS or in_range_for
        if last is None or last.type not in ("IDENT", "TYPE_NAME"):
            return False
        if prev is not None and prev.value == ":" and last.type == "IDENT":   # Q() : member{1, 2}, not `: Base {`
            return True
        return prev is None or (prev.value not in _BODY_OPENERS and prev.type != "ALIGNED")   # struct __align__(8) X {


_SPACES = re.compile(r"\s+")
# the tokens `_follow_aliases` acts on (any token after a `namespace x =`), and those `_angle` acts on
_ALIAS_TYPES, _BRACES = frozenset({"IDENT", "EQUAL"}), frozenset({"{", "}"})
_ANGLE_TYPES, _BRACKETS = frozenset({"LESSTHAN", "MORETHAN"}), frozenset({"(", "[", ")", "]"})


def _retagged(tok: Token, type_: str) -> Token:
    """`tok` as a token of type `type_` (Token.new_borrow_pos without its class-method call)."""
    return _new_token(type_, tok.value, tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column, tok.end_pos)


_new_token = Token._future_new


def _token_at(tok: Token, type_: str, value: str, offset: int) -> Token:
    """A token for the part of `tok` at `offset` in its text (on the token's line)."""
    return Token(type_, value, tok.start_pos + offset, tok.line, tok.column + offset, tok.line,
                 tok.column + offset + len(value), tok.start_pos + offset + len(value))


_BODY_OPENERS = {"struct", "class", "union", "enum", "namespace", "public", "private", "protected", ":"}


@lru_cache(maxsize=1)
def _lark() -> tuple[Lark, _Retagger]:
    retagger = _Retagger()
    with open(GRAMMAR_PATH) as f:
        grammar = f.read()
    parser = Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True,
                  postlex=retagger, maybe_placeholders=False, cache=True)
    retagger.shift_right = next(t.name for t in parser.terminals if t.pattern.value == ">>")
    return parser, retagger


# ---- error messages -------------------------------------------------------------------
_TOKEN_TEXT = {
    "SEMICOLON": "';'", "RPAR": "')'", "RBRACE": "'}'", "RSQB": "']'", "LPAR": "'('",
    "LBRACE": "'{'", "COLON": "':'", "MORETHAN": "'>'", "COMMA": "','", "LAUNCH_CLOSE": "'>>>'",
    "WHILE": "'while'", "IDENT": "identifier",
}
# tokens that can start an expression but never continue one
_EXPR_START = {"IDENT", "INT_LIT", "FLOAT_LIT", "CHAR_LIT", "STRING_LIT", "TRUE_KW", "FALSE_KW",
               "BANG", "TILDE", "SIZEOF"}


def _describe(tok: Token) -> str:
    return "end of file" if tok.type == "$END" else f"'{tok.value}'"


def _statement_context(ip) -> str:
    """Which kind of statement the parser was in when it wanted a ';'."""
    for item in reversed(ip.parser_state.value_stack):
        if isinstance(item, Token):
            if item.type in ("SEMICOLON", "LBRACE", "RBRACE"):
                break
            if item.type == "RETURN":
                return "after return statement"
            if item.type == "FOR":
                return "in 'for' statement specifier"
            if item.type == "BREAK":
                return "after break statement"
            if item.type == "CONTINUE":
                return "after continue statement"
            if item.type == "WHILE" and any(isinstance(v, Token) and v.type == "DO" for v in ip.parser_state.value_stack):
                return "after do/while statement"
        elif isinstance(item, Tree):
            if item.data in ("decl_specs", "struct_def"):
                return "at end of declaration"
    return "after expression"


def _syntax_message(e: UnexpectedToken, prev: Token | None) -> tuple[str, Token | None, bool]:
    """(message, token to point at, point just after it?)

    LALR merges look-aheads of states that share a core, so `e.expected` can name
    tokens that are not acceptable here; `accepts()` replays the parser to find the
    ones that truly are."""
    if (unsupported := _unsupported_construct(e, prev)) is not None:
        return unsupported, e.token, False
    if prev is not None and prev.type == "IDENT" and prev.value == "friend":   # `friend std::ostream &operator<<(...)`
        return "friend declarations are not supported", prev, False
    if prev is not None and prev.type == "IDENT" and prev.value == "using":   # `template <...> using V = ...;`
        return "alias templates are not supported", prev, False
    try:
        expected = set(e.interactive_parser.accepts())
    except Exception:
        expected = set(e.expected)
    tok = e.token
    at_expression_end = not expected & _EXPR_START
    if tok.type == "RBRACE" and "RBRACE" not in expected and _at_top_level(e.interactive_parser):
        return "extraneous closing brace ('}')", tok, False
    if expected == {"LPAR"} and prev is not None and prev.type in ("IF", "WHILE", "FOR", "SWITCH"):
        return f"expected '(' after '{prev.value}'", tok, False
    if "SEMICOLON" in expected and at_expression_end and tok.type != "SEMICOLON":
        ctx = _statement_context(e.interactive_parser)
        if tok.type in ("RPAR", "RSQB") and ctx == "after expression":
            return f"extraneous {_describe(tok)} before ';'", tok, False
        if ctx == "at end of declaration" and _after_struct_body(e.interactive_parser):
            return "expected ';' after struct", prev, True
        return f"expected ';' {ctx}", prev, True
    if "RPAR" in expected and at_expression_end and tok.type != "$END":
        return "expected ')'", tok, False
    if "RSQB" in expected and at_expression_end and tok.type != "$END":
        return "expected ']'", tok, False
    if tok.type == "$END":
        if "RBRACE" in expected:
            return "expected '}'", prev, True
        return "unexpected end of file", prev, True
    if expected & _EXPR_START and tok.type not in _EXPR_START:
        return "expected expression", tok, False
    if "IDENT" in expected and tok.type != "IDENT":
        if "LPAR" in expected:
            return "expected identifier or '('", tok, False
        return "expected identifier", tok, False
    named = [v for k, v in _TOKEN_TEXT.items() if k in expected]
    if len(named) == 1:
        return f"expected {named[0]}", tok, False
    return f"unexpected {_describe(tok)}", tok, False


def _unsupported_construct(e: UnexpectedToken, prev: Token | None) -> str | None:
    """C++ that minicuda does not parse, named where the parser stops at it."""
    kind, before = e.token.type, prev.type if prev is not None else None
    stack = e.interactive_parser.parser_state.value_stack
    if e.token.value == "{" and before == "COLON" and len(stack) >= 5 and isinstance(stack[-4], Token) \
            and stack[-4].value == "(" and isinstance(stack[-5], Token) and stack[-5].value == "for":
        return "range-based 'for' over a braced list is not supported"
    if kind == "LSQB" and before == "AUTO_KW":
        return "structured bindings are not supported"
    if any(len(stack) >= n and isinstance(stack[-n], Token) and stack[-n].type == "NEW" and
           isinstance(stack[-n + 1], Token) and stack[-n + 1].type == "LPAR" for n in (2, 3)):
        return "new of a parenthesised type is not supported"   # `new (int)`; `new (p) T` is placement new
    if e.token.value == "using" and before == "MORETHAN":   # lexed as a name there
        return "alias templates are not supported"
    return None


def _at_top_level(ip) -> bool:
    return not any(isinstance(v, Token) and v.type == "LBRACE" for v in ip.parser_state.value_stack)


def _after_struct_body(ip) -> bool:
    stack = ip.parser_state.value_stack
    return bool(stack) and isinstance(stack[-1], Tree) and stack[-1].data == "decl_specs" and \
        any(isinstance(c, Tree) and c.data == "type_spec" and c.children and isinstance(c.children[0], Tree)
            and c.children[0].data == "struct_def" for c in stack[-1].children)


class _Located(Exception):
    def __init__(self, message: str, line: int, col: int, length: int = 1):
        self.message, self.line, self.col, self.length = message, line, col, length


def _locate_error(e: UnexpectedInput, retagger: _Retagger, text: str) -> _Located:
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        if ch in "\"'":
            return _Located(f"missing terminating {ch} character", e.line, e.column)
        return _Located(f"unexpected character '{ch}'", e.line, e.column)
    assert isinstance(e, UnexpectedToken)
    prev = retagger.prev if retagger.last is e.token else retagger.last
    msg, at, after = _syntax_message(e, prev)
    if at is None or at.type == "$END" or getattr(at, "line", None) is None:
        at = prev
    if at is None:
        return _Located(msg, 1, 1)
    if after:
        return _Located(msg, at.end_line or at.line, (at.end_column or at.column + len(at.value)), 1)
    return _Located(msg, at.line, at.column, max(1, len(str(at.value))))


# ---- entry point ---------------------------------------------------------------------
def parse(pp: PreprocessedSource, diags: DiagnosticEngine, bracket_depth: int = BRACKET_DEPTH,
          build_inline: bool = True) -> A.TranslationUnit | None:
    """Parse preprocessed text, reporting syntax errors and brackets over `bracket_depth` to `diags`.

    A top-level declaration with a syntax error is left out of the tree; the names
    it mentions are listed in `tu.poisoned` so later stages stay quiet about them.
    The AST is built while parsing (`build_inline`); a program with an error, or any
    with `build_inline=False`, is parsed to a parse tree, which the Transformer turns
    into the same AST, and the errors are reported from there.
    """
    if (overflow := bracket_overflow(pp.text, bracket_depth)) is not None:
        return report_bracket_overflow(pp, diags, overflow, bracket_depth)
    parser, retagger = _lark()
    text = pp.text
    prelude = PRELUDES.get(pp, lambda head: _parse_prelude(parser, retagger, head)) if build_inline else None
    scanned = prelude.tokens_with(text, _scan_tokens) if prelude else _scan_tokens(text)   # one tokenisation for both pre-passes
    names = _name_sets(text, scanned, pp.system_lines(), prelude)
    _set_names(retagger, names)
    retagger.system_lines = pp.system_lines()
    del scanned
    poisoned: set[str] = set()
    text = _blank_std_errors(pp, text, diags, poisoned)
    if text is not pp.text:
        build_inline = False
    if prelude is not None and not prelude.fits(names):
        prelude = None
    if build_inline and (tu := _parse_valid(parser, retagger, pp, prelude)) is not None:
        tu.poisoned = poisoned
        return tu
    for _ in range(200):
        retagger.prev = retagger.last = None
        try:
            tree = parser.parse(text)
        except UnexpectedInput as e:
            err = _locate_error(e, retagger, text)
            diags.error(err.message, pp.locate(err.line, err.col, err.length))
            blanked = _blank_declaration(text, err.line, err.col)
            if blanked == text:
                return None
            poisoned.update(t for t in _scan_tokens(_removed(text, blanked))[0] if _is_ident(t))
            text = blanked
            continue
        try:
            tu = _ToAST(pp).transform(tree)
            tu.poisoned = poisoned
            return tu
        except VisitError as e:
            if isinstance(e.orig_exc, _Located):
                err = e.orig_exc
                diags.error(err.message, pp.locate(err.line, err.col, err.length))
                return None
            raise
    return None


_STD_QUALIFIED = re.compile(r"\bstd\s*::")


def _blank_std_errors(pp: PreprocessedSource, text: str, diags: DiagnosticEngine, poisoned: set[str]) -> str:
    """Report each `std::name` namespace std does not declare at its place (grammar/stdnames.py) and blank
    the declaration holding it, as after a syntax error; the text itself when there is none."""
    if _STD_QUALIFIED.search(text) is None:   # the common case: no second tokenisation of the file
        return text
    toks, offsets = _scan_tokens(text)
    for offset, length, message in std_errors(toks, offsets):
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        diags.error(message, pp.locate(line, col, length))
        blanked = _blank_declaration(text, line, col)
        poisoned.update(t for t in _scan_tokens(_removed(text, blanked))[0] if _is_ident(t))
        text = blanked
    return text


def _name_sets(text: str, scanned: tuple[list[str], list[int]], system_lines: frozenset[int],
               prelude: Prelude | None) -> tuple:
    """The pre-passes' sets the postlexer reads: (types, templates, declaring, scopes,
    type_scopes, declarator parentheses, header types, header templates); the headers'
    from `prelude` when its lines are the only ones from headers (their text is its)."""
    types, templates, declaring, scopes, type_scopes = scan_names(text, scanned)
    decl_parens = declarator_parens(text, types, scanned)
    if prelude is None:
        header_types, header_templates = header_names(text, system_lines)
    elif max(system_lines, default=0) <= prelude.lines:
        header_types, header_templates = prelude.names[6:]
    else:   # the headers' text starts with the prelude's (all of its lines are theirs)
        header_types, header_templates = header_names(text, system_lines, lambda t: prelude.tokens_with(t, _scan_tokens))
    return types, templates, declaring, scopes, type_scopes, decl_parens, header_types, header_templates


def _set_names(retagger: _Retagger, names: tuple) -> None:
    (retagger.types, retagger.templates, retagger.declaring, retagger.scopes, retagger.type_scopes,
     retagger.decl_parens, retagger.header_types, retagger.header_templates) = names


def _parse_prelude(parser: Lark, retagger: _Retagger, head: PreprocessedSource) -> tuple:
    """(tokens, name sets, frozen state) of a prelude (grammar/prelude.py) whose text is
    `head`'s: the state its parse leaves at its end, pickled; None when it does not parse
    alone."""
    scanned = _scan_tokens(head.text)
    names = _name_sets(head.text, scanned, head.system_lines(), None)
    _set_names(retagger, names)
    retagger.system_lines = head.system_lines()
    retagger.prev = retagger.last = None
    ip = parser.parse_interactive(head.text)
    try:
        with collector_paused():
            parse_to_end(ip, _ToAST(head), prefix=True)
            state = (ip.parser_state.state_stack, ip.parser_state.value_stack, retagger.state())
            frozen = freeze(state)
    except (UnexpectedInput, NotParsed, _Located, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        frozen = None
    return scanned, names, frozen


def _parse_valid(parser: Lark, retagger: _Retagger, pp: PreprocessedSource,
                 prelude: Prelude | None = None) -> A.TranslationUnit | None:
    """The AST of a program with no error the parser finds, built while it parses (no
    parse tree), from `prelude`'s state when it is given; None when it has one: the
    parse tree's way then reports it."""
    retagger.prev = retagger.last = None
    try:
        with collector_paused():
            ip = parser.parse_interactive(pp.text)
            if prelude is None:
                return parse_to_end(ip, _ToAST(pp))
            ip.parser_state.state_stack[:], ip.parser_state.value_stack[:], retagger.resumed = prelude.resume()
            return parse_to_end(ip, _ToAST(pp), prelude.start)
    except (UnexpectedInput, NotParsed, _Located):
        retagger.resumed = None
        return None


def _removed(before: str, after: str) -> str:
    """The text that blanking took out of `before`."""
    diff = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    return before[diff[0]:diff[-1] + 1] if diff else ""


def _blank_declaration(text: str, line: int, col: int) -> str:
    """Replace the top-level declaration holding (line, col) with spaces."""
    lines = text.split("\n")
    line = min(max(line, 1), len(lines))
    offset = sum(len(s) + 1 for s in lines[: line - 1]) + max(col - 1, 0)
    offset = min(offset, len(text))
    start, depth, i = 0, 0, 0
    end = len(text)
    for m in _SCAN.finditer(text):
        tok, pos = m.group(), m.start()
        if m.lastgroup == "skip":
            continue
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth = max(depth - 1, 0)
        if pos < offset:
            if depth == 0 and tok in (";", "}"):
                start = m.end()
        elif depth == 0 and tok in (";", "}"):
            end = m.end()
            break
    end = max(end, min(offset + 1, len(text)))
    chunk = re.sub(r"[^\n]", " ", text[start:end])
    return text[:start] + chunk + text[end:]


# ---- the Transformer --------------------------------------------------------------------
_BINARY = {"logor": "||", "logand": "&&", "bitor": "|", "bitxor": "^", "bitand": "&", "eq": "==",
           "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">=", "shl": "<<", "shr": ">>",
           "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%"}
_UNARY = {"addr_of": "&", "deref": "*", "pos": "+", "neg": "-", "bitnot": "~", "lognot": "!"}

_STORAGE = {"typedef", "extern", "static", "inline", "__forceinline__", "__noinline__", "register", "constexpr",
            "virtual", "explicit", "__inline__", "__inline", "mutable"}
_QUALS = {"const", "volatile"}
_CUDA = {"__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__"}


def _tokens(items) -> list[Token]:
    return [i for i in items if isinstance(i, Token)]


@v_args(meta=True)
class _ToAST(Transformer_NonRecursive):
    def __init__(self, pp: PreprocessedSource):
        super().__init__()
        self.pp = pp
        self.lines = pp.text.split("\n")

    # locations
    def _loc(self, meta) -> SourceLocation:
        if getattr(meta, "empty", True):
            return None
        length = meta.end_column - meta.column if meta.end_line == meta.line else 1
        return self.pp.locate(meta.line, meta.column, max(1, length))

    def _tok_loc(self, tok: Token) -> SourceLocation:
        return self.pp.locate(tok.line, tok.column, max(1, len(tok.value)))

    def _op_loc(self, meta, left: A.Node, right: A.Node | None, op: str) -> SourceLocation:
        """Where `op` stands between `left` and `right` (both on one line), else the node's start."""
        loc = self._loc(meta)
        if left.loc is None or loc is None or left.loc.line != loc.line or (right is not None and right.loc.line != loc.line):
            return loc
        text = self.lines[meta.line - 1] if meta.line - 1 < len(self.lines) else ""
        start = left.loc.col - 1 + (left.loc.length if left.loc.line == loc.line else 0)
        end = right.loc.col - 1 if right is not None else len(text)
        idx = text.find(op, start, max(end, start))
        return SourceLocation(loc.file, loc.line, idx + 1, len(op)) if idx >= 0 else loc

    def __default__(self, data, children, meta):
        if data in _BINARY:
            lhs, rhs = children
            return _at_op(A.Binary(_BINARY[data], lhs, rhs, loc=self._loc(meta)), self._op_loc(meta, lhs, rhs, _BINARY[data]))
        if data in _UNARY:
            return A.Unary(_UNARY[data], children[0], loc=self._loc(meta))
        raise _Located(f"unsupported construct '{data}'", meta.line, meta.column)

    # top level
    def start(self, meta, items):
        # in the order of the preprocessed text (headers' declarations where they were
        # included), not by line, which would put a header's line 4 after the program's line 2
        decls = []
        for i in items:
            if isinstance(i, A.Node):
                decls.append(i)
            elif isinstance(i, Token) and i.type == "PRAGMA":
                decls.append(A.Pragma(_pragma_text(i), loc=self._tok_loc(i)))
        return A.TranslationUnit(decls, loc=self._loc(meta))

    def function_def(self, meta, items):
        specs, declarator, body = items
        return A.FunctionDef(specs, declarator, body, name=declarator.name or "", loc=declarator.loc)

    def template_decl(self, meta, items):
        params = [i for i in items if isinstance(i, A.TemplateParam)]
        inner = items[-1]
        if isinstance(inner, A.FunctionDef):
            inner.template_params = params
            inner.explicit_specialization = not params
            return inner
        if isinstance(inner, A.Declaration):
            struct = inner.specs.struct
            if struct is not None and struct.members is not None and not inner.decls:
                return A.ClassTemplate(params, struct, loc=struct.loc)
            for d in inner.decls:
                if d.declarator.params_suffix is not None and d.init is None:
                    fn = A.FunctionDef(inner.specs, d.declarator, None, name=d.name, loc=d.loc)
                    fn.template_params = params
                    fn.explicit_specialization = not params
                    return fn
            if inner.decls and all(d.declarator.qualifier_args is not None for d in inner.decls):
                return A.TemplateStatic(params, inner, loc=inner.loc)
        raise _Located("only function and class templates are supported", meta.line, meta.column)

    def type_template_param(self, meta, items):
        name = _tokens(items)[-1]
        default = next((i for i in items if isinstance(i, A.TypeName)), None)
        return A.TemplateParam(name.value, "type", default=default, loc=self._tok_loc(name))

    def value_template_param(self, meta, items):
        specs, declarator = items[:2]
        default = items[2] if len(items) > 2 else None
        return A.TemplateParam(declarator.name, "value", specs, declarator, default, loc=declarator.loc)

    def template_type(self, meta, items):
        name = items[0]
        return A.TemplateId(name.value, list(items[1:]), loc=self._tok_loc(name))

    template_scope = template_type

    def member_type_spec(self, meta, items):
        name, member = items[0], items[-1]   # TYPE_SCOPE, template arguments, SCOPE_SEP, TYPE_NAME
        return ("member_type", A.TemplateId(name.value, list(items[1:-2]), loc=self._tok_loc(name)), member.value)

    def template_member_name(self, meta, items):
        tid, tok = items[0], items[-1]   # template_type, SCOPE_SEP, IDENT
        return A.Name(f"{tid.name}::{tok.value}", scope_type=tid, loc=self._tok_loc(tok))

    def template_qualified_declarator(self, meta, items):
        tid, tok = items[0], items[-1]
        d = A.Declarator(tok.value, loc=self._tok_loc(tok))
        d.qualifier, d.qualifier_args = tid.name, tid.args
        return d

    def template_qualified_dtor_declarator(self, meta, items):
        d = self.template_qualified_declarator(meta, items)
        d.name = "~" + d.name
        return d

    def specialization_declarator(self, meta, items):
        tok = items[0]
        d = A.Declarator(tok.value, loc=self._tok_loc(tok))
        d.template_args = list(items[1:])
        return d

    def conversion_declarator(self, meta, items):
        specs = items[1]
        pointers = items[2] if len(items) > 2 else []
        target = A.TypeName(specs, A.Declarator(None, pointers, loc=specs.loc), loc=specs.loc)
        d = A.Declarator("operator " + _type_text(target), loc=self._tok_loc(items[0]))
        d.conversion = target
        return d

    def member_init_declarator(self, meta, items):
        d, init = items
        d.member_init = init
        return d

    def declaration(self, meta, items):
        specs = items[0]
        decls = []
        for init in items[1:]:
            declarator, value = init
            decls.append(A.VarDecl(specs, declarator, value, name=declarator.name or "", loc=declarator.loc))
        return A.Declaration(specs, decls, loc=self._loc(meta))

    def plain_init(self, meta, items):
        return (items[0], None)

    def assign_init(self, meta, items):
        return (items[0], items[1])

    def initializer(self, meta, items):
        return items[0]

    def init_list(self, meta, items):
        return A.InitList(list(items), loc=self._loc(meta))

    def decl_specs(self, meta, items):
        specs = A.DeclSpecs(loc=self._loc(meta))
        for item in items:
            if isinstance(item, Token):
                v = item.value
                if v in _STORAGE:
                    specs.storage.append(v)
                elif v in _QUALS:
                    specs.qualifiers.append(v)
                elif v in _CUDA:
                    specs.cuda.append(v)
            elif isinstance(item, tuple) and item[0] == "launch_bounds":
                specs.launch_bounds = item[1]
            elif isinstance(item, tuple) and item[0] == "linkage":
                specs.storage.append("extern")
            elif isinstance(item, tuple) and item[0] == "type" and item[1] in ("enum", "decltype"):
                if specs.type_name is not None or specs.type_words or specs.struct or specs.enum or specs.decltype:
                    raise _Located("cannot combine with previous type specifier", meta.line, meta.column)
                setattr(specs, item[1], item[2])
            elif isinstance(item, tuple) and item[0] == "type":
                kind, value = item[1], item[2]
                if kind == "word":
                    specs.type_words.append(value)
                elif kind == "name":
                    if specs.type_name is not None or specs.type_words or specs.struct:
                        raise _Located("cannot combine with previous type specifier", item[3].line, item[3].column, len(value))
                    specs.type_name = value
                elif kind == "template":
                    if specs.type_name is not None or specs.type_words or specs.struct:
                        raise _Located("cannot combine with previous type specifier", value.loc.line, value.loc.col)
                    specs.type_name, specs.template_args = value.name, value.args
                    specs.member_type = item[3] if len(item) > 3 else None
                else:
                    specs.struct = value
        return specs

    def launch_bounds(self, meta, items):
        return ("launch_bounds", list(items))

    def type_spec(self, meta, items):
        tok = items[0]
        if isinstance(tok, A.TemplateId):
            return ("type", "template", tok)
        if isinstance(tok, tuple) and tok[0] == "member_type":   # Foo<int>::iterator
            return ("type", "template", tok[1], tok[2])
        if isinstance(tok, A.StructSpec):
            return ("type", "struct", tok)
        if isinstance(tok, A.EnumSpec):
            return ("type", "enum", tok)
        if isinstance(tok, tuple):
            return ("type", "decltype", tok[1])
        if tok.type == "TYPE_NAME":
            return ("type", "name", tok.value, tok)
        return ("type", "word", tok.value, tok)

    def struct_def(self, meta, items):
        toks = _tokens(items)
        tag = toks[1].value if len(toks) > 1 else None
        kind = toks[0].value
        tid = next((i for i in items if isinstance(i, A.TemplateId)), None)
        if tid is not None:
            tag = tid.name
        access = "private" if kind == "class" else "public"
        members, methods, base, align = [], [], None, 1
        for i in items:
            if isinstance(i, tuple) and i[0] == "align":
                align = max(align, i[1])
            elif isinstance(i, tuple) and i[0] == "access":
                access = i[1]
            elif isinstance(i, tuple) and i[0] == "base":
                base = i[1]
            elif isinstance(i, A.StructMember):
                i.access = access
                members.append(i)
            elif isinstance(i, A.Declaration):   # `using size_type = ...;`: a member typedef
                members.append(A.StructMember(i.specs, [v.declarator for v in i.decls], access, loc=i.loc))
            elif isinstance(i, A.FunctionDef):
                i.access = access
                methods.append(i)
        spec = A.StructSpec(kind, tag, members, methods, base, align, loc=self._loc(meta))
        spec.template_args = tid.args if tid is not None else None
        spec.end = self.pp.locate(meta.end_line, meta.end_column)
        return spec

    def struct_align(self, meta, items):
        return ("align", int(re.findall(r"\d+", items[0].value)[-1]))

    # classes (C++)
    def access_spec(self, meta, items):
        return ("access", items[0].value)

    def base_clause(self, meta, items):
        if isinstance(items[-1], A.TemplateId):
            return ("base", items[-1])
        return ("base", _tokens(items)[-1].value)

    def method_def(self, meta, items):
        specs = items[0] if isinstance(items[0], A.DeclSpecs) else A.DeclSpecs(loc=self._loc(meta))
        rest = items[1:] if isinstance(items[0], A.DeclSpecs) else items
        declarator, body = rest[0], rest[-1]
        fn = A.FunctionDef(specs, declarator, body, name=declarator.name or "", loc=declarator.loc)
        fn.ctor_inits = rest[1] if len(rest) == 3 else None
        return fn

    def method_decl(self, meta, items):
        declarator = items[0]
        specs = A.DeclSpecs(loc=self._loc(meta))
        return A.FunctionDef(specs, declarator, None, name=declarator.name or "", loc=declarator.loc)

    def special_member_decl(self, meta, items):
        """`Foo(const Foo &) = delete;`, `Foo() = default;`: a member function declared
        deleted (no body; a call is an error) or defaulted (an empty body, or the implicit
        member where C++'s defaulted one is the implicit copy: sema.classes)."""
        specs = items[0] if isinstance(items[0], A.DeclSpecs) else A.DeclSpecs(loc=self._loc(meta))
        declarator, keyword = items[-2], items[-1]
        body = A.Compound([], loc=declarator.loc) if keyword.type == "DEFAULT_KW" else None
        fn = A.FunctionDef(specs, declarator, body, name=declarator.name or "", loc=declarator.loc)
        fn.special = keyword.value
        return fn

    def ctor_inits(self, meta, items):
        return list(items)

    def ctor_init(self, meta, items):
        name = items[0]
        args = next((i for i in items[1:] if isinstance(i, list)), [])
        return A.CtorInit(name.value, args, loc=self._tok_loc(name))

    def const_function_declarator(self, meta, items):
        params = next((i for i in items[1:] if isinstance(i, tuple)), None)
        d = self.function_declarator(meta, [items[0]] + ([params] if params else []))
        d.const_method = True
        return d

    def dtor_declarator(self, meta, items):
        tok = items[0]
        return A.Declarator("~" + tok.value, loc=self._tok_loc(tok))

    def qualified_declarator(self, meta, items):
        scope, tok = items[0], items[-1]   # SCOPE_NAME, SCOPE_SEP, ..., IDENT
        d = A.Declarator(tok.value, loc=self._tok_loc(tok))
        d.qualifier = scope.value
        return d

    def qualified_dtor_declarator(self, meta, items):
        scope, tok = items[0], items[-1]   # SCOPE_NAME, SCOPE_SEP, ..., IDENT
        d = A.Declarator("~" + tok.value, loc=self._tok_loc(tok))
        d.qualifier = scope.value
        return d

    def brace_declarator(self, meta, items):
        d = items[0]
        d.ctor_args = next((i for i in items[1:] if isinstance(i, list)), [])
        d.braced = True
        return d

    def operator_declarator(self, meta, items):
        return A.Declarator("operator" + items[1].value, loc=self._tok_loc(items[0]))

    def subscript_operator_declarator(self, meta, items):
        return A.Declarator("operator[]", loc=self._tok_loc(items[0]))

    def call_operator_declarator(self, meta, items):
        return A.Declarator("operator()", loc=self._tok_loc(items[0]))

    def lambda_expr(self, meta, items):
        captures = [i for i in items if isinstance(i, tuple) and len(i) == 3]
        space = next((i for i in items if isinstance(i, Token) and i.type in ("DEVICE_KW", "HOST_KW", "GLOBAL_KW")), None)
        if space is not None:
            raise _Located(f"{space.value} annotation on lambda requires --extended-lambda nvcc flag",
                           space.line, space.column)
        params = next((i for i in items if isinstance(i, tuple) and len(i) == 2), ([], False))[0]
        mutable = any(isinstance(i, Token) and i.type == "MUTABLE_KW" for i in items)
        ret = next((i for i in items if isinstance(i, A.TypeName)), None)
        body = items[-1]
        return A.Lambda(captures, params, mutable, ret, body, loc=self._loc(meta))

    def reference_capture(self, meta, items):
        return ("reference", items[0].value if items else None, self._loc(meta))

    def copy_default_capture(self, meta, items):
        return ("copy", None, self._loc(meta))

    def copy_capture(self, meta, items):
        return ("copy", items[0].value, self._loc(meta))

    def this_capture(self, meta, items):
        return ("this", "this", self._loc(meta))

    def lambda_space(self, meta, items):
        return items[0]

    def qualified_name(self, meta, items):
        scope, tok = items[0], items[-1]   # SCOPE_NAME, SCOPE_SEP, ..., IDENT
        return A.Name(f"{scope.value}::{tok.value}", loc=self._tok_loc(tok))

    def struct_ref(self, meta, items):
        toks = _tokens(items)
        return A.StructSpec(toks[0].value, toks[1].value, None, loc=self._tok_loc(toks[1]))

    def struct_member(self, meta, items):
        return A.StructMember(items[0], list(items[1:]), loc=self._loc(meta))

    # C++ beyond classes: namespaces, using, enums, static_assert, linkage, new/delete, casts
    def namespace_def(self, meta, items):
        names = [t for t in _tokens(items) if t.type == "IDENT"]
        decls = [i for i in items if isinstance(i, A.Node)]
        return A.Namespace(names[0].value if names else None, decls, loc=self._loc(meta))

    def linkage_block(self, meta, items):
        return A.Namespace("", [i for i in items if isinstance(i, A.Node)], loc=self._loc(meta))

    def linkage(self, meta, items):
        return ("linkage", items[1].value)

    def using_directive(self, meta, items):
        return A.UsingDirective(items[-1].value, loc=self._tok_loc(items[-1]))

    def namespace_alias(self, meta, items):
        name, target = [t for t in _tokens(items)][-2:]
        return A.NamespaceAlias(name.value, _SPACES.sub("", target.value), self._tok_loc(target), loc=self._loc(meta))

    def using_decl(self, meta, items):
        return A.UsingDecl(items[-1].value, loc=self._tok_loc(items[-1]))

    def alias_decl(self, meta, items):
        """`using T = type;` is `typedef type T;`."""
        tok, tn = items
        tn.specs.storage.append("typedef")
        d = tn.declarator
        d.name, d.loc = tok.value, self._tok_loc(tok)
        return A.Declaration(tn.specs, [A.VarDecl(tn.specs, d, None, name=tok.value, loc=d.loc)], loc=self._loc(meta))

    def static_assert_decl(self, meta, items):
        message = b"".join(_unescape(t.value[1:-1], t) for t in _tokens(items)) if len(items) > 1 else None
        return A.StaticAssert(items[0], message, loc=self._loc(meta))

    def enum_def(self, meta, items):
        toks = _tokens(items)
        scoped = any(t.type in ("STRUCT_KW", "CLASS_KW") for t in toks)
        tags = [t for t in toks if t.type in ("IDENT", "TYPE_NAME")]
        base = next((i[1] for i in items if isinstance(i, tuple)), None)
        enumerators = [i for i in items if isinstance(i, A.Enumerator)]
        return A.EnumSpec(tags[0].value if tags else None, scoped, base, enumerators, loc=self._loc(meta))

    def enum_ref(self, meta, items):
        toks = _tokens(items)
        return A.EnumSpec(toks[-1].value, len(toks) > 1, None, None, loc=self._tok_loc(toks[-1]))

    def enum_base(self, meta, items):
        return ("enum_base", items[0])

    def enumerator(self, meta, items):
        return A.Enumerator(items[0].value, items[1] if len(items) > 1 else None, loc=self._tok_loc(items[0]))

    def decltype_spec(self, meta, items):
        return ("decltype", items[0])

    def range_for_stmt(self, meta, items):
        specs, declarator, rng, body = items
        return A.RangeFor(specs, declarator, rng, body, loc=self._loc(meta))

    def nullptr_lit(self, meta, items):
        return A.NullPtr(loc=self._loc(meta))

    def cxx_cast(self, meta, items):
        kind, tn, operand = items
        return A.Cast(tn, operand, style=kind.value, loc=self._tok_loc(kind))

    def placement(self, meta, items):
        return ("placement", items[0])

    def new_expr(self, meta, items):
        placement = items.pop(0)[1] if isinstance(items[0], tuple) else None
        specs, pointers, count, args, braced = items[0], [], None, None, False
        for item in items[1:]:
            if isinstance(item, list) and item and isinstance(item[0], A.Pointer):
                pointers = item
            elif isinstance(item, list):
                args = item
            elif isinstance(item, A.InitList):   # new T{...}, new T[n]{...}
                args, braced = [i for i in item.items if not isinstance(i, Token)], True
            else:
                count = item
        line = self.lines[meta.end_line - 1] if meta.end_line - 1 < len(self.lines) else ""
        if args is None and line[meta.end_column - 2:meta.end_column - 1] == ")":
            args = []   # new T(): value-initialised
        tn = A.TypeName(specs, A.Declarator(None, pointers, loc=specs.loc), loc=specs.loc)
        return A.New(tn, count, args, braced=braced, placement=placement, loc=self._loc(meta))

    def new_pointers(self, meta, items):
        return list(items)

    def delete_expr(self, meta, items):
        return A.Delete(items[0], False, loc=self._loc(meta))

    def delete_array_expr(self, meta, items):
        return A.Delete(items[-1], True, loc=self._loc(meta))

    def ref_pointer(self, meta, items):
        return A.Pointer([], reference="&", loc=self._loc(meta))

    def rvalue_ref_pointer(self, meta, items):
        return A.Pointer([], reference="&&", loc=self._loc(meta))

    # declarators
    def declarator(self, meta, items):
        if len(items) == 2:
            pointers, d = items
            d.pointers = pointers
            return d
        return items[0]

    def pointers(self, meta, items):
        return list(items)

    def pointer(self, meta, items):
        return A.Pointer([t.value for t in _tokens(items)], loc=self._loc(meta))

    def name_declarator(self, meta, items):
        tok = items[0]
        return A.Declarator(tok.value, loc=self._tok_loc(tok))

    def array_declarator(self, meta, items):
        d = items[0]
        d.suffixes.append(A.ArraySuffix(items[1] if len(items) > 1 else None, loc=self._loc(meta)))
        return d

    def function_declarator(self, meta, items):
        d = items[0]
        params, variadic = (items[1] if len(items) > 1 else ([], False))
        d.suffixes.append(A.ParamsSuffix(params, variadic, loc=self._loc(meta)))
        return d

    def paren_declarator(self, meta, items):
        """`(*p)` of `int (*p)(int)`: an outer declarator, whose suffixes follow, around it."""
        pointers, inner = items[-2], items[-1]
        inner.pointers = pointers + inner.pointers
        return A.Declarator(inner.name, nested=inner, loc=inner.loc)

    def trailing_declarator(self, meta, items):
        params = [i for i in items[1:-1] if isinstance(i, tuple)]
        d = self.function_declarator(meta, [items[0]] + params)
        d.trailing = items[-1]
        return d

    def const_trailing_declarator(self, meta, items):
        d = self.trailing_declarator(meta, [i for i in items if not (isinstance(i, Token) and i.type == "CONST_KW")])
        d.const_method = True
        return d

    def ctor_declarator(self, meta, items):
        d = items[0]
        d.ctor_args = items[1]
        return d

    def param_list(self, meta, items):
        params = [i for i in items if isinstance(i, A.ParamDecl)]
        variadic = any(isinstance(i, Token) and i.type == "ELLIPSIS" for i in items)
        return (params, variadic)

    def named_param(self, meta, items):
        default = items[2] if len(items) > 2 else None
        return A.ParamDecl(items[0], items[1], default, loc=items[1].loc)

    def unnamed_param(self, meta, items):
        specs = items[0]
        declarator = A.Declarator(None, loc=specs.loc)
        default = None
        for item in items[1:]:
            if isinstance(item, A.Declarator):
                declarator = item
            else:
                default = item
        return A.ParamDecl(specs, declarator, default, loc=specs.loc)

    def type_name(self, meta, items):
        declarator = items[1] if len(items) > 1 else A.Declarator(None, loc=self._loc(meta))
        return A.TypeName(items[0], declarator, loc=self._loc(meta))

    def abstract_declarator(self, meta, items):
        d = A.Declarator(None, loc=self._loc(meta))
        for item in items:
            if isinstance(item, A.Declarator):   # float (*)(float)
                item.pointers = d.pointers + item.pointers
                d = item
                continue
            if isinstance(item, list) and (not item or isinstance(item[0], A.Pointer)):
                d.pointers = item
            elif isinstance(item, list):
                d.suffixes = item
        return d

    def function_pointer_abstract(self, meta, items):
        """`(*)(float)` of `float (*)(float)`: the suffixes of a declarator around `(*)`."""
        pointers = next(i for i in items if isinstance(i, list))
        params, variadic = next((i for i in items if isinstance(i, tuple)), ([], False))
        inner = A.Declarator(None, pointers=pointers, loc=self._loc(meta))
        outer = A.Declarator(None, nested=inner, loc=self._loc(meta))
        outer.suffixes.append(A.ParamsSuffix(params, variadic, loc=self._loc(meta)))
        return outer

    def array_pointer_abstract(self, meta, items):
        """`(&)[N]` of `int (&)[N]`: an array suffix around `(&)`."""
        pointers = next(i for i in items if isinstance(i, list))
        size = next((i for i in items if not isinstance(i, (list, Token))), None)
        inner = A.Declarator(None, pointers=pointers, loc=self._loc(meta))
        outer = A.Declarator(None, nested=inner, loc=self._loc(meta))
        outer.suffixes.append(A.ArraySuffix(size, loc=self._loc(meta)))
        return outer

    def direct_abstract(self, meta, items):
        suffixes = []
        for item in items:
            if isinstance(item, list):
                suffixes.extend(item)
            else:
                suffixes.append(A.ArraySuffix(item, loc=self._loc(meta)))
        if not items or isinstance(items[-1], list):
            suffixes.append(A.ArraySuffix(None, loc=self._loc(meta)))
        return suffixes

    # statements
    def compound(self, meta, items):
        return A.Compound(_attach_pragmas(self, items), loc=self._loc(meta))

    def statement(self, meta, items):
        return items[0]

    def expr_stmt(self, meta, items):
        return A.ExprStmt(items[0] if items else None, loc=self._loc(meta))

    def if_stmt(self, meta, items):
        return A.If(items[0], items[1], items[2] if len(items) > 2 else None, loc=self._loc(meta))

    def while_stmt(self, meta, items):
        return A.While(items[0], items[1], loc=self._loc(meta))

    def do_stmt(self, meta, items):
        return A.DoWhile(items[0], items[1], loc=self._loc(meta))

    def for_stmt(self, meta, items):
        init, cond, step, body = items
        return A.For(init, cond, step, body, loc=self._loc(meta))

    def for_cond(self, meta, items):
        return items[0] if items else None

    for_step = for_cond

    def for_init(self, meta, items):
        if items and isinstance(items[0], A.Declaration):
            return A.DeclStmt(items[0], loc=items[0].loc)
        return A.ExprStmt(items[0] if items else None, loc=self._loc(meta))

    def switch_stmt(self, meta, items):
        return A.Switch(items[0], items[1], loc=self._loc(meta))

    def case_stmt(self, meta, items):
        return A.Case(items[0], items[1], loc=self._loc(meta))

    def default_stmt(self, meta, items):
        return A.Default(items[0], loc=self._loc(meta))

    def break_stmt(self, meta, items):
        return A.Break(loc=self._loc(meta))

    def continue_stmt(self, meta, items):
        return A.Continue(loc=self._loc(meta))

    def return_stmt(self, meta, items):
        return A.Return(items[0] if items else None, loc=self._loc(meta))

    def pragma_stmt(self, meta, items):
        return A.Pragma(_pragma_text(items[0]), loc=self._tok_loc(items[0]))

    def throw_stmt(self, meta, items):
        return A.Throw(items[0] if items else None, loc=self._loc(meta))

    def try_stmt(self, meta, items):
        return A.Try(items[0], list(items[1:]), loc=self._loc(meta))

    def catch_clause(self, meta, items):
        nodes = [i for i in items if isinstance(i, A.Node)]
        param = None
        if isinstance(nodes[0], A.DeclSpecs):
            declarator = nodes[1] if len(nodes) > 2 else A.Declarator(None, loc=nodes[0].loc)
            param = A.ParamDecl(nodes[0], declarator, loc=declarator.loc)
        return A.Catch(param, nodes[-1], loc=self._loc(meta))

    # expressions
    def comma(self, meta, items):
        return A.Comma(items[0], items[1], loc=self._loc(meta))

    def assign(self, meta, items):
        return _at_op(A.Assign("=", items[0], items[1], loc=self._loc(meta)), self._op_loc(meta, items[0], items[1], "="))

    def compound_assign(self, meta, items):
        return _at_op(A.Assign(items[1].value, items[0], items[2], loc=self._loc(meta)),
                      self._op_loc(meta, items[0], items[2], items[1].value))

    def conditional(self, meta, items):
        return _at_op(A.Conditional(items[0], items[1], items[2], loc=self._loc(meta)), self._op_loc(meta, items[0], items[1], "?"))

    def cast(self, meta, items):
        return A.Cast(items[0], items[1], loc=self._loc(meta))

    def pre_inc(self, meta, items):
        return A.IncDec("++", True, items[0], loc=self._loc(meta))

    def pre_dec(self, meta, items):
        return A.IncDec("--", True, items[0], loc=self._loc(meta))

    def post_inc(self, meta, items):
        return _at_op(A.IncDec("++", False, items[0], loc=self._loc(meta)), self._op_loc(meta, items[0], None, "++"))

    def post_dec(self, meta, items):
        return _at_op(A.IncDec("--", False, items[0], loc=self._loc(meta)), self._op_loc(meta, items[0], None, "--"))

    def sizeof_expr(self, meta, items):
        return A.SizeofExpr(items[0], loc=self._loc(meta))

    def sizeof_type(self, meta, items):
        return A.SizeofType(items[0], loc=self._loc(meta))

    def alignof_type(self, meta, items):
        return A.SizeofType(items[0], align=True, loc=self._loc(meta))

    def index(self, meta, items):
        return _at_op(A.Index(items[0], items[1], loc=self._loc(meta)), self._op_loc(meta, items[0], items[1], "["))

    def call(self, meta, items):
        return A.Call(items[0], items[1] if len(items) > 1 else [], loc=self._loc(meta))

    def launch(self, meta, items):
        func, _open, config, _close = items[:4]
        args = items[4] if len(items) > 4 else []
        return A.Launch(func, config, args, loc=self._loc(meta))

    def member(self, meta, items):
        name, loc = self._member_name(items[1])
        return _at_op(A.Member(items[0], name, False, loc=loc), self._op_loc(meta, items[0], None, "."))

    def arrow(self, meta, items):
        name, loc = self._member_name(items[1])
        return _at_op(A.Member(items[0], name, True, loc=loc), self._op_loc(meta, items[0], None, "->"))

    def _member_name(self, item) -> tuple[str, SourceLocation]:
        """A member's name and where it stands: an identifier, or an operator's `op_name`."""
        if isinstance(item, A.Name):
            return item.name, item.loc
        return item.value, self._tok_loc(item)

    def member_dtor(self, meta, items):   # `obj.~T()`: an explicit destructor call
        return _at_op(A.Member(items[0], "~" + items[-1].value, False, loc=self._loc(meta)), self._op_loc(meta, items[0], None, "."))

    def arrow_dtor(self, meta, items):
        return _at_op(A.Member(items[0], "~" + items[-1].value, True, loc=self._loc(meta)), self._op_loc(meta, items[0], None, "->"))

    def op_name(self, meta, items):
        """`operator+`, `operator[]`, `operator new`: the function's name, as a Name."""
        words = [t.value for t in items[1:]]
        word = words[0] if len(words) == 1 else "".join(words)
        name = "operator " + word if word[0].isalpha() else "operator" + word
        if name.startswith("operator delete") and name != "operator delete":
            name = "operator delete[]"
        return A.Name(name, loc=self._tok_loc(items[0]))

    def operator_name(self, meta, items):   # `operator<<(std::cout, c)`, `::operator new(n)`
        return items[-1]

    def qualified_member(self, meta, items):   # `obj.Base::f`: one name, Base's f
        return _at_op(A.Member(items[0], f"{items[1].value}::{items[-1].value}", False, loc=self._tok_loc(items[-1])),
                      self._op_loc(meta, items[0], None, "."))

    def qualified_arrow(self, meta, items):
        return _at_op(A.Member(items[0], f"{items[1].value}::{items[-1].value}", True, loc=self._tok_loc(items[-1])),
                      self._op_loc(meta, items[0], None, "->"))

    def template_id(self, meta, items):
        name = items[0]
        args = list(items[1:]) if len(items) > 1 else None
        return A.TemplateId(name.value, args, loc=self._tok_loc(name))

    def template_arg(self, meta, items):
        return items[0]

    def value_template_arg(self, meta, items):
        return items[0]

    def basic_type_ctor(self, meta, items):
        tok = items[0]
        if isinstance(tok, A.TemplateId):
            specs = A.DeclSpecs(type_name=tok.name, template_args=tok.args, loc=tok.loc)
            tn = A.TypeName(specs, A.Declarator(None, loc=specs.loc), loc=specs.loc)
            c = A.Construct(tn, next((i for i in items[1:] if isinstance(i, list)), []), loc=self._loc(meta))
            c.braced = any(getattr(i, "type", None) == "INIT_BRACE" for i in items[1:])   # Pair<float>{1, 2}
            return c
        specs = A.DeclSpecs(loc=self._tok_loc(tok))
        if tok.type == "TYPE_NAME":
            specs.type_name = tok.value
        else:
            specs.type_words.append(tok.value)
        tn = A.TypeName(specs, A.Declarator(None, loc=specs.loc), loc=specs.loc)
        args = next((i for i in items[1:] if isinstance(i, list)), [])
        c = A.Construct(tn, args, loc=self._loc(meta))
        c.braced = any(getattr(i, "type", None) == "INIT_BRACE" for i in items[1:])
        return c

    def arg_list(self, meta, items):
        return list(items)

    def name(self, meta, items):
        tok = items[0]
        return A.Name(tok.value, loc=self._tok_loc(tok))

    def int_lit(self, meta, items):
        tok = items[0]
        digits = tok.value.rstrip("uUlL")
        if digits[:2] in ("0x", "0X"):
            value = int(digits, 16)
        elif digits[:2] in ("0b", "0B"):
            value = int(digits[2:], 2)
        elif len(digits) > 1 and digits[0] == "0":
            value = int(digits, 8)
        else:
            value = int(digits)
        return A.IntLit(value, tok.value, loc=self._tok_loc(tok))

    def float_lit(self, meta, items):
        tok = items[0]
        text = tok.value.rstrip("fFlL")
        value = float.fromhex(text) if text[:2] in ("0x", "0X") else float(text)
        return A.FloatLit(value, tok.value, loc=self._tok_loc(tok))

    def char_lit(self, meta, items):
        tok = items[0]
        data = _unescape(tok.value[1:-1], tok)
        return A.CharLit(data[0] if len(data) == 1 else int.from_bytes(data, "big"), tok.value, loc=self._tok_loc(tok))

    def string_lit(self, meta, items):
        data = b"".join(_unescape(t.value[1:-1], t) for t in items)
        return A.StringLit(data, loc=self._loc(meta))

    def bool_lit(self, meta, items):
        return A.BoolLit(items[0].value == "true", loc=self._loc(meta))


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63, "e": 27}


def _unescape(body: str, tok: Token) -> bytes:
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.extend(c.encode("utf-8"))
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "x":
            m = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            out.append(int(m.group(), 16) & 0xFF)
            i += 2 + len(m.group())
        elif nxt in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(int(m.group(), 8) & 0xFF)
            i += 1 + len(m.group())
        elif nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            raise _Located(f"unknown escape sequence '\\{nxt}'", tok.line, tok.column + i + 1, 2)
    return bytes(out)


def _at_op(node: A.Node, op_loc: SourceLocation) -> A.Node:
    """Remember where the node's operator stands: clang points its errors there."""
    node.op_loc = op_loc
    return node


def _type_text(tn: A.TypeName) -> str:
    """A conversion operator's target type as written, spaced one way: `const T *`."""
    specs = tn.specs
    words = specs.qualifiers + specs.type_words + ([specs.type_name] if specs.type_name else [])
    if specs.template_args is not None:
        words[-1] += "<...>"
    return " ".join(words + ["*" + "".join(" " + q for q in p.qualifiers) if not p.reference else p.reference
                             for p in tn.declarator.pointers])


def _pragma_text(tok: Token) -> str:
    return re.sub(r"^#\s*pragma\s*", "", tok.value).strip()


def _attach_pragmas(t: _ToAST, items) -> list:
    """`#pragma unroll` applies to the loop right after it; keep it on the loop too."""
    out, pending = [], []
    for item in items:
        if isinstance(item, Token) and item.type == "PRAGMA":
            item = A.Pragma(_pragma_text(item), loc=t._tok_loc(item))
        if isinstance(item, A.Declaration):
            item = A.DeclStmt(item, loc=item.loc)
        if isinstance(item, A.Pragma):
            pending.append(item.text)
        elif isinstance(item, (A.For, A.While, A.DoWhile)):
            item.pragmas.extend(pending)
            pending = []
        else:
            pending = []
        out.append(item)
    return out

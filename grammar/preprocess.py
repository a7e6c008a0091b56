"""Preprocessing: #include, #define, #if and friends, with locations kept.

minicuda uses pcpp (a C99 preprocessor in pure Python) rather than its own
expander: it implements function-like macros with # and ##, #if arithmetic with
`defined`, include guards and #pragma passthrough, and its output carries `#line`
markers.  This module drives it, supplies minicuda's own system headers (the
declarations of what minicuda supports, in grammar/include/), predefines
__CUDACC__ and the CUDA version macros, and turns pcpp's complaints into located
diagnostics.  The result maps every output line back to (file, line).

pcpp lexes and writes text a token at a time; a plain line (no directive, comment,
quote, backslash or macro name) it would write unchanged travels through it as one
token, and is lexed only when a macro's invocation or expansion could reach it: the
output is pcpp's own, byte for byte.

Like nvcc, every .cu file implicitly includes <cuda_runtime.h>.
"""
from __future__ import annotations

import copy
import functools
import io
import itertools
import os
import re
import sys
from dataclasses import dataclass, field

import pcpp
from pcpp.parser import LexToken

from minicuda.diagnostics import DiagnosticEngine, SourceLocation
from minicuda.sourcefile import SourceFileError, read_text

SYSTEM_INCLUDE_DIR = os.path.join(os.path.dirname(__file__), "include")
# <math.h>'s library functions built from the others (frexp, remquo, erfinv, ...): math.h
# declares them; their definitions, in MATH_LIBRARY, are preprocessed after a unit that
# includes <math.h> and calls one (outside math.h itself), so other units do not parse them
MATH_LIBRARY = "bits/math_library.h"
MATH_DECLARING = ("math.h", "cmath")
MAX_INCLUDE_DEPTH = 200   # files open at once, the main file counted, as gcc's and clang's limit
MAX_EXPANSION_TOKENS = 1 << 20   # tokens macro expansion may produce for one piece of text
MAX_MACRO_NESTING = 512   # macros expanding macros (and arguments) at once
RECURSION_LIMIT = 8 * (MAX_INCLUDE_DEPTH + MAX_MACRO_NESTING)   # pcpp's frames for both, with room to spare
PIECE_TOKENS = 512   # text between directives is expanded in pieces of about this many tokens
PIECE_ENDS = {";", "{", "}"}   # a line ending in one of these can end a piece
TEXT_RUN = "CPP_TEXTRUN"   # a whole plain line as one token (no pcpp type name contains it)


def is_system_location(loc: SourceLocation | None) -> bool:
    """True for what minicuda's own headers (or the compiler itself) declare."""
    return loc is None or _is_system_file(loc.file)


@functools.cache
def _is_system_file(file: str) -> bool:
    return file == "<built-in>" or os.path.abspath(file).startswith(os.path.abspath(SYSTEM_INCLUDE_DIR))

PREDEFINED = [
    "__CUDACC__ 1",
    "__NVCC__ 1",
    "__CUDACC_VER_MAJOR__ 12",
    "__CUDACC_VER_MINOR__ 0",
    "CUDART_VERSION 12000",
    "__cplusplus 201703L",
    "__MINICUDA__ 1",
]

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_PUSH_POP = re.compile(r'^([ \t]*)#[ \t]*pragma[ \t]+(push|pop)_macro[ \t]*\([ \t]*"([A-Za-z_]\w*)"[ \t]*\)[ \t]*$',
                       re.M)
_PUSH_POP_UNDEF = re.compile(r"__minicuda_(push|pop)_macro__(\w+)")
_LINE_MARKER = re.compile(r'^#line (\d+) "(.*)"\s*$')


@dataclass
class PreprocessedSource:
    text: str
    line_map: list[tuple[str, int]] = field(default_factory=list)  # output line i -> (file, line)

    def locate(self, line: int, col: int, length: int = 1) -> SourceLocation:
        """The original location of 1-based (line, col) in the preprocessed text."""
        if 1 <= line <= len(self.line_map):
            file, orig = self.line_map[line - 1]
            return SourceLocation(file, orig, col, length)
        last = self.line_map[-1] if self.line_map else ("<input>", 0)
        return SourceLocation(last[0], last[1], col, length)

    def system_lines(self) -> frozenset[int]:
        """The 1-based lines of the text that come from minicuda's own headers."""
        return frozenset(i for i, (file, _) in enumerate(self.line_map, 1) if _is_system_file(file))


class _FilesOnce(dict):
    """pcpp's table of the files `#pragma once` (or an include guard) has closed, keyed by
    the file itself (its real path, as gcc compares files), so a header reached through a
    symbolic link or another relative path is still read once."""

    def __setitem__(self, path, value):
        super().__setitem__(_real(path), value)

    def __contains__(self, path):
        return super().__contains__(_real(path))


def _real(path: str | None) -> str | None:
    return os.path.realpath(path) if path else path


class _Preprocessor(pcpp.Preprocessor):
    def __init__(self, diags: DiagnosticEngine, display_names: dict[str, str]):
        super().__init__()
        self.include_once = _FilesOnce()
        self.diags = diags
        self.display_names = display_names
        self.line_directive = "#line"
        self.compress = 0
        self._include_token = None
        self._include_name = None
        self._expansion_depth = 0
        self._expanded_tokens = 0
        self._splittable = None   # whether every macro's body balances its parentheses; None: not known
        self._pushed_macros: dict[str, list] = {}   # #pragma push_macro's saved definitions, by name

    # pcpp hooks -------------------------------------------------------------
    def on_file_open(self, is_system_include, includepath):
        if not os.path.exists(includepath) or os.path.isdir(includepath):
            raise FileNotFoundError(includepath)   # pcpp searches the next directory
        try:
            text = read_text(includepath, self._include_name or includepath)
        except SourceFileError as e:
            self.diags.fatal(e.message, self._include_location())
        self.diags.sources.add(self._display(includepath), text)
        return io.StringIO(text)

    def parsegen(self, input, source=None, abssource=None):
        """pcpp's parse of one file, after `_empty_conditions` has reported (and turned
        into `#if 0`) the conditions pcpp cannot evaluate: it reports an empty one with
        no location, and crashes on one that opens a file."""
        return super().parsegen(_pragma_macros(self._empty_conditions(input, source)), source, abssource)

    def _empty_conditions(self, text: str, source) -> str:
        if "#" not in text or not _EMPTY_CONDITION.search(text):
            return text
        lines = text.split("\n")
        file = self._display(source or "")
        in_comment = _lines_in_block_comments(text)
        for i, line in enumerate(lines):
            m = _EMPTY_CONDITION.match(line)
            if m and i not in in_comment:
                rest = m.group("rest")
                message = (f"#{m.group('kw')} with no expression" if not rest else
                           "macro name missing" if rest.startswith("!defined") else "expected value in expression")
                column = m.start("rest") + 1 if rest else m.end("kw") + 1
                self.diags.error(message, SourceLocation(file, i + 1, column, 1))
                lines[i] = f"#{m.group('kw')} 0"
        return "\n".join(lines)

    def group_lines(self, input, abssource):
        """pcpp's lines of tokens, with a plain line (see `_plain_line`) as one TEXT_RUN
        token and its newline: pcpp would write its text unchanged, token by token.
        Other lines are lexed as pcpp lexes them; `_explode_near_macros` lexes a TEXT_RUN
        that a macro's expansion could reach."""
        lex = self.lexer.clone()
        lines = [x.rstrip() for x in input.splitlines()]
        text = "\n".join(lines)
        lex.input(text)
        macros = self.macros
        pos, lineno, count = 0, 1, len(lines)
        while lineno <= count and pos < len(text):
            line = lines[lineno - 1]
            if not line:
                if lineno < count:
                    yield [_token("CPP_WS", "\n", lineno, pos, abssource)]
                pos += 1
                lineno += 1
            elif _plain_line(line, macros):
                run = _token(TEXT_RUN, line, lineno, pos, abssource)
                run.parens = line.count("(") - line.count(")")
                yield [run, _token(self.t_NEWLINE, "\n", lineno, pos + len(line), abssource)]
                pos += len(line) + 1
                lineno += 1
            else:
                lex.lexpos, lex.lineno = pos, lineno
                yield self._lexed_line(lex, abssource)
                pos, lineno = lex.lexpos, lex.lineno

    def _lexed_line(self, lex, abssource) -> list:
        """The tokens pcpp's lexer reads from lex.lexpos to the end of that line (the
        lines a comment or string continues on with it)."""
        current_line = []
        while True:
            tok = lex.token()
            if not tok:
                break
            tok.source = abssource
            current_line.append(tok)
            if tok.type in self.t_WS and tok.value == "\n":
                return current_line
        if current_line:
            nltok = copy.copy(current_line[-1])
            nltok.type = self.t_NEWLINE
            nltok.value = "\n"
            current_line.append(nltok)
        return current_line

    def _explode_near_macros(self, tokens: list) -> list:
        """`tokens` with every TEXT_RUN that a macro's invocation or expansion could reach
        lexed into pcpp's tokens: those from a macro's name (or __LINE__, __COUNTER__) until
        no parenthesis it opened is open and the last token is neither a name nor ')'."""
        if not any(tok.type == TEXT_RUN for tok in tokens):
            return tokens
        out, guarded, depth, macros = [], False, 0, self.macros
        pending = list(reversed(tokens))
        while pending:
            tok = pending.pop()
            kind = tok.type
            if kind == TEXT_RUN:
                if guarded:
                    pending.extend(reversed(self._lex_run(tok)))
                else:
                    out.append(tok)
                continue
            out.append(tok)
            if kind in self.t_WS or kind in self.t_COMMENT:
                continue
            if kind == self.t_ID and (tok.value in macros or tok.value in _DYNAMIC_MACROS):
                guarded, depth = True, 0
            elif guarded:
                if tok.value == "(":
                    depth += 1
                elif tok.value == ")":
                    depth = max(depth - 1, 0)
                elif depth == 0 and kind != self.t_ID:
                    guarded = False
        return out

    def _lex_run(self, run) -> list:
        """The tokens pcpp's lexer makes of a TEXT_RUN's line."""
        lex = self.lexer.clone()
        lex.input(run.value)
        lex.lineno = run.lineno
        tokens = []
        while (tok := lex.token()) is not None:
            tok.source = run.source
            tokens.append(tok)
        return tokens

    def include(self, tokens, original_line):
        self._include_token = tokens[0] if tokens else None
        self._include_name = _written_name(tokens)
        if tokens and self.include_depth >= MAX_INCLUDE_DEPTH:
            self.diags.fatal(f"#include nested depth {self.include_depth} exceeds maximum of {MAX_INCLUDE_DEPTH}",
                             self._include_location())
        yield from super().include(tokens, original_line)

    def define(self, tokens):
        self._splittable = None
        return super().define(tokens)

    def undef(self, tokens):
        self._splittable = None
        if tokens and self._push_or_pop_macro(tokens[0].value):
            return None
        return super().undef(tokens)

    def expand_macros(self, tokens, expanding_from=[]):
        """pcpp's expansion, run on pieces of a long text (pcpp's own splices the whole
        list at every macro, quadratic in its length) and stopped with an error when
        one piece's expansion grows past MAX_EXPANSION_TOKENS."""
        if self._expansion_depth > 0:
            return self._expand_counted(tokens, expanding_from)
        tokens = self._explode_near_macros(tokens)
        out = []
        for piece in self._pieces(tokens):
            self._expanded_tokens = 0
            out.extend(self._expand_counted(piece, expanding_from))
        return out

    def _expand_counted(self, tokens, expanding_from):
        self._expansion_depth += 1
        try:
            if self._expansion_depth > MAX_MACRO_NESTING:
                self._expansion_error(f"macro expansion nested more than {MAX_MACRO_NESTING} levels deep",
                                      expanding_from)
            if self._expansion_depth > 1:
                self._count_expansion(len(tokens), expanding_from)
            result = super().expand_macros(tokens, expanding_from)
            if self._expansion_depth > 1:
                self._count_expansion(len(result), expanding_from)
            return result
        finally:
            self._expansion_depth -= 1

    def _count_expansion(self, n: int, expanding_from) -> None:
        self._expanded_tokens += n
        if self._expanded_tokens > MAX_EXPANSION_TOKENS:
            name = expanding_from[0] if expanding_from else ""
            self._expansion_error(f"macro expansion {'of ' + repr(name) + ' ' if name else ''}is too large (more "
                                  f"than {MAX_EXPANSION_TOKENS} tokens)", expanding_from)

    def _expansion_error(self, message: str, expanding_from) -> None:
        """A fatal error at the outermost macro being expanded (pcpp keeps its line)."""
        file = self._display(self.source or "")
        text = self.diags.sources.line(file, self.linemacro) or ""
        names = [m for m in _IDENTIFIER.finditer(text) if m.group() in self.macros]   # an argument's has none
        name = expanding_from[0] if expanding_from else names[0].group() if names else ""
        col = text.find(name) + 1 if name and name in text else 1
        self.diags.fatal(message, SourceLocation(file, self.linemacro, col, len(name) or 1))

    def _pieces(self, tokens) -> list:
        """`tokens` cut after lines that end a statement or a block outside any parentheses,
        so that no macro invocation spans two pieces; whole when a macro's body could open
        or close a parenthesis that the text does not show."""
        if len(tokens) <= PIECE_TOKENS or not self._macros_splittable():
            return [tokens]
        pieces, start, depth, last = [], 0, 0, None
        for i, tok in enumerate(tokens):
            if tok.type == self.t_NEWLINE:
                if depth == 0 and last in PIECE_ENDS and i + 1 - start >= PIECE_TOKENS:
                    pieces.append(tokens[start:i + 1])
                    start = i + 1
                last = None
            elif tok.type == TEXT_RUN:
                depth += tok.parens
                last = tok.value[-1]
            elif tok.type not in self.t_WS and tok.type not in self.t_COMMENT:
                depth += (tok.value == "(") - (tok.value == ")")
                last = tok.value
        pieces.append(tokens[start:])
        return pieces

    def _macros_splittable(self) -> bool:
        if self._splittable is None:
            self._splittable = all(_balanced(m.value) for m in self.macros.values())
        return self._splittable

    def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
        loc = self._include_location()
        if is_malformed:
            self.diags.error("expected \"FILENAME\" or <FILENAME>", loc)
        else:
            self.diags.fatal_later(f"'{includepath}' file not found", loc)
        raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)

    def on_error(self, file, line, msg):
        file = self._display(file)
        m = re.match(r"Macro (\w+) (requires|must have)", msg)
        if m:
            text = self.diags.sources.line(file, line) or ""
            idx = text.find(m.group(1))
            loc = SourceLocation(file, line, idx + 1 if idx >= 0 else 1, len(m.group(1)))
        else:
            loc = SourceLocation(file, line, self._directive_column(file, line))
        self.diags.error(_friendly(msg), loc)

    def on_unknown_macro_in_expr(self, ident):
        return 0  # C: an identifier left in #if evaluates to 0

    def on_unknown_macro_function_in_expr(self, ident):
        return lambda *args: 0

    def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
        if directive.value == "pragma":  # #pragma unroll and friends are for the compiler
            raise pcpp.OutputDirective(pcpp.Action.IgnoreAndPassThrough)
        if directive.value == "error":
            text = "".join(t.value for t in toks).strip()
            self.diags.error(f"\"{text}\"" if not text.startswith('"') else text,
                             self._token_location(directive))
            raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)
        if directive.value == "warning":
            text = "".join(t.value for t in toks).strip()
            self.diags.warning(text, self._token_location(directive))
            raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)
        self.diags.error("invalid preprocessing directive", self._token_location(directive))
        raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)

    # helpers ----------------------------------------------------------------
    def _push_or_pop_macro(self, name: str) -> bool:
        """`#pragma push_macro("min")` saves min's definition (or its absence) and
        `#pragma pop_macro("min")` restores it, as gcc, clang and MSVC do (a bundled
        header declares `min` between them with a user's macro set aside).  pcpp expands
        the text before a directive it does not know only after running it, so the
        pragma arrives here as an #undef of a reserved name (`_pragma_macros`), which
        pcpp runs after the text before it.  Whether `name` was such a pragma."""
        m = _PUSH_POP_UNDEF.fullmatch(name)
        if m is None:
            return False
        stack = self._pushed_macros.setdefault(m.group(2), [])
        if m.group(1) == "push":
            stack.append(self.macros.get(m.group(2)))
        elif stack:
            saved = stack.pop()
            if saved is None:
                self.macros.pop(m.group(2), None)
            else:
                self.macros[m.group(2)] = saved
        return True

    def _include_location(self) -> SourceLocation | None:
        tok = self._include_token
        return self._token_location(tok) if tok is not None else None

    def _display(self, path: str) -> str:
        return self.display_names.get(os.path.abspath(path), path) if path else "<input>"

    def _token_location(self, tok) -> SourceLocation:
        file = self._display(getattr(tok, "source", "") or "")
        line = getattr(tok, "lineno", 0)
        text = self.diags.sources.line(file, line) or ""
        idx = text.find(tok.value) if tok.value else -1
        return SourceLocation(file, line, idx + 1 if idx >= 0 else 1, max(1, len(tok.value)))

    def _directive_column(self, file: str, line: int) -> int:
        text = self.diags.sources.line(self._display(file), line) or ""
        idx = text.find("#")
        return idx + 1 if idx >= 0 else 1


# a #if or #elif with nothing to evaluate (or only `!`, `!defined`, `!defined(`), comments aside
_EMPTY_CONDITION = re.compile(
    r"^[ \t]*#[ \t]*(?P<kw>if|elif)(?![\w])[ \t]*(?P<rest>(?:!(?:[ \t]*defined[ \t]*\(?)?)?)[ \t]*"
    r"(?://.*|/\*.*\*/[ \t]*)?$", re.M)


def _pragma_macros(text: str) -> str:
    """Each `#pragma push_macro("x")` / `pop_macro` line as the #undef that carries it
    (see _Preprocessor._push_or_pop_macro); every other line as it is."""
    if "_macro" not in text:
        return text
    return _PUSH_POP.sub(lambda m: f"{m.group(1)}#undef __minicuda_{m.group(2)}_macro__{m.group(3)}", text)


def _lines_in_block_comments(text: str) -> set[int]:
    """Indices of the lines that start inside a /* */ comment (a directive there is text)."""
    inside: set[int] = set()
    line, counted = 0, 0   # the line of offset `counted`
    for m in _BLOCK_COMMENT.finditer(text):
        spans = m.group().count("\n")
        if spans:
            line += text.count("\n", counted, m.start())
            counted = m.start()
            inside.update(range(line + 1, line + 1 + spans))
    return inside


_BLOCK_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)


# a plain line: none of these (a directive, a comment, a continued line or string, a
# quote whose parentheses are not the text's)
_NOT_PLAIN = re.compile(r"""[#\\"']|/[/*]""")
_WORD = re.compile(r"\b[A-Za-z_]\w*")
_NUMBER_WORD = re.compile(r"\b\d+[A-Za-z_]\w*")   # a name may start after the number: 5f, 1e5N
_DYNAMIC_MACROS = frozenset({"__LINE__", "__COUNTER__"})   # pcpp expands these without a macro


def _plain_line(line: str, macros: dict) -> bool:
    """Whether pcpp writes `line` (not blank, trailing space stripped) as it is: ASCII
    text with no directive, comment, quote or backslash, and no name that is a macro."""
    if not line.isascii() or _NOT_PLAIN.search(line):
        return False
    words = set(_WORD.findall(line))
    if not macros.keys().isdisjoint(words) or not _DYNAMIC_MACROS.isdisjoint(words):
        return False
    for word in _NUMBER_WORD.findall(line):
        if any(word[k:] in macros or word[k:] in _DYNAMIC_MACROS for k in range(len(word)) if not word[k].isdigit()):
            return False
    return True


def _token(kind: str, value: str, lineno: int, lexpos: int, source) -> LexToken:
    tok = LexToken()
    tok.type, tok.value, tok.lineno, tok.lexpos, tok.source = kind, value, lineno, lexpos, source
    return tok


def _balanced(tokens) -> bool:
    """Whether every parenthesis in `tokens` is closed in them, in order."""
    depth = 0
    for tok in tokens:
        depth += (tok.value == "(") - (tok.value == ")")
        if depth < 0:
            return False
    return depth == 0


def _written_name(tokens) -> str | None:
    """The file name an #include's tokens spell ("a.h" or <a.h>), None when a macro spells it."""
    if not tokens:
        return None
    if tokens[0].value.startswith('"') and tokens[0].value.endswith('"') and len(tokens[0].value) > 1:
        return tokens[0].value[1:-1]
    if tokens[0].value == "<":
        names = list(itertools.takewhile(lambda t: t.value != ">", tokens[1:]))
        return "".join(t.value for t in names)
    return None


def _friendly(msg: str) -> str:
    """pcpp's messages in clang's words."""
    if "Could not evaluate expression" in msg:
        return "invalid expression in preprocessor conditional"
    m = re.match(r"Macro (\w+) requires (\d+) arguments but was passed (\d+)", msg)
    if m:
        more = int(m.group(3)) > int(m.group(2))
        return f"too {'many' if more else 'few'} arguments provided to function-like macro invocation"
    if re.match(r"Macro \w+ must have at least", msg):
        return "too few arguments provided to function-like macro invocation"
    if msg.startswith("Unterminated #if"):
        return "unterminated conditional directive"
    if msg.startswith("Misplaced #"):
        return f"#{msg.split('#')[1]} without #if"
    if msg == "Missing ')' in macro arguments":
        return "unterminated function-like macro invocation"
    if msg == "Bad macro definition":
        return "invalid macro definition"
    return msg[0].lower() + msg[1:] if msg else msg


def preprocess(source: str, filename: str, diags: DiagnosticEngine,
               include_dirs: list[str] | None = None,
               defines: list[str] | None = None,
               undefines: list[str] | None = None,
               implicit_cuda_runtime: bool = True,
               predefined: list[str] = PREDEFINED) -> PreprocessedSource:
    """Preprocess `source` (the text of `filename`); errors go to `diags`.  A host unit
    (grammar/languages.py) passes its own `predefined` macros and no implicit include."""
    display_names: dict[str, str] = {}
    if filename and not filename.startswith("<"):
        display_names[os.path.abspath(filename)] = filename
    pp = _Preprocessor(diags, display_names)
    for d in predefined:
        pp.define(d)
    for d in defines or []:
        name, _, value = d.partition("=")
        pp.define(f"{name} {value if value else '1'}")
    for u in undefines or []:
        pp.undef(u)
    base_dir = os.path.dirname(os.path.abspath(filename)) if filename and not filename.startswith("<") else os.getcwd()
    for d in include_dirs or []:
        pp.add_path(d)
    pp.add_path(SYSTEM_INCLUDE_DIR)
    pp.temp_path = [base_dir]
    diags.sources.add(filename, source)
    pp.parse(source, filename)
    if implicit_cuda_runtime:
        # run the implicit include first, as its own "file", so user lines stay put
        prelude = pp.parsegen("#include <cuda_runtime.h>\n", "<built-in>", None)
        pp.parser = itertools.chain(prelude, pp.parser)
    out = io.StringIO()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))   # pcpp recurses per include and per macro level
    try:
        pp.write(out)
        result = _apply_line_markers(out.getvalue(), filename)
        if "__MINICUDA_MATH_H" in pp.macros and _calls_math_library(result):
            out.write("\n")
            pp.parser = pp.parsegen(f"#include <{MATH_LIBRARY}>\n", "<built-in>", None)
            pp.write(out)
            result = _apply_line_markers(out.getvalue(), filename)
    except pcpp.OutputDirective:
        result = _apply_line_markers(out.getvalue(), filename)
    finally:
        sys.setrecursionlimit(limit)
    return result


@functools.cache
def _math_library_call() -> re.Pattern:
    """A call of one of MATH_LIBRARY's functions (the names it defines)."""
    text = read_text(os.path.join(SYSTEM_INCLUDE_DIR, MATH_LIBRARY))
    names = sorted(set(re.findall(r"^inline [^(]*?\b(\w+)\(", text, re.M)) - {""})
    return re.compile(r"\b(?:" + "|".join(n for n in names if not n.startswith("__")) + r")\s*\(")


def _calls_math_library(pp: PreprocessedSource) -> bool:
    """Whether a line of `pp` outside <math.h>'s declarations calls a MATH_LIBRARY function."""
    call = _math_library_call()
    declaring = tuple(os.sep + name for name in MATH_DECLARING)
    lines = pp.text.split("\n")
    return any(call.search(line) and not file.endswith(declaring)
               for line, (file, _) in zip(lines, pp.line_map) if "(" in line)


def _apply_line_markers(text: str, filename: str) -> PreprocessedSource:
    """Blank out `#line` markers, recording the original position of each line.

    The main file keeps the name the user gave; included files are named as
    pcpp found them."""
    main = os.path.abspath(filename) if not filename.startswith("<") else filename
    out_lines: list[str] = []
    line_map: list[tuple[str, int]] = []
    cur_file, cur_line = filename, 1
    for raw in text.split("\n"):
        m = _LINE_MARKER.match(raw)
        if m:
            cur_line, cur_file = int(m.group(1)), m.group(2)
            if not cur_file.startswith("<") and os.path.abspath(cur_file) == main:
                cur_file = filename
            out_lines.append("")
            line_map.append((cur_file, cur_line))
            continue
        out_lines.append(raw)
        line_map.append((cur_file, cur_line))
        cur_line += 1
    return PreprocessedSource("\n".join(out_lines), line_map)

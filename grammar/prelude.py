"""The prelude, parsed once: the parser's state after the headers every program starts with.

A CUDA unit's preprocessed text starts with the text of <cuda_runtime.h> (the
preprocessor includes it before the program, as nvcc does): some 750 lines of minicuda's
own declarations, most of a small program's parse.  The parser (grammar/parser.py)
parses that prefix once per process and keeps the state it leaves: the LALR parser's
stacks (the prefix's AST in their values), the postlexer's state, and the name sets
its pre-passes computed.  A later text with the same prefix (the same lines, from the
same files at the same lines) resumes from a copy of that state at the prefix's end.

The prefix's parse depends on the rest of the text only through the pre-passes' name
sets, which `scan_names` computes over the whole text (a program's typedef name, or a
header it includes, could make a prefix token a type name).  So the state is used only
where the whole text's sets agree with the prefix's own on the prefix: the same
offsets of declared names, qualifying names and declarator parentheses before the
prefix's end, and no name the two differ in spelled anywhere in the prefix.  Otherwise
(and after a syntax error, which the parse tree's way reports) the text is parsed
from its start, as every text was before: the AST is the same either way.

The prefix: the leading lines from minicuda's own headers, up to the last line of
<cuda_runtime.h> (the built-in include); a header the program includes at its top
follows it and is parsed with the program.  The copy of the state is a pickle of it,
loaded per parse (sema annotates the AST, and the parser extends the prefix's lists in
place).  A new process loads the prelude from the compile cache's directory, where the
first parse of it wrote it.
"""
from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
import re
import sys
from dataclasses import dataclass

import lark
from lark import Token

from minicuda.cache_entry import EntryFormat, compile_cache_dir, sources_fingerprint
from minicuda.grammar.preprocess import PreprocessedSource
from minicuda.version import __version__

KEPT = 4   # preludes kept per process (one per set of options that changes the headers' text)
# which of the name sets (grammar/parser.py's `_name_sets`) hold offsets: the others hold names
OFFSET_SETS = (2, 3, 4, 5)

PRELUDE_HEADER = os.sep + "cuda_runtime.h"   # the header a CUDA unit's text starts with
_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Prelude:
    """A prefix of preprocessed texts and the parse state it leaves."""
    lines: int                 # the prefix: the text's first `lines` lines, each with its newline
    end: int                   # its length
    tokens: tuple[list[str], list[int]]   # the name pre-pass's tokens of it (grammar/parser.py's _scan_tokens)
    names: tuple               # the pre-passes' sets it was parsed with (grammar/parser.py's `_name_sets`)
    words: frozenset[str]      # every identifier it spells
    frozen: bytes | None       # pickled (parser states, parser values, postlexer state); None: no state to resume

    @property
    def start(self) -> tuple[int, int, int]:
        """Where the lexer resumes: (offset, line, offset of the line's start)."""
        return self.end, self.lines + 1, self.end

    def tokens_with(self, text: str, scan) -> tuple[list[str], list[int]]:
        """`scan(text)` (the pre-pass's tokens) for a text this is the prefix of: the
        prefix's tokens and those of the rest (no token spans the prefix's last newline
        but white space, which the pre-pass drops)."""
        toks, offsets = scan(text[self.end:])
        return self.tokens[0] + toks, self.tokens[1] + [self.end + o for o in offsets]

    def fits(self, names: tuple) -> bool:
        """Whether the whole text's name sets (`_name_sets`) let the prefix parse as it did
        alone: offset sets equal on the prefix, and no name only one side has (its last
        part: `std::swap`'s `swap`) spelled in it."""
        for i, (now, then) in enumerate(zip(names, self.names)):
            if i in OFFSET_SETS:
                if len(now) < len(then) or {o for o in now if o < self.end} != then:
                    return False
            elif now != then and any(n.rpartition("::")[2] in self.words for n in now ^ then):
                return False
        return True

    def resume(self) -> tuple[list, list, dict]:
        """A fresh copy of the state: (parser states, parser values, postlexer state)."""
        return pickle.loads(self.frozen)


def prelude_lines(pp: PreprocessedSource) -> tuple[int, int] | None:
    """(lines, length) of the prefix of `pp`'s text that a Prelude can hold: its leading
    lines from minicuda's headers up to the last line of <cuda_runtime.h> (which the
    preprocessor includes first); None when it has none, or its text is not one a token
    boundary surely ends (a comment or a continued line, which the preprocessor does not
    leave in minicuda's headers)."""
    last = 0
    system = pp.system_lines()
    for i, (file, _) in enumerate(pp.line_map):
        if i + 1 not in system:
            break
        if file.endswith(PRELUDE_HEADER):
            last = i + 1
    if not last or last >= len(pp.line_map):
        return None
    end = -1
    for _ in range(last):
        end = pp.text.find("\n", end + 1)
    head = pp.text[:end + 1]
    if "/*" in head or "\\\n" in head:
        return None
    return last, end + 1


def freeze(state) -> bytes:
    """`state` pickled, its lark Tokens whole (lark's own pickling of a Token leaves out
    where it ends, which the AST's locations read)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table[Token] = _reduce_token
    pickler.dump(state)
    return out.getvalue()


def _reduce_token(tok: Token):
    return _token, (tok.type, tok.value, tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column,
                    tok.end_pos)


def _token(*fields) -> Token:
    return Token._future_new(*fields)


class Preludes:
    """The preludes of this process, by their text and where its lines come from; each
    also kept on disk, in the compile cache's directory (`prelude/`, an entry of
    minicuda/cache_entry.py's shape keyed by the prefix and minicuda itself), so that a
    new process loads it rather than parse it.  MINICUDA_COMPILE_CACHE=0 keeps none."""

    def __init__(self) -> None:
        self.kept: dict[tuple, Prelude] = {}

    def get(self, pp: PreprocessedSource, build) -> Prelude | None:
        """The Prelude for `pp`'s prefix (`build(head)` parses a new one's head, a
        PreprocessedSource of the prefix, to (tokens, name sets, frozen state)); None
        when the text has none to resume from."""
        where = prelude_lines(pp)
        if where is None:
            return None
        lines, end = where
        key = (pp.text[:end], tuple(pp.line_map[:lines]))
        prelude = self.kept.get(key)
        if prelude is None:
            if len(self.kept) >= KEPT:
                del self.kept[next(iter(self.kept))]
            prelude = self.kept[key] = _stored(key, lines, end, build)
        return prelude if prelude.frozen is not None else None


FORMAT = 1
ENTRIES = EntryFormat(b"MINICUDA-PRELUDE", FORMAT, "prelude cache", "parser state", "another prelude")


def _stored(key: tuple, lines: int, end: int, build) -> Prelude:
    """The Prelude of `key` from its entry on disk; else built, and its entry written."""
    directory = compile_cache_dir()
    if directory is None:
        return _built(key, lines, end, build)
    digest = hashlib.sha256(f"{FORMAT}\0{sources_fingerprint()}\0{lark.__version__}\0{sys.version}\0"
                            f"{key[1]!r}\0".encode())
    digest.update(key[0].encode("utf-8", "surrogatepass"))
    name = digest.hexdigest()
    path = directory / "prelude" / f"{name}.state"
    data, why = ENTRIES.read(path, PRODUCER, name)
    if data is not None:
        try:
            prelude = pickle.loads(data)
            if isinstance(prelude, Prelude) and (prelude.lines, prelude.end) == (lines, end):
                return prelude
            why = "not a prelude's state"
        except Exception as e:   # a sound checksum over a payload this minicuda cannot read
            why = f"unreadable payload ({type(e).__name__})"
    if why:
        ENTRIES.discard(path, why)
    prelude = _built(key, lines, end, build)
    ENTRIES.write(path, PRODUCER, name, pickle.dumps(prelude, protocol=pickle.HIGHEST_PROTOCOL))
    return prelude


def _built(key: tuple, lines: int, end: int, build) -> Prelude:
    tokens, names, frozen = build(PreprocessedSource(key[0], list(key[1])))
    return Prelude(lines, end, tokens, names, frozenset(_WORD.findall(key[0])), frozen)


PRODUCER = f"minicuda-{__version__}"
PRELUDES = Preludes()

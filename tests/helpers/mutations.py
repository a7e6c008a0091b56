"""Token-level mutations of C and C++ source, for the fuzzers: `mutate` applies edits
(delete a token, replace it from POOL, duplicate it, insert before it) chosen by integers
that a hypothesis strategy draws, so a failing example shrinks to a few edits.

CXX_UNITS are the C++ translation units the fuzzers mutate besides samples/: every source
of the C++ corpus (tests/programs/cxx_corpus, a multi-file program's units one at a time,
compiled with the rest of its folder) and of tests/programs/cxx_language."""
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from helpers import ROOT

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[A-Za-z_]\w*|\d[\w.]*|<<<|>>>|->|::|\+\+|--|&&|\|\||[<>=!]=|<<|>>|\S')
POOL = [";", "(", ")", "{", "}", "[", "]", ",", "<<<", ">>>", "<", ">", "*", "&", "int", "float", "void",
        "__global__", "__shared__", "__syncthreads", "threadIdx", "x", "0", "1.0f", "0x1F", '"s"', "'c'",
        "#", "#define", "#if", "\\", "return", "if", "else", "for", "while", "struct", "typedef", "template",
        "dim3", "=", "+=", "?", ":", "...", "sizeof", "@", '"', "'",
        # C++
        "class", "public:", "private:", "new", "delete", "::", "std::", "typename", "&&", "operator", "this",
        "namespace", "using", "auto", "nullptr", "[=]", "[&]", "->", "const", "static_cast<int>", "try", "catch",
        "throw", "~", "virtual", "friend", "constexpr", "decltype", "std::vector<int>", "template <typename T>"]

# one to three edits, as mutate takes them
EDITS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 10**3)), min_size=1, max_size=3)


def token_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in TOKEN.finditer(text)]


def mutate(text: str, edits: list[tuple[int, int, int]]) -> str:
    """`text` after each (kind, where, what) edit: kind 0 deletes token `where`, 1 replaces it
    with POOL[what], 2 doubles it, 3 inserts POOL[what] before it (indices taken modulo)."""
    tokens = token_spans(text)
    for kind, where, what in edits:
        start, end = tokens[where % len(tokens)]
        repl = {0: "", 1: POOL[what % len(POOL)], 2: text[start:end] + " " + text[start:end],
                3: POOL[what % len(POOL)] + " " + text[start:end]}[kind]
        text = text[:start] + repl + text[end:]
        tokens = token_spans(text)
    return text


PROGRAMS = ROOT / "tests" / "programs"
CXX_CORPUS = PROGRAMS / "cxx_corpus"
CXX_SUFFIXES = (".cu", ".cpp", ".c")


@dataclass(frozen=True)
class Unit:
    """A source file of a C++ test program. A program in a folder of its own (a multi-file
    one) is built from every source in that folder; its headers are found there or in
    the corpus's common/ folder, as the corpus's commands.txt builds it."""
    path: Path

    @property
    def name(self) -> str:
        return self.path.relative_to(PROGRAMS).as_posix()

    @property
    def text(self) -> str:
        return self.path.read_text()

    @property
    def include_dirs(self) -> tuple[str, ...]:
        return str(CXX_CORPUS / "common"), str(self.path.parent)

    @property
    def in_own_folder(self) -> bool:
        return self.path.parent.parent == CXX_CORPUS

    def program_files(self, mutated: str) -> dict[str, str]:
        """The files of this unit's program (name -> text), this unit's text replaced by `mutated`."""
        beside = sorted(self.path.parent.iterdir()) if self.in_own_folder else []
        files = {p.name: p.read_text() for p in beside if p.is_file()}
        return files | {self.path.name: mutated}

    def program_sources(self) -> list[str]:
        """The sources compiled together with this one, in name order (this one among them)."""
        return sorted(name for name in self.program_files("") if name.endswith(CXX_SUFFIXES))


def cxx_units() -> dict[str, Unit]:
    paths = [p for p in CXX_CORPUS.rglob("*") if p.suffix in CXX_SUFFIXES and p.parent.name != "common"]
    paths += (PROGRAMS / "cxx_language").glob("*.cu")
    return {unit.name: unit for unit in sorted(map(Unit, paths), key=lambda u: u.name)}


CXX_UNITS = cxx_units()

"""Token-level mutations of C source, for the fuzzers: `mutate` applies edits (delete a
token, replace it from POOL, duplicate it, insert before it) chosen by integers that a
hypothesis strategy draws, so a failing example shrinks to a few edits."""
import re

from hypothesis import strategies as st

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[A-Za-z_]\w*|\d[\w.]*|<<<|>>>|->|\+\+|--|&&|\|\||[<>=!]=|<<|>>|\S')
POOL = [";", "(", ")", "{", "}", "[", "]", ",", "<<<", ">>>", "<", ">", "*", "&", "int", "float", "void",
        "__global__", "__shared__", "__syncthreads", "threadIdx", "x", "0", "1.0f", "0x1F", '"s"', "'c'",
        "#", "#define", "#if", "\\", "return", "if", "else", "for", "while", "struct", "typedef", "template",
        "dim3", "=", "+=", "?", ":", "...", "sizeof", "@", '"', "'"]

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

"""minicuda's own headers (grammar/include/) survive a user's macros.

A program may `#define T 64`, `#define N 1024`, `#define SIZE`, `#define min(a,b) ...`
or `#define check(x) ...` before it includes a system header; real headers name
their parameters, locals and template parameters with reserved names (`__x`, `_Tp`)
so that no user macro can reach them.  `local_names` finds every name a header
declares for itself (a parameter, a local variable, a template parameter); the test
defines each of them that is not reserved, and the short names users like, as
macros before including every bundled header, and the program must still check.
The public names (functions, types, struct fields, macros) are the standard's: a
program that defines those as macros is wrong with any compiler's headers.
"""
import re
from pathlib import Path

import pytest

from minicuda.cli import minicuda_main

INCLUDE = Path(__file__).resolve().parents[2] / "grammar" / "include"
HEADERS = sorted(p.relative_to(INCLUDE).as_posix() for p in INCLUDE.rglob("*") if p.is_file())

KEYWORDS = set("""
auto bool break case catch char class const constexpr continue decltype default delete do double else enum
explicit extern false float for friend goto if inline int long mutable namespace new noexcept nullptr operator
private protected public register return short signed sizeof static static_assert struct switch template this
throw true try typedef typename union unsigned using virtual void volatile while
""".split())
NOT_A_TYPE = {"return", "case", "goto", "sizeof", "new", "delete", "throw", "else", "do", "operator"}
USER_MACROS = ["T 64", "N 1024", "M 16", "K 8", "SIZE", "BLOCK 256", "BLOCK_SIZE 256", "TILE 16", "DIM 2",
               "min(a, b) ((a) < (b) ? (a) : (b))", "max(a, b) ((a) > (b) ? (a) : (b))", "check(x) (x)",
               "CHECK(call) (call)", "a 1", "b 2", "c 3", "n 4", "s 5", "t 6", "v 7", "i 8", "j 9", "k 10",
               "p 11", "ptr 12", "size 13", "count 14", "len 15", "src 16", "dst 17", "str 18", "fmt 19",
               "format 20", "value 21", "val 22", "data 23", "buf 24", "mask 25", "width 26", "stream 27",
               "mode 28", "path 29", "base 30", "end 31", "status 33", "seed 34", "tag 35",
               "address 36", "compare 37", "offset 38", "kind 39", "device 40", "flags 41", "e 42", "f 43"]
# the standard library's public member names (std::vector's size(), data(), end(); std::string's
# compare; a stream's str, width): a program that defines one as a macro breaks libstdc++'s headers too
# and the CUDA runtime's public struct members (cudaPointerAttributes::device), which CUDA's own header
# declares by those names as well
CXX_MEMBERS = {"compare", "data", "end", "size", "str", "width", "device"}

_TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|::|->|&&|\|\||\.\.\.|\S")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", re.S)


def _code(text: str) -> list[list[str]]:
    """The header's code as token lists: each macro body (its parameters dropped) and the
    text outside directives; comments and literals become spaces."""
    text = _COMMENT.sub(lambda m: " " if m.group(0)[0] in "/" else '""', text).replace("\\\n", " ")
    pieces, outside = [], []
    for line in text.split("\n"):
        stripped = line.strip()
        m = re.match(r"#\s*define\s+\w+(\(([^)]*)\))?(.*)", stripped)
        if m:
            params = set(re.findall(r"\w+", m.group(2) or ""))
            pieces.append([t for t in _TOKEN.findall(m.group(3)) if t not in params])
        elif not stripped.startswith("#"):
            outside.extend(_TOKEN.findall(line))
    return pieces + [outside]


def local_names(text: str) -> set[str]:
    """Every name `text` declares for itself: parameters (`f(int count)`), template
    parameters (`template <typename T>`), and locals of an inline function's body."""
    found = set()
    for tokens in _code(text):
        depth, bodies, angle = 0, [], 0
        for i, tok in enumerate(tokens):
            prev = tokens[i - 1] if i else ""
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            elif tok == "{":
                bodies.append(prev == ")" or prev == "const")
            elif tok == "}" and bodies:
                bodies.pop()
            elif tok == "<" and prev == "template":
                angle += 1
            elif tok == ">" and angle:
                angle -= 1
            if not re.fullmatch(r"[A-Za-z]\w*", tok) or tok in KEYWORDS:
                continue
            if prev == "*" and i > 1 and tokens[i - 2] == "(" and nxt == ")":
                continue   # a function pointer's own name: `typedef void (*cudaHostFn_t)(void *);`
            typed = (re.fullmatch(r"\w+", prev) and prev not in NOT_A_TYPE) or prev in ("*", "&", "&&", ">", "]")
            if angle and prev in ("typename", "class"):
                found.add(tok)
            elif typed and depth > 0 and nxt in (",", ")", "=", "["):
                found.add(tok)
            elif typed and bodies and bodies[-1] and nxt in ("=", ";", "[", ","):
                found.add(tok)
    return found


def test_local_names_finds_parameters_template_parameters_and_locals():
    text = ("#define F(name) double name(double x);\nint f(const char *s, size_t n, int v[], int w = 3);\n"
            "template <typename T, class U> T g(T a) { int i = 0; T *p; return a; }\n"
            "int h(void); int q(int, unsigned); /* int c(int z); */ struct P { int fx, fy; };\n"
            "typedef void (*callback_t)(void *);\n"
            "#define assert(e) ((e) ? (void)0 : fail(#e))\n")
    assert local_names(text) == {"x", "s", "n", "v", "w", "T", "U", "a", "i", "p"}


def test_no_header_declares_an_unreserved_name_of_its_own():
    unreserved = {h: sorted(local_names((INCLUDE / h).read_text()) - {""}) for h in HEADERS}
    assert {h: names for h, names in unreserved.items() if names} == {}


@pytest.mark.parametrize("language", ["cu", "cpp"])
def test_every_header_survives_the_users_macros(language, tmp_path, capsys):
    names = set().union(*(local_names((INCLUDE / h).read_text()) for h in HEADERS))
    macros = [d for d in USER_MACROS if d.split()[0] not in CXX_MEMBERS]
    defines = [f"#define {d}" for d in macros] + [f"#define {n} 64" for n in sorted(names)]
    includes = [f"#include <{h}>" for h in HEADERS]
    program = tmp_path / f"p.{language}"
    program.write_text("\n".join(defines + includes + ["int main() { return 0; }", ""]))
    assert minicuda_main(["check", str(program)]) == 0, capsys.readouterr().err

"""The prelude parsed once (grammar/prelude.py): a program parsed from the state the
prelude's parse left gives the AST and the diagnostics a parse from the text's start
gives, and the state is not used where the program's names could change how the
prelude parses."""
import pytest

from helpers.ast_shape import first_difference
from minicuda.diagnostics import DiagnosticEngine
from minicuda.frontend import SourceText, preprocess_only
from minicuda.grammar import parser
from minicuda.grammar.prelude import PRELUDES, Prelude, Preludes, prelude_lines

KERNEL = """#include <cstdio>
__global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}
int main() { printf("%d\\n", 1); return 0; }
"""


def _parse(text: str, resume: bool, monkeypatch) -> tuple:
    """(the AST, the diagnostics, how many parses resumed from the prelude)."""
    pp, _ = preprocess_only(SourceText("prog.cu", text))
    resumed = []
    original = Prelude.resume
    monkeypatch.setattr(Prelude, "resume", lambda self: resumed.append(1) or original(self))
    with monkeypatch.context() as m:
        if not resume:
            m.setattr(PRELUDES, "get", lambda pp, build: None)
        diags = DiagnosticEngine()
        tu = parser.parse(pp, diags)
    return tu, [(str(d.loc), d.message) for d in diags.diagnostics], len(resumed)


def test_the_prelude_is_the_text_of_cuda_runtime_h():
    pp, _ = preprocess_only(SourceText("prog.cu", KERNEL))
    lines, end = prelude_lines(pp)
    assert pp.line_map[lines - 1][0].endswith("cuda_runtime.h")
    assert pp.line_map[lines][0] != pp.line_map[lines - 1][0]   # what follows: the program's <cstdio>
    assert pp.text[end - 1] == "\n" and pp.text[:end].count("\n") == lines


def test_a_resumed_parse_builds_the_whole_parse_s_ast(monkeypatch):
    whole, whole_diags, _ = _parse(KERNEL, False, monkeypatch)
    for _ in range(2):   # the first parse keeps the state, the second uses a copy of it again
        tu, diags, resumed = _parse(KERNEL, True, monkeypatch)
        assert resumed == 1
        assert first_difference(whole, tu) is None
        assert diags == whole_diags


def test_resumed_parses_do_not_share_the_prelude_s_nodes(monkeypatch):
    first, _, _ = _parse(KERNEL, True, monkeypatch)
    second, _, _ = _parse(KERNEL, True, monkeypatch)
    assert first.decls[0] is not second.decls[0]
    assert first_difference(first, second) is None


@pytest.mark.parametrize("program", [
    # a name the program declares as a type, which the prelude spells as a parameter's
    "typedef int x;\nint main() { x c = 0; return c; }\n",
    # and as a template
    "template <typename T> T id(T a) { return a; }\nint main() { return id(0); }\n",
])
def test_a_program_s_names_that_the_prelude_spells_parse_it_from_the_start(program, monkeypatch):
    pp, _ = preprocess_only(SourceText("prog.cu", program))
    words = PRELUDES.get(pp, lambda head: parser._parse_prelude(*parser._lark(), head)).words
    assert {"x", "id"} <= words
    whole, whole_diags, _ = _parse(program, False, monkeypatch)
    tu, diags, resumed = _parse(program, True, monkeypatch)
    assert resumed == 0
    assert first_difference(whole, tu) is None and diags == whole_diags


def test_syntax_errors_are_reported_as_from_the_start(monkeypatch):
    program = "__global__ void k(int *a) {\n    a[0] = 1\n}\nint main() { int x = ; return 0; }\n"
    _, whole_diags, _ = _parse(program, False, monkeypatch)
    tu, diags, _ = _parse(program, True, monkeypatch)
    assert tu is not None and diags == whole_diags
    assert [d[0] for d in diags] == ["prog.cu:2:13", "prog.cu:4:22"]


def test_a_new_process_loads_the_prelude_s_state_from_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MINICUDA_COMPILE_CACHE_DIR", str(tmp_path))
    pp, _ = preprocess_only(SourceText("prog.cu", KERNEL))
    builds = []

    def build(head):
        builds.append(head)
        return parser._parse_prelude(*parser._lark(), head)

    first = Preludes().get(pp, build)   # a process's own table: a new one is a new process's
    second = Preludes().get(pp, build)
    assert len(builds) == 1 and len(list((tmp_path / "prelude").glob("*.state"))) == 1
    assert first.frozen == second.frozen and first.names == second.names
    entry = next((tmp_path / "prelude").glob("*.state"))
    entry.write_bytes(entry.read_bytes()[:-10])
    third = Preludes().get(pp, build)
    assert len(builds) == 2 and third.frozen == first.frozen
    assert "discarding damaged prelude cache entry" in capsys.readouterr().err
    monkeypatch.setenv("MINICUDA_COMPILE_CACHE", "0")
    Preludes().get(pp, build)
    assert len(builds) == 3

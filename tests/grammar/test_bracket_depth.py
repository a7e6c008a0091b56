"""The bracket limit (clang's -fbracket-depth, 256 by default): (), [] and {} nested
deeper than the limit, each kind counted on its own as clang counts them, are a fatal
error at the bracket that goes over, with clang's note; the flag raises the limit
on minicudac, `minicuda run` and `check`, and in the Python API."""
import sys

import pytest

import minicuda
from minicuda.cli import minicuda_main, minicudac_main
from minicuda.diagnostics import CompileError
from minicuda.grammar.nesting import bracket_overflow


def blocks(depth: int) -> str:
    """A kernel whose body's braces nest `depth` deep (the body's own included)."""
    return "__global__ void k(int *p) {\n" + "{" * (depth - 1) + "p[0]++;" + "}" * (depth - 1) + "\n}\n"


def write(tmp_path, text: str, name: str = "nest.cu"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_the_bracket_that_goes_over_the_limit_is_a_fatal_error_with_clangs_note(tmp_path, capsys):
    path = write(tmp_path, blocks(257))
    assert minicudac_main([path, "-fsyntax-only"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:256: fatal error: bracket nesting level exceeded maximum of 256" in err
    assert f"{path}:2:256: note: use -fbracket-depth=N to increase maximum nesting level" in err
    assert "internal compiler error" not in err and "1 error generated." in err


def test_the_limit_itself_is_allowed(tmp_path, capsys):
    assert minicudac_main([write(tmp_path, blocks(256)), "-fsyntax-only"]) == 0


def test_five_thousand_nested_blocks_are_the_limits_error_not_an_internal_one(tmp_path, capsys):
    path = write(tmp_path, blocks(5000) + "int main() { k<<<1, 1>>>(0); return 0; }\n")
    assert minicuda_main(["run", path]) == 1
    err = capsys.readouterr().err
    assert "bracket nesting level exceeded maximum of 256" in err and "internal compiler error" not in err


def test_the_flag_raises_the_limit_on_every_command(tmp_path, capsys):
    path = write(tmp_path, blocks(300) + "int main() { return 3; }\n")
    assert minicudac_main([path, "-fbracket-depth=300", "-o", str(tmp_path / "out.sass")]) == 0
    assert minicuda_main(["check", path, "-fbracket-depth=300"]) == 0
    assert minicuda_main(["run", path, "-fbracket-depth", "300"]) == 3
    assert minicuda_main(["check", path, "-fbracket-depth=299"]) == 1
    assert "exceeded maximum of 299" in capsys.readouterr().err


def test_the_flag_lowers_the_limit_and_points_at_the_bracket(tmp_path, capsys):
    path = write(tmp_path, "int main() { int a[2] = {0, 0}; return a[a[a[0]]]; }\n")
    assert minicudac_main([path, "-fsyntax-only", "-fbracket-depth=2"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1:45: fatal error: bracket nesting level exceeded maximum of 2" in err
    assert "    1 | int main()" in err


def test_the_python_api_takes_the_limit():
    with pytest.raises(CompileError, match="bracket nesting level exceeded maximum of 100"):
        minicuda.compile(blocks(101), bracket_depth=100)
    assert "k" in minicuda.compile(blocks(101), bracket_depth=101).functions


def test_each_kind_is_counted_on_its_own_as_clang_counts_them():
    mixed = "{" * 200 + "(" * 200 + "[" * 200 + "]" * 200 + ")" * 200 + "}" * 200
    assert bracket_overflow(mixed, 256) is None
    assert bracket_overflow("(" * 256 + ")" * 256, 256) is None
    assert bracket_overflow("x" + "(" * 257, 256) == 257
    assert bracket_overflow("[" * 3 + "{" * 3 + "[", 3) == 6


def test_brackets_in_strings_characters_and_comments_do_not_count():
    text = '"' + "(" * 300 + '" \'(\' // ' + "{" * 300 + "\n/* " + "[" * 300 + " */"
    assert bracket_overflow(text, 256) is None
    assert bracket_overflow("( ) " * 1000, 1) is None


def test_a_sass_input_refuses_the_flag(tmp_path, capsys):
    path = write(tmp_path, "", "m.sass")
    assert minicudac_main([path, "-fbracket-depth=9"]) == 2
    assert "-fbracket-depth applies to a .cu source" in capsys.readouterr().err


def test_a_bad_depth_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        minicudac_main([write(tmp_path, blocks(2)), "-fbracket-depth=0"])
    assert e.value.code == 2


def test_emit_ast_prints_a_long_chain_under_a_low_recursion_limit(tmp_path, capsys):
    path = write(tmp_path, "__global__ void k(int *p, int x) { p[0] = " + "+".join(["x"] * 3000) + "; }\n")
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        status = minicudac_main([path, "--emit=ast"])
    finally:
        sys.setrecursionlimit(saved)
    out = capsys.readouterr().out
    assert status == 0
    assert out.count("Name 'x'") == 3000 and out.count("Binary '+'") == 2999
    assert max(len(line) - len(line.lstrip()) for line in out.splitlines()) == 2 * 3003   # the first x

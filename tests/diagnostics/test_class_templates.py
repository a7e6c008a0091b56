"""A class template used wrongly is a clang-shaped error at the use: too few or too many
arguments, or its name without arguments outside its own class."""
import pytest

from minicuda.cli import minicuda_main

ARR = "template <typename T, int N> struct Arr { T v[N]; };\n"

CASES = [
    ("int main() { Arr<int> a; return 0; }",
     ["x.cu:2:14: error: too few template arguments for class template 'Arr'"]),
    ("int main() { Arr b; return 0; }",
     ["x.cu:2:14: error: use of class template 'Arr' requires template arguments"]),
    ("int main() { Arr<int, 2, 3> c; return 0; }",
     ["x.cu:2:26: error: too many template arguments for class template 'Arr'"]),
    ("template <> struct Nope<int> { int x; };",
     ["x.cu:2:13: error: explicit specialization of undeclared template struct 'Nope'"]),
]


@pytest.mark.parametrize("body,expected", CASES, ids=range(len(CASES)))
def test_class_template_errors_are_located(tmp_path, monkeypatch, capsys, body, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.cu").write_text(ARR + body + "\n")
    assert minicuda_main(["check", "x.cu"]) == 1
    errors = [l for l in capsys.readouterr().err.splitlines() if l.startswith("x.cu:")]
    assert errors == expected

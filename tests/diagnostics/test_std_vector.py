"""<vector>'s corners minicuda does not support, and std::vector used without its header,
are clang-shaped errors at the use."""
import pytest

from minicuda.cli import minicuda_main

CASES = [
    ("#include <cstdio>\nint main() { std::vector<int> v; return 0; }\n",
     ["x.cu:2:14: error: no member named 'vector' in namespace 'std'"]),
    ("#include <vector>\nstruct R { int x; };\nint main() { R r; for (int x : r) { } return 0; }\n",
     ["x.cu:3:32: error: range-based 'for' over a value of type 'R' is not supported (only arrays of known size "
      "and classes with begin() and end())"]),
]


@pytest.mark.parametrize("source,expected", CASES, ids=range(len(CASES)))
def test_vector_errors_are_located(tmp_path, monkeypatch, capsys, source, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.cu").write_text(source)
    assert minicuda_main(["check", "x.cu"]) == 1
    errors = [l for l in capsys.readouterr().err.splitlines() if l.startswith("x.cu:")]
    assert errors == expected

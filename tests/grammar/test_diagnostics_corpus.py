"""The corpus of wrong programs: each tests/diagnostics/*.cu file states, in
`// EXPECT: LINE:COL: SEVERITY: MESSAGE` comments, exactly the diagnostics (errors
and warnings, in order; notes are not listed) that compiling it must produce."""
import pathlib
import re

import pytest

from minicuda.cli import minicudac_main

CORPUS = sorted((pathlib.Path(__file__).parent / "diagnostics").glob("*.cu"))
EXPECT = re.compile(r"//\s*EXPECT:\s*(.*\S)")


def expectations(path: pathlib.Path) -> list[str]:
    return [m.group(1) for m in EXPECT.finditer(path.read_text())]


def produced(path: pathlib.Path, capsys) -> tuple[int, list[str], str]:
    rc = minicudac_main([str(path)])
    err = capsys.readouterr().err
    prefix = f"{path}:"
    lines = [l[len(prefix):] for l in err.splitlines()
             if l.startswith(prefix) and re.search(r": (error|warning|fatal error): ", l)]
    return rc, lines, err


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_diagnostics(path, capsys):
    expected = expectations(path)
    assert expected, f"{path.name} states no EXPECT lines"
    rc, lines, err = produced(path, capsys)
    assert lines == expected, err
    assert "Traceback" not in err
    if any(": error: " in e or ": fatal error: " in e for e in expected):
        assert rc == 1
        assert re.search(r"\d+ errors? generated\.", err)
        # every error shows its source line and a caret under the column
        assert re.search(r"^\s+\d+ \| .*\n\s+\| *\^", err, re.M)

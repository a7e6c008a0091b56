"""Wrong and unsupported C++ (references, new/delete, namespaces, enums, casts,
range-for, static_assert): each tests/diagnostics/cxx_language/*.cu states, in
`// EXPECT: LINE:COL: SEVERITY: MESSAGE` comments, exactly the errors and warnings
(in order) that compiling it gives, each at its own construct."""
import pathlib
import re

import pytest

from minicuda.cli import minicudac_main

CORPUS = sorted((pathlib.Path(__file__).parent / "cxx_language").glob("*.cu"))
EXPECT = re.compile(r"//\s*EXPECT:\s*(.*\S)")


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_diagnostics(path, capsys):
    expected = [m.group(1) for m in EXPECT.finditer(path.read_text())]
    assert expected, f"{path.name} states no EXPECT lines"
    status = minicudac_main([str(path)])
    err = capsys.readouterr().err
    prefix = f"{path}:"
    lines = [l[len(prefix):] for l in err.splitlines()
             if l.startswith(prefix) and re.search(r": (error|warning|fatal error): ", l)]
    assert lines == expected, err
    assert status == 1 and "Traceback" not in err

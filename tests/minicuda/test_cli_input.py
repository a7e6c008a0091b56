"""The command lines read their input only from a file, or from `-` (standard input)
with `-x cu`, as clang does: a name that is no file is "no such file or directory",
never compiled as program text."""
import io

import pytest

from minicuda.cli import minicuda_main, minicudac_main

PROGRAM = b'#include <cstdio>\nint main() { printf("from stdin\\n"); return 0; }\n'


@pytest.mark.parametrize("command", [[], ["-E"], ["--emit=ast"], ["-fsyntax-only"], ["-x", "cu"]])
def test_minicudac_reports_a_missing_input_without_extension(capsys, command):
    assert minicudac_main(command + ["nosuchfile"]) == 1
    assert capsys.readouterr().err == "minicudac: error: no such file or directory: 'nosuchfile'\n"


@pytest.mark.parametrize("command", [["run"], ["check"], ["run", "-x", "cu"]])
def test_minicuda_reports_a_missing_input_without_extension(capsys, command):
    assert minicuda_main(command + ["nosuchfile"]) == 1
    assert capsys.readouterr().err == "minicuda: error: no such file or directory: 'nosuchfile'\n"


def test_a_name_that_looks_like_program_text_is_a_file_name(capsys):
    assert minicudac_main(["-fsyntax-only", "int main() { return 0; }"]) == 1
    assert "no such file or directory: 'int main() { return 0; }'" in capsys.readouterr().err


def stdin_of(monkeypatch, data: bytes):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_standard_input_needs_x_cu(capsys, monkeypatch):
    stdin_of(monkeypatch, PROGRAM)
    assert minicudac_main(["-"]) == 1
    assert capsys.readouterr().err == "minicudac: error: -x cu required when input is from standard input\n"
    assert minicuda_main(["run", "-"]) == 1
    assert capsys.readouterr().err == "minicuda: error: -x cu required when input is from standard input\n"


def test_run_reads_the_program_from_standard_input(capsys, monkeypatch):
    stdin_of(monkeypatch, PROGRAM)
    assert minicuda_main(["run", "-x", "cu", "-"]) == 0
    assert capsys.readouterr().out == "from stdin\n"


def test_errors_in_standard_input_are_located_in_stdin(capsys, monkeypatch):
    stdin_of(monkeypatch, b"int main() { int x = ; }\n")
    assert minicudac_main(["-x", "cuda", "-", "-fsyntax-only"]) == 1
    assert capsys.readouterr().err.startswith("<stdin>:1:22: error: expected expression")


def test_x_cu_compiles_a_file_of_any_name(tmp_path, capsys):
    path = tmp_path / "program.txt"
    path.write_bytes(PROGRAM)
    assert minicuda_main(["run", "-x", "cu", str(path)]) == 0
    assert capsys.readouterr().out == "from stdin\n"

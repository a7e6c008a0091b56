"""minicudac on the command line: what each flag writes where, and its exit status."""
import subprocess
import sys

import pytest

from helpers import GROUNDTRUTH
from minicuda.cli import minicudac_main


def test_cli_emit_ast(capsys):
    assert minicudac_main([str(GROUNDTRUTH), "--emit=ast"]) == 0
    out = capsys.readouterr().out
    assert "FunctionDecl mathKernel4 'void (float *)' [global]" in out
    assert "cudaMalloc" not in out  # system declarations are not dumped


def test_cli_preprocess_only(capsys, tmp_path):
    f = tmp_path / "m.cu"
    f.write_text("#define N 3\nint a[N];\n")
    assert minicudac_main(["-E", str(f)]) == 0
    assert "int a[3];" in capsys.readouterr().out


def test_cli_output_file(tmp_path):
    out = tmp_path / "ast.txt"
    assert minicudac_main([str(GROUNDTRUTH), "--emit=ast", "-o", str(out)]) == 0
    assert "mathKernel1" in out.read_text()


def test_cli_missing_file_and_bad_flag_exit_non_zero(capsys):
    assert minicudac_main(["/nonexistent/x.cu"]) == 1
    assert "no such file or directory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        minicudac_main(["--emit=bogus", str(GROUNDTRUTH)])
    assert e.value.code == 2


def test_console_script_runs_as_a_process():
    r = subprocess.run([sys.executable, "-m", "minicuda.cli", str(GROUNDTRUTH), "-fsyntax-only"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr

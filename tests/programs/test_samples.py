"""Every bundled sample and the ground-truth kernels parse and check; the CLI works."""
import subprocess
import sys

import pytest

from helpers import GROUNDTRUTH, SAMPLES
from minicuda.cli import minicudac_main
from minicuda.frontend import load

PROGRAMS = SAMPLES + [GROUNDTRUTH]


def test_the_required_samples_exist():
    names = {p.name for p in SAMPLES}
    assert {"simpleDivergence.cu", "reduceInteger.cu", "sumMatrix.cu", "warpLock.cu"} <= names


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_checks_cleanly(path):
    fe = load(str(path))
    assert not [d for d in fe.diags.diagnostics if d.severity in ("error", "fatal error")]
    assert fe.tu.functions


def test_simple_divergence_kernels_and_host_main():
    tu = load(str(next(p for p in SAMPLES if p.name == "simpleDivergence.cu"))).tu
    spaces = {f.name: f.exec_space for f in tu.functions}
    for k in ("mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4", "warmingup"):
        assert spaces[k] == {"global"}
    assert spaces["main"] == {"host"}


def test_reduction_instantiates_the_complete_unroll_template():
    tu = load(str(next(p for p in SAMPLES if p.name == "reduceInteger.cu"))).tu
    sizes = sorted(f.template_args[0] for f in tu.functions if f.name == "reduceCompleteUnroll")
    assert sizes == [64, 128, 256, 512, 1024]


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

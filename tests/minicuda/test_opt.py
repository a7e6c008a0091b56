"""minicudac on a module text (minicuda/opt.py): `--passes`, `--print-analysis` and
`--print-changes`, as LLVM's opt runs passes; what it refuses, and that its annotated
text parses back to the module it printed."""
import pytest

from minicuda.cli import minicudac_main
from minicuda.ir import format_module, parse_module
from minicuda.opt import register_list
from minicuda.pipeline import PASSES

KERNEL = """.kernel k (%rd0:out:8:pointer)
  .shared 0 .local 0
.L0:
  S2R %r0, SR_TID.X
  IADD %r1, 2, 3
  ISETP.LT %p0, %r0, %r1
  @%p0 BRA .L2
.L1:
  IADD %r2, %r1, 1
.L2:
  STG [%rd0], %r1
  EXIT
.end k
"""


@pytest.fixture
def ir_file(tmp_path):
    path = tmp_path / "k.ir"
    path.write_text(KERNEL)
    return path


def test_passes_run_in_order_and_print_the_module(ir_file, capsys):
    assert minicudac_main([str(ir_file), "--passes=constant-fold,dce", "--print-changes"]) == 0
    out = capsys.readouterr().out
    assert "  // changed: constant-fold dce\n" in out
    assert "MOV %r1, 5" in out and "%r2" not in out
    assert parse_module(out).functions["k"].blocks[1].instrs == []


def test_a_module_text_without_passes_is_printed_again(ir_file, capsys):
    assert minicudac_main([str(ir_file)]) == 0
    assert parse_module(capsys.readouterr().out) == parse_module(KERNEL)


def test_the_annotated_text_parses_back_to_the_printed_module(ir_file, capsys):
    args = [str(ir_file), "--passes=reconverge"]
    analyses = [f"--print-analysis={name}" for name in ("cfg", "ipdom", "divergence", "liveness")]
    assert minicudac_main(args + analyses + ["--print-changes"]) == 0
    annotated = capsys.readouterr().out
    assert "// ipdom: .L2" in annotated and "// divergence: divergent branch" in annotated
    assert minicudac_main(args) == 0
    plain = capsys.readouterr().out
    assert format_module(parse_module(annotated)) == plain


def test_options_reach_the_passes_and_the_module(ir_file, capsys):
    assert minicudac_main([str(ir_file), "--passes=reconverge", "-arch=sm_60"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(".arch sm_60\n.sched stack\n") and "SSY .L2" in out
    assert minicudac_main([str(ir_file), "--passes=reconverge", "-arch=sm_60", "--sched=its"]) == 0
    assert "BSSY B0, .L2" in capsys.readouterr().out


def test_print_after_and_output_file(ir_file, tmp_path, capsys):
    out = tmp_path / "out.ir"
    assert minicudac_main([str(ir_file), "--passes=dce", "--print-after=dce", "-o", str(out)]) == 0
    assert "// *** IR after dce ***" in capsys.readouterr().err
    assert "IADD %r2" not in out.read_text()


def test_a_sass_file_takes_passes_too(ir_file, tmp_path, capsys):
    sass = tmp_path / "k.sass"
    assert minicudac_main([str(ir_file), "--passes=regalloc", "-o", str(sass)]) == 0
    assert minicudac_main([str(sass), "--print-analysis=ipdom"]) == 0
    assert "// ipdom: .L2" in capsys.readouterr().out


def test_an_unknown_pass_is_the_registrys_error(ir_file, capsys):
    assert minicudac_main([str(ir_file), "--passes=dce,hoist_sink"]) == 2
    err = capsys.readouterr().err
    assert "unknown pass 'hoist_sink' for --passes" in err and ", ".join(PASSES) in err


def test_passes_on_a_source_or_source_options_on_a_module_are_usage_errors(ir_file, tmp_path, capsys):
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k() {}\n")
    assert minicudac_main([str(source), "--passes=dce"]) == 2
    assert "apply to a module text" in capsys.readouterr().err
    assert minicudac_main([str(ir_file), "--passes=dce", "-O0"]) == 2
    assert "-O applies to a .cu source" in capsys.readouterr().err
    assert minicudac_main([str(ir_file), "--emit=cfg"]) == 2
    with pytest.raises(SystemExit) as e:
        minicudac_main([str(ir_file), "--print-analysis=bogus"])
    assert e.value.code == 2


def test_a_malformed_module_is_a_located_error(tmp_path, capsys):
    bad = tmp_path / "bad.ir"
    bad.write_text(".kernel k ()\n.L0:\n  BOGUS %r1\n  EXIT\n.end k\n")
    assert minicudac_main([str(bad), "--passes=dce"]) == 1
    assert f"{bad}:3: error:" in capsys.readouterr().err
    bad.write_text(".kernel k ()\n.L0:\n  BRA .L9\n.end k\n")
    assert minicudac_main([str(bad), "--passes=dce"]) == 1
    assert f"{bad}: error: k:.L0: branch to unknown label .L9" in capsys.readouterr().err


def test_registers_are_listed_in_register_order():
    assert register_list(["%rd1", "%r10", "%r2", "%p0", "R3", "R12"]) == "%p0 %r2 %r10 %rd1 R3 R12"
    assert register_list([]) == "-"

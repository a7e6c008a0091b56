"""Reconvergence markers: BSSY/BSYNC on Volta and newer, SSY/SYNC on stack architectures."""
import json

import minicuda
from minicuda.cli import minicudac_main
from minicuda.ir import format_function, parse_module
from minicuda.pipeline import Options, run_passes
from minicuda.passes.reconverge import Reconverge
from minicuda.passes.regalloc import RegisterAllocation, resource_usage

DIVERGENT_IF = """.kernel k (%rd0:p:8:pointer)
  .shared 0 .local 0
.L_entry:
  S2R %r0, SR_TID.X
  ISETP.EQ.S32 %p0, %r0, 0
  @!%p0 BRA .L2
.L1:
  STG [%rd0], %r0
.L2:
  EXIT
.end k
"""

UNIFORM_IF = DIVERGENT_IF.replace("S2R %r0, SR_TID.X", "S2R %r0, SR_CTAID.X")

LOOP = """.kernel k (%r1:n:4:value)
  .shared 0 .local 0
.L_entry:
  S2R %r0, SR_TID.X
  BRA .L1
.L1:
  ISETP.LT.S32 %p0, %r0, %r1
  @!%p0 BRA .L3
.L2:
  IADD.S32 %r0, %r0, 32
  BRA .L1
.L3:
  EXIT
.end k
"""


def run(text, stack):
    fn = parse_module(text).functions["k"]
    run_passes(fn, [Reconverge(stack_arch=stack)], Options(verify_each=True))
    return format_function(fn, with_loc=False)


def test_volta_brackets_a_divergent_branch_with_bssy_and_bsync_at_its_ipdom():
    text = run(DIVERGENT_IF, stack=False)
    assert "BSSY B0, .L2\n  @!%p0 BRA .L2" in text
    assert ".L2:\n  BSYNC B0\n  EXIT" in text


def test_stack_architectures_use_ssy_and_sync():
    text = run(DIVERGENT_IF, stack=True)
    assert "SSY .L2\n  @!%p0 BRA .L2" in text and ".L2:\n  SYNC" in text


def test_a_uniform_branch_needs_no_marker():
    assert "BSSY" not in run(UNIFORM_IF, stack=False)


def test_a_divergent_loop_gets_its_ssy_in_the_preheader_on_stack_architectures():
    text = run(LOOP, stack=True)
    assert "S2R %r0, SR_TID.X\n  SSY .L3\n  BRA .L1" in text
    assert ".L3:\n  SYNC" in text


def test_a_divergent_loop_exit_gets_no_convergence_barrier_on_volta():
    # a thread leaving a spin loop must not wait for the spinning ones (ITS forward progress)
    assert "BSSY" not in run(LOOP, stack=False)


def test_register_allocation_uses_aligned_pairs_and_reports_ptxas_lines():
    fn = parse_module(DIVERGENT_IF).functions["k"]
    run_passes(fn, [RegisterAllocation()], Options(verify_each=True))
    assert fn.params[0].reg.name in ("R0", "R2", "R4")
    assert all(not r.name.startswith("%") for i in fn.instructions() for r in i.uses() + list(i.dsts))
    lines = resource_usage(fn, "sm_90").ptxas_lines()
    assert lines[0] == "ptxas info    : Compiling entry function 'k' for 'sm_90'"
    assert lines[-1].startswith("ptxas info    : Used ") and "registers" in lines[-1]


def test_cli_predication_report_json_has_exactly_the_documented_keys(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float *c) {\n  int t = threadIdx.x;\n  float a = 0.0f;\n"
                 "  if (t % 2 == 0) a = 1.0f; else a = 2.0f;\n  c[t] = a;\n}\n")
    assert minicudac_main([str(f), "--report=predication", "--report-format=json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert set(record) == {"file", "line", "function", "uniform", "instructions", "threshold", "predicated", "reason"}
    assert (record["line"], record["function"], record["uniform"], record["predicated"]) == (4, "k", False, True)


def test_cli_emits_sass_like_text_that_parses_back(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(int *p, int n) { int i = threadIdx.x; if (i < n) p[i] = 2 * i; }\n")
    out = tmp_path / "k.sass"
    assert minicudac_main([str(f), "--emit=sass-like", "-arch=pascal", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("// minicuda sass-like output for sm_60")
    module = parse_module(text)
    assert "k" in module.functions and module.arch == "sm_60"


def test_cli_rejects_an_unknown_architecture_and_pass(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k() {}\n")
    assert minicudac_main([str(f), "-arch=sm_13"]) == 2
    assert "unknown architecture 'sm_13'" in capsys.readouterr().err
    assert minicudac_main([str(f), "--print-after=bogus"]) == 2
    assert "unknown pass 'bogus'" in capsys.readouterr().err

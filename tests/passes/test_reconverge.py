"""minicudac's outputs for the back end: the predication report, the sass-like text, the
errors for an unknown architecture or pass.  The reconvergence markers (BSSY/BSYNC on Volta
and newer, SSY/SYNC on stack architectures) and register allocation on IR text are FileCheck
tests: tests/passes/filecheck/reconverge/ and tests/passes/filecheck/regalloc/."""
import json

from minicuda.cli import minicudac_main
from minicuda.ir import parse_module

def test_cli_predication_report_json_has_exactly_the_documented_keys(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float *c) {\n  int t = threadIdx.x;\n  float a = 0.0f;\n"
                 "  if (t % 2 == 0) a = 1.0f; else a = 2.0f;\n  c[t] = a;\n}\n")
    assert minicudac_main([str(f), "--report=predication", "--report-format=json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert set(record) == {"file", "line", "column", "function", "uniform", "instructions", "threshold", "predicated",
                           "reason", "loop", "trip_count", "unrolled", "unroll"}
    assert (record["line"], record["column"], record["function"], record["uniform"], record["predicated"]) == \
        (4, 7, "k", False, True)   # the condition, t % 2 == 0
    assert (record["loop"], record["trip_count"], record["unrolled"]) == (False, None, False)


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

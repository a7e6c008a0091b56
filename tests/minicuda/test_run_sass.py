"""`minicuda run x.sass` runs what `minicudac -o x.sass` wrote: the same output and the
same metrics as `minicuda run x.cu`, for every sample on a stack and an ITS arch."""
import json
import re

import pytest

from conftest import SAMPLES
from minicuda.cli import minicuda_main, minicudac_main

# the sizes tests/test_jit.py runs the samples at; a sample not listed runs without arguments
ARGS = {"simpleDivergence.cu": ["64", "256"], "reduceInteger.cu": ["32", "1024"],
        "sumMatrix.cu": ["32", "16", "16", "8"], "transpose.cu": ["2", "64", "32"]}


def run(capsys, path, args, metrics_json):
    status = minicuda_main(["run", str(path), "--metrics", "--metrics-json", str(metrics_json)] + args)
    out, err = capsys.readouterr()
    # timings differ from run to run, and the program prints its argv[0]: the file run
    out = re.sub(r"\d+\.\d+ (sec|GB/s)", r"T \1", out.replace(f"{path} ", "PROGRAM "))
    return status, out, err, json.loads(metrics_json.read_text())


@pytest.mark.parametrize("arch", ["sm_60", "sm_70"])
@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_a_sass_file_runs_as_its_source_does(path, arch, tmp_path, capsys):
    sass = tmp_path / (path.stem + ".sass")
    assert minicudac_main([str(path), "--arch", arch, "-o", str(sass)]) == 0
    args = ARGS.get(path.name, [])
    from_cu = run(capsys, path, ["--arch", arch] + args, tmp_path / "cu.json")
    from_sass = run(capsys, sass, args, tmp_path / "sass.json")
    assert from_sass == from_cu
    assert from_cu[3] or "SIMT deadlock" in from_cu[2], "kernels ran, or the lock deadlocked under the stack model"


@pytest.fixture(scope="module")
def sass_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("sass") / "vectorAdd.sass"
    assert minicudac_main([str(next(p for p in SAMPLES if p.name == "vectorAdd.cu")), "-o", str(path)]) == 0
    return path


def test_a_malformed_sass_file_is_a_located_error_not_a_traceback(sass_file, tmp_path, capsys):
    lines = sass_file.read_text().splitlines()
    n = next(i for i, l in enumerate(lines) if l.strip().startswith("IADD"))
    lines[n] = "  FOO R1, R2"
    bad = tmp_path / "x.sass"
    bad.write_text("\n".join(lines) + "\n")
    assert minicuda_main(["run", str(bad)]) == 1
    assert capsys.readouterr().err == f"{bad}:{n + 1}: error: unknown opcode 'FOO'\n"
    assert minicudac_main([str(bad)]) == 1
    assert capsys.readouterr().err == f"{bad}:{n + 1}: error: unknown opcode 'FOO'\n"
    assert minicuda_main(["run", str(tmp_path / "missing.sass")]) == 1
    assert "no such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["run", "{f}", "-O0"], ["run", "{f}", "-G"], ["run", "{f}", "--arch", "pascal"],
                                  ["run", "{f}", "-I", "inc"], ["{f}", "--arch", "sm_60"], ["{f}", "-O1"],
                                  ["{f}", "--emit=ir"], ["{f}", "--sched", "stack"], ["{f}", "-E"],
                                  ["{f}", "--uniform-threshold", "3"], ["{f}", "--print-after", "all"]])
def test_options_for_a_cu_source_are_rejected_for_a_sass_file(sass_file, argv, capsys):
    argv = [a.format(f=sass_file) for a in argv]
    main = minicuda_main if argv[0] == "run" else minicudac_main
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "applies to a .cu source" in err and "compiled already" in err and "Traceback" not in err


def test_a_sass_file_runs_only_under_the_model_its_markers_are_for(sass_file, capsys):
    assert minicuda_main(["run", str(sass_file), "--sched", "stack"]) == 2
    assert "placed for the its model (.sched its); compile it with minicudac --sched stack" in capsys.readouterr().err
    assert minicuda_main(["run", str(sass_file), "--sched", "its"]) == 0
    assert "Test PASSED" in capsys.readouterr().out


def test_minicudac_checks_prints_and_reports_on_a_sass_file(sass_file, capsys):
    source = str(next(p for p in SAMPLES if p.name == "vectorAdd.cu"))
    outputs = []
    for path in (source, str(sass_file)):
        assert minicudac_main([path, "--resource-usage", "--report=predication", "--report-format=json"]) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0].err == outputs[1].err and "Used" in outputs[0].err
    assert json.loads(outputs[0].out) == json.loads(outputs[1].out)
    assert minicudac_main([str(sass_file)]) == 0
    assert capsys.readouterr().out == sass_file.read_text().split("\n", 3)[3]   # without the comment header
    assert minicudac_main([str(sass_file), "-fsyntax-only"]) == 0 and capsys.readouterr().out == ""
    assert minicuda_main(["check", str(sass_file)]) == 0


def test_forcing_a_model_on_minicudac_places_its_markers(tmp_path, capsys):
    source = str(next(p for p in SAMPLES if p.name == "reduceInteger.cu"))
    assert minicudac_main([source, "--arch", "volta", "--sched", "stack"]) == 0
    text = capsys.readouterr().out
    assert ".arch sm_70\n.sched stack\n" in text and "  SSY .L" in text and "BSSY" not in text

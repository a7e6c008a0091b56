"""What racecheck's and synccheck's reports say (both accesses, their threads and blocks,
the address and allocation, global memory marked as beyond compute-sanitizer, the
equal-values note), that the engines agree, and the summary lines and exit status that
vm/tools.py's Findings gives every tool."""
import pytest

from helpers import ROOT
from minicuda.cli import minicuda_main
from minicuda.vm import tools
from minicuda.vm.tools import ERROR, WARNING, Findings

CORPUS = ROOT / "tests" / "programs" / "sanitize"


def run(capsys, name, *options):
    status = minicuda_main(["run", str(CORPUS / name), *options])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_report_names_both_accesses_and_the_allocation(capsys):
    status, _, err = run(capsys, "race_global_rw_blocks.cu", "--tool", "racecheck")
    path = CORPUS / "race_global_rw_blocks.cu"
    assert status == 1
    assert f"========= Error: Race reported between Write access at {path}:9:7 in 'crossBlock'\n" in err
    assert "=========     by thread (0,0,0) in block (0,0,0)\n" in err
    assert f"=========     and Read access at {path}:11:16 in 'crossBlock'\n" in err
    assert "=========     by thread (0,0,0) in block (1,0,0)\n" in err
    assert "in global allocation 'cudaMalloc(128)' (global memory: not checked by compute-sanitizer) [32 hazards]" in err


def test_equal_writes_are_a_warning_with_a_note(capsys):
    status, _, err = run(capsys, "race_same_value.cu", "--tool", "racecheck")
    assert status == 0
    assert "========= Warning: Race reported between Write access" in err
    assert "=========     note: both writes stored the same value (1)\n" in err
    assert "in shared allocation 'setFlag::seen (block (0, 0, 0))'" in err


def test_warp_level_hazards_are_warnings_under_its_and_none_in_lockstep(capsys):
    status, _, err = run(capsys, "race_missing_syncwarp.cu", "--tool", "racecheck", "--arch", "volta")
    assert status == 0 and "Warning (Warp Level Programming): Race reported between Write access" in err
    status, _, err = run(capsys, "race_missing_syncwarp.cu", "--tool", "racecheck", "--arch", "pascal")
    assert status == 0 and "Race reported" not in err


def test_the_engines_and_jobs_give_one_verdict(capsys):
    runs = [run(capsys, "race_stencil_no_barrier.cu", "--tool", "racecheck", "--tool", "synccheck", *extra)
            for extra in (["--engine", "interp"], ["--engine", "jit"], ["--engine", "jit", "--jobs", "2"])]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0][0] == 1


def test_a_divergent_barrier_names_the_line_and_threads(capsys):
    status, _, err = run(capsys, "sync_two_arms.cu", "--tool", "synccheck")
    path = CORPUS / "sync_two_arms.cu"
    assert status == 1
    assert (f"========= Barrier error detected. Divergent thread(s) in block\n=========     at {path}:11:5 in "
            f"'twoArms'\n=========     by thread (0,0,0) in block (0,0,0)\n") in err
    assert err.count("Barrier error detected") == 32
    assert err.endswith("========= ERROR SUMMARY: 32 errors\n")


def test_no_tool_no_summary(capsys):
    status, out, err = run(capsys, "race_stencil_no_barrier.cu")
    assert status == 0 and "=========" not in err


def test_findings_count_by_tool_and_severity():
    f = Findings()
    assert f.summary_lines({"racecheck"}) == ["========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)",
                                              "========= ERROR SUMMARY: 0 errors"]
    assert f.exit_status() == 0
    f.report("racecheck", WARNING, "w")
    f.report("synccheck", ERROR, "e")
    assert f.texts == ["w", "e"]
    assert f.summary_lines({"racecheck", "synccheck"})[-1] == "========= ERROR SUMMARY: 1 error"
    assert "(0 errors, 1 warnings)" in f.summary_lines({"racecheck"})[0]
    assert f.exit_status() == 1
    with pytest.raises(ValueError):
        f.report("racecheck", "fatal")


def test_findings_keep_the_cap_and_make_a_text_only_while_kept(monkeypatch):
    monkeypatch.setattr(tools, "KEPT_REPORTS", 3)
    made = []
    f = Findings()
    for i in range(5):
        f.report("initcheck", ERROR, lambda i=i: made.append(i) or f"r{i}")
    assert (f.texts, f.hidden, made, f.errors()) == (["r0", "r1", "r2"], 2, [0, 1, 2], 5)
    blocks = [Findings(), Findings()]   # a launch's blocks' reports, added in block order
    blocks[0].report("synccheck", ERROR, "b0")
    blocks[1].report("synccheck", ERROR, "b1")
    blocks[1].report("synccheck", ERROR, "b1'")
    g = Findings()
    for b in blocks:
        g.extend(b)
    assert (g.texts, g.hidden, g.errors("synccheck")) == (["b0", "b1", "b1'"], 0, 3)
    f.extend(blocks[0])
    assert (f.texts[-1], f.hidden, f.errors()) == ("r2", 3, 6)

"""minicuda bench --compile-scaling: its generated programs compute what their mains
check (run at small sizes on both engines), and the benchmark's table at tiny sizes
(its structure, never its speed)."""
import json

import pytest

from minicuda import bench
from minicuda.bench import compile_scale
from minicuda.cli import minicuda_main

SMALL = {"file": 100, "switch": 12, "live": 30, "straight": 25, "loops": 6, "elseif": 12, "inc": 30}


def run_program(tmp_path, capsys, source: str, *options) -> str:
    path = tmp_path / "program.cu"
    path.write_text(source)
    assert minicuda_main(["run", *options, str(path)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("shape", list(compile_scale.SHAPES))
def test_each_generated_program_checks_out_on_the_interpreter(tmp_path, capsys, shape):
    out = run_program(tmp_path, capsys, compile_scale.SHAPES[shape](SMALL[shape]), "--engine", "interp")
    assert out.split()[:2] == [shape, "ok"]


def test_the_switch_picks_each_threads_case_and_the_default_past_them(tmp_path, capsys):
    """12 cases, 64 threads: threads 12..63 take the default."""
    source = compile_scale.switch_program(12)
    assert "case 11: v = %d; break;" % compile_scale.switch_value(11) in source
    assert run_program(tmp_path, capsys, source, "-O0", "--engine", "interp").strip() == "switch ok 12"


def test_a_wrong_value_in_the_switch_is_reported(tmp_path, capsys):
    """The main's check can fail: change one case's value and it says so."""
    source = compile_scale.switch_program(12).replace(f"v = {compile_scale.switch_value(5)};", "v = 0;")
    assert run_program(tmp_path, capsys, source, "--engine", "interp").strip() == "switch wrong 12"


def test_the_live_values_kernel_holds_them_all_at_once_and_sums_them(tmp_path, capsys):
    source = compile_scale.live_program(40)
    assert run_program(tmp_path, capsys, source, "--engine", "interp").strip() == "live ok 40"
    assert source.index("int v39 = in[39];") < source.index("s += v39;") < source.index("s += v0;")


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["switch", "live", "loops"])
def test_generated_programs_check_out_on_the_jit(tmp_path, capsys, shape):
    out = run_program(tmp_path, capsys, compile_scale.SHAPES[shape](SMALL[shape]))
    assert out.split()[:2] == [shape, "ok"]


def test_straight_value_is_the_kernels_arithmetic():
    """The expected value the straight-line program checks, for two statements by hand."""
    a, b = 3 * 3 + 4, 4
    b ^= a >> 3
    assert compile_scale.straight_value(2, 3) == a ^ b ^ 21 ^ 9


def test_scaling_table_at_tiny_sizes():
    results = compile_scale.run_scaling("quick", ["switch", "live"], jit=False)
    assert [(r.shape, r.size) for r in results] == [("switch", 20), ("switch", 40), ("live", 20), ("live", 40)]
    for r in results:
        assert {"preprocess", "parse", "sema", "lower", "regalloc", "print"} <= set(r.seconds)
        assert r.total == pytest.approx(sum(r.seconds.values())) and r.lines > r.size
    table = compile_scale.render_scaling(results)
    assert "switch (cases)" in table and "live (live values)" in table and "growth" in table
    assert table.count("\nregalloc ") == 2 and table.count("\ntotal ") == 2


def test_compile_scaling_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(compile_scale.SIZES["quick"], "switch", (2, 4))
    path = tmp_path / "scaling.json"
    assert bench.main(["--compile-scaling", "switch", "--quick", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "switch (cases)" in out and "\njit " in out
    data = json.loads(path.read_text())
    assert [d["size"] for d in data] == [2, 4] and all(d["seconds"]["jit"] > 0 for d in data)


def test_compile_scaling_names_an_unknown_shape(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--compile-scaling", "switch,nope"])
    assert "no shape nope" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["interp", "jit"])
def test_more_than_a_thousand_registers_run(tmp_path, capsys, engine):
    """Register rows past 1000 were once read as predicates (an internal error)."""
    out = run_program(tmp_path, capsys, compile_scale.live_program(1100), "--engine", engine)
    assert out.strip() == "live ok 1100"

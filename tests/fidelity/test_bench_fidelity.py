"""`minicuda bench --fidelity` prints the fidelity suite's agreement table (minicuda beside
the H100 per launch) and writes it as JSON; bad builds and kernels are the parser's errors."""
import json

import pytest

from minicuda.bench.command import main
from minicuda.bench.fidelity import gpu_launches, render, Row


def test_the_table_for_two_kernels(tmp_path, capsys):
    out = tmp_path / "fidelity.json"
    assert main(["--fidelity", "O3", "--only", "and_or_mixed,bounds_and_2d", "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| kernel | build | GPU br | GPU div | GPU winst | minicuda br |")
    # `(t % 3 == 0 && v > 0) || v < -5` and `row < w && col < w`: one predicate each, no branch, as on the GPU
    assert lines[2].startswith("| and_or_mixed | O3 | 0 | 0 | 168 | 0 | 0 |") and lines[2].endswith("| yes | yes |")
    assert lines[3].startswith("| bounds_and_2d | O3 | 0 | 0 | 166 | 0 | 0 |") and lines[3].endswith("| yes | yes |")
    assert lines[-1].startswith("-O3: divergent branches equal on 2 of 2 launches, branches on 2 of 2;")
    rows = json.loads(out.read_text())
    assert [(r["kernel"], r["build"], r["branch"], r["gpu_branch"], r["divergent_equal"]) for r in rows] == [
        ("and_or_mixed", "O3", 0, 0, True), ("bounds_and_2d", "O3", 0, 0, True)]


def test_a_launch_without_metrics_is_no_run():
    launch = next(l for l in gpu_launches() if l.kernel == "if_uniform" and l.build == "G")
    table = render([Row(launch, None)])
    assert "| if_uniform | G | 24 | 0 | 720 | - | - | - | no run | no run |" in table
    assert "-G: divergent branches equal on 0 of 1 launches, branches on 0 of 1" in table


@pytest.mark.parametrize("argv,message", [
    (["--fidelity", "O2"], "--fidelity: no build O2 (O3, G)"),
    (["--fidelity", "--only", "no_such_kernel"], "--only: no fidelity kernel no_such_kernel"),
])
def test_bad_choices_are_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err

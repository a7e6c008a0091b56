"""The spec of minicuda sweep: a bad one is rejected before any point runs, with the
file and line (and column, where tomllib gives it) of the mistake; a good one expands
into the product of its axes with the options minicuda run takes."""
import subprocess
import sys
from pathlib import Path

import pytest

from minicuda.sweep import SpecError, load_spec
from minicuda.sweep.points import expand, make_task

DATA = Path(__file__).parent / "data"


def spec_file(tmp_path, text: str) -> Path:
    path = tmp_path / "sweep.toml"
    path.write_text(text.replace("DATA", str(DATA)))
    return path


def error_of(tmp_path, text: str) -> str:
    path = spec_file(tmp_path, text)
    with pytest.raises(SpecError) as e:
        load_spec(str(path))
    return str(e.value).replace(str(path), "sweep.toml")


def test_toml_syntax_error_is_located_at_line_and_column(tmp_path):
    message = error_of(tmp_path, '[[program]]\nfiles = ["DATA/branchy.cu"]\n[axes]\narch = [pascal]\n')
    assert message.startswith("sweep.toml:4:9: error: ")


def test_unknown_axis_names_its_line(tmp_path):
    message = error_of(tmp_path, '[[program]]\nfiles = ["DATA/branchy.cu"]\n\n[axes]\narch = ["volta"]\nblocks = [1]\n')
    assert message.startswith("sweep.toml:6: error: unknown axis 'blocks'")


def test_bad_axis_value_names_its_line(tmp_path):
    message = error_of(tmp_path, '[[program]]\nfiles = ["DATA/branchy.cu"]\n[axes]\nopt = ["-O3"]\narch = ["sm_99x"]\n')
    assert message.startswith("sweep.toml:5: error: axis 'arch': ")
    message = error_of(tmp_path, '[[program]]\nfiles = ["DATA/branchy.cu"]\n[axes]\nrule = ["seed", "<="]\n')
    assert message.startswith("sweep.toml:4: error: axis 'rule': '<=' is not one of seed, guide")


def test_glob_that_matches_nothing_names_the_programs_line(tmp_path):
    message = error_of(tmp_path, '[[program]]\nfiles = ["DATA/branchy.cu"]\n\n[[program]]\nargs = ["1"]\n'
                                 'files = ["DATA/nothing*.cu"]\n')
    assert message.startswith("sweep.toml:6: error: 'DATA/nothing*.cu'".replace("DATA", str(DATA)))


def test_spec_without_program_is_an_error(tmp_path):
    assert "names no program" in error_of(tmp_path, 'timeout = 5\n')
    assert error_of(tmp_path, 'timeout = "5"\n[[program]]\nfiles = ["DATA/branchy.cu"]\n').startswith(
        "sweep.toml:1: error: 'timeout' must be a number")


def test_command_reports_a_bad_spec_without_traceback(tmp_path):
    path = spec_file(tmp_path, '[[program]]\nfiles = ["DATA/branchy.cu"]\n[axes]\nsched = ["simt"]\n')
    done = subprocess.run([sys.executable, "-c", "import sys; from minicuda.cli import minicuda_main; "
                           "sys.exit(minicuda_main())", "sweep", str(path)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith(f"{path}:4: error: axis 'sched': 'simt' is not one of auto, stack, its")
    assert "Traceback" not in done.stderr


def test_points_are_the_product_of_the_axes(tmp_path):
    spec = load_spec(str(spec_file(tmp_path, '''
[[program]]
files = ["DATA/branchy.cu", "DATA/fault.cu"]
args = ["2"]
[axes]
opt = ["-O0", "-G"]
arch = ["pascal", "volta"]
rule = ["seed", "guide"]
[axes.define]
BLOCK = [32, 64]
''')))
    points = expand(spec)
    assert len(points) == 2 * 2 * 2 * 2 * 2
    first = points[0]
    assert (first.program.path.endswith("branchy.cu"), first.arch, first.rule, first.opt, first.defines,
            first.args) == (True, "pascal", "seed", "-O0", ("BLOCK=32",), ("2",))
    options = first.options(300, None, "jit")
    assert options[options.index("--arch") + 1] == "pascal" and "-O" in options and "BLOCK=32" in options
    assert "-G" in points[8].options(300, None, "jit") and "-G" not in points[7].options(300, None, "jit")
    assert [p.arch for p in points[:8]] == ["pascal"] * 4 + ["volta"] * 4   # the last axis varies fastest


def test_key_follows_the_included_header(tmp_path):
    (tmp_path / "p.cu").write_text((DATA / "branchy.cu").read_text())
    (tmp_path / "branchy.h").write_text((DATA / "branchy.h").read_text())
    path = spec_file(tmp_path, '[[program]]\nfiles = ["p.cu"]\n')
    task = make_task(expand(load_spec(str(path)))[0], load_spec(str(path)), {})
    assert sorted(task["files"]) == ["branchy.h", "p.cu"]
    (tmp_path / "branchy.h").write_text("#define BLOCK 64\n#define SCALE 3\n")
    again = make_task(expand(load_spec(str(path)))[0], load_spec(str(path)), {})
    assert again["key"] != task["key"]

"""The runner of the FileCheck tests (tests/helpers/lit.py): a RUN line it cannot run as
written is an error, a CHECK line the output does not meet fails with FileCheck's message."""
from pathlib import Path

import pytest

from helpers.lit import SCRIPTS, RunFailure, RunLineError, read_run_lines, run_pipeline

MODULE = """.kernel k ()
.L0:
  IADD %r1, %r0, 1
  EXIT
.end k
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.ir"
    path.write_text(text)
    return path


@pytest.mark.parametrize("run, why", [
    ("", "no '// RUN:' line"),
    ("// RUN: minicudac %s | grep IADD\n", "'grep' is not a console script"),
    ("// RUN: /bin/minicudac %s | filecheck %s\n", "is not a console script"),
    ("// RUN: minicudac %s > out | filecheck %s\n", "'>' is shell syntax"),
    ("// RUN: minicudac %s && minicudac %s | filecheck %s\n", "'&&' is shell syntax"),
    ("// RUN: minicudac %t | filecheck %s\n", "unknown substitution '%t'"),
    ("// RUN: minicudac %s\n", "the last command must be filecheck"),
    ("// RUN: minicudac %s | not filecheck %s\n", "the last command must be filecheck"),
    ("// RUN: minicudac %s | | filecheck %s\n", "an empty command"),
    ("// RUN: minicudac %s \\\n", "no RUN line follows"),
    ("// RUN: minicudac %s \\\n\n// RUN: | filecheck %s\n", "no RUN line follows"),
])
def test_a_malformed_run_line_is_an_error(tmp_path, run, why):
    with pytest.raises(RunLineError, match=why):
        read_run_lines(write(tmp_path, run + MODULE))


def test_run_lines_are_read_with_continuations_and_substitutions(tmp_path):
    path = write(tmp_path, "// RUN: not minicudac %s --passes=bogus 2>&1 \\\n// RUN:   | filecheck %s\n"
                           "// RUN: minicudac %s | filecheck --check-prefix=A%% %S\n" + MODULE)
    first, second = read_run_lines(path)
    assert first.line == 1 and second.line == 3
    not_minicudac, filecheck = first.commands
    assert not_minicudac.argv == (str(SCRIPTS / "minicudac"), str(path), "--passes=bogus")
    assert not_minicudac.must_fail and not_minicudac.merge_stderr
    assert filecheck.argv == (str(SCRIPTS / "filecheck"), str(path)) and not filecheck.must_fail
    assert second.commands[1].argv[1:] == ("--check-prefix=A%", str(tmp_path))


def test_a_check_the_output_meets_passes_and_one_it_does_not_fails_with_filechecks_message(tmp_path):
    run = "// RUN: minicudac %s --passes=dce | filecheck %s\n"
    (passing,) = read_run_lines(write(tmp_path, run + MODULE + "// CHECK: .L0:\n// CHECK-NEXT: EXIT\n"))
    run_pipeline(passing, tmp_path)
    (failing,) = read_run_lines(write(tmp_path, run + MODULE + "// CHECK: .L0:\n// CHECK-NEXT: IADD\n"))
    with pytest.raises(RunFailure) as e:
        run_pipeline(failing, tmp_path)
    assert "filecheck exited with status 1" in str(e.value) and "error:" in str(e.value)


def test_not_expects_a_failure_and_2_1_passes_its_message_on(tmp_path):
    run = "// RUN: not minicudac %s --passes=bogus 2>&1 | filecheck %s\n"
    (line,) = read_run_lines(write(tmp_path, run + MODULE + "// CHECK: unknown pass 'bogus' for --passes\n"))
    run_pipeline(line, tmp_path)
    (line,) = read_run_lines(write(tmp_path, run.replace("bogus", "dce") + MODULE + "// CHECK: EXIT\n"))
    with pytest.raises(RunFailure, match="minicudac exited with status 0, expected a failure"):
        run_pipeline(line, tmp_path)

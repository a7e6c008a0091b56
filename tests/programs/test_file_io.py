"""C file I/O on real files in the working directory, both engines, against the same program
built with g++ (13, glibc 2.36) on this machine: tests/programs/stdio/files.cu's stdout, stderr
and the file it leaves are the native run's (files.out, files.err, files.data).  A NULL or
closed FILE * is glibc's SIGSEGV with minicuda's note; open files are flushed by exit() and
returning from main, and lost by abort(), as natively."""
import pathlib
import subprocess
import sys

import pytest

from minicuda.cli import minicuda_main

STDIO = pathlib.Path(__file__).parent / "stdio"
ENGINES = ["interp", "jit"]


@pytest.mark.parametrize("engine", ENGINES)
def test_files_are_read_and_written_as_glibc_does(engine, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert minicuda_main(["run", "--engine", engine, str(STDIO / "files.cu")]) == 0
    captured = capsys.readouterr()
    assert captured.out == (STDIO / "files.out").read_text()
    assert captured.err == (STDIO / "files.err").read_text()
    assert (tmp_path / "data.txt").read_bytes() == (STDIO / "files.data").read_bytes()
    assert not (tmp_path / "values.bin").exists()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("how, status, kept", [("return", 0, True), ("exit", 3, True), ("abort", 134, False)])
def test_open_files_are_flushed_at_exit_and_lost_by_abort(how, status, kept, engine, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert minicuda_main(["run", "--engine", engine, str(STDIO / "ends.cu"), how]) == status
    assert (tmp_path / "kept.txt").read_text() == ("written before the end\n" if kept else "")


NULL_STREAM = """#include <stdio.h>
int main() {
    FILE *f = fopen("nothere.txt", "r");
    char line[10];
    fgets(line, 10, f);
    return 0;
}
"""

CLOSED_STREAM = """#include <stdio.h>
int main() {
    FILE *g = fopen("out.txt", "w");
    fclose(g);
    fprintf(g, "again\\n");
    return 0;
}
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("source, error, note", [
    (NULL_STREAM, ":5:5: error: segmentation fault in fgets(): ", "note: the pointer is NULL"),
    (CLOSED_STREAM, ":5:5: error: segmentation fault in fprintf(): use after free",
     'note: a host pointer from fopen("out.txt", "w") at line 3, freed at line 4')])
def test_a_null_or_closed_stream_is_a_segmentation_fault(source, error, note, engine, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.cu").write_text(source)
    assert minicuda_main(["run", "--engine", engine, "p.cu"]) == 139
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("p.cu" + error) and err[1].endswith(note) and err[2] == "Segmentation fault"


def test_scanf_reads_stdin_and_stderr_interleaves_with_stdout_as_on_a_terminal(tmp_path):
    """The prompt comes out before scanf waits; each stderr line after the stdout written before it."""
    run = subprocess.run([sys.executable, "-c", "import sys; from minicuda.cli import minicuda_main; "
                          "sys.exit(minicuda_main(sys.argv[1:]))", "run", str(STDIO / "inter.cu")],
                         input=b"3 4\nworld!\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=tmp_path)
    assert run.returncode == 0
    assert run.stdout.decode() == ("numbers? read 2: 3 + 4 = 7\na warning\nafter the warning\n"
                                   "1 [world!] 10\nat the end: -1\n")

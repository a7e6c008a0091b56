"""Files and the command line: inputs that are not text, outputs written whole or not at
all, I/O failures as one line, numbers range-checked, program arguments as bytes."""
import os
import stat
import subprocess
import sys

import pytest

import minicuda
import minicuda.sourcefile as sourcefile
from minicuda.bench import main as bench_main
from minicuda.cli import minicuda_main, minicudac_main
from minicuda.diagnostics import CompileError
from minicuda.outputs import write_output

PROGRAM = "#include <stdio.h>\nint main() {\n    printf(\"hi\\n\");\n    return 0;\n}\n"
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run_process(command: str, *args, shell_suffix: str = "", timeout: int = 120):
    """`minicudac ARGS` or `minicuda ARGS` in a fresh interpreter, through sh (for >&- and |)."""
    entry = "minicudac_main" if command == "minicudac" else "minicuda_main"
    code = f"import sys; from minicuda.cli import {entry}; sys.exit({entry}(sys.argv[1:]))"
    quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in [sys.executable, "-c", code, *map(str, args)])
    return subprocess.run(["sh", "-c", quoted + shell_suffix], capture_output=True, timeout=timeout)


@pytest.fixture
def program(tmp_path):
    f = tmp_path / "in.cu"
    f.write_text(PROGRAM)
    return f


@pytest.fixture
def not_text(tmp_path):
    """name -> (path, what the error says about it)"""
    (tmp_path / "bin.cu").write_bytes(b"int main() {\n  return 0;\0\n}\n")
    (tmp_path / "latin.cu").write_bytes(b"int main() {\n\n  return 0; // \xff\n}\n")
    (tmp_path / "dir.cu").mkdir()
    return {
        "binary": (tmp_path / "bin.cu", "is a binary file, not text (NUL byte at line 2, column 12)"),
        "latin": (tmp_path / "latin.cu", "is not valid UTF-8 text (byte 0xff at line 3, column 16)"),
        "directory": (tmp_path / "dir.cu", "is a directory, not a source file"),
        "zero": ("/dev/zero", "is not a regular file (a character device)"),
        "urandom": ("/dev/urandom", "is not a regular file (a character device)"),
    }


@pytest.mark.parametrize("kind", ["binary", "latin", "directory", "zero", "urandom"])
@pytest.mark.parametrize("command", [["minicudac"], ["minicudac", "-E"], ["minicuda", "run"], ["minicuda", "check"]])
def test_a_main_file_that_is_not_text_is_one_error_naming_it(not_text, kind, command, capsys):
    path, what = not_text[kind]
    main = minicudac_main if command[0] == "minicudac" else minicuda_main
    assert main(command[1:] + [str(path)]) == 1
    assert capsys.readouterr().err == f"{command[0]}: error: '{path}' {what}\n"


@pytest.mark.parametrize("suffix, command", [(".sass", ["minicudac"]), (".sass", ["minicuda", "run"]),
                                             (".ir", ["minicudac"])])
def test_a_module_text_that_is_not_text_is_one_error_naming_it(tmp_path, suffix, command, capsys):
    path = tmp_path / f"m{suffix}"
    path.write_bytes(b".arch sm_70\n\xc3(\n")
    main = minicudac_main if command[0] == "minicudac" else minicuda_main
    assert main(command[1:] + [str(path)]) == 1
    assert capsys.readouterr().err == f"{command[0]}: error: '{path}' is not valid UTF-8 text (byte 0xc3 at line 2, column 1)\n"


def test_a_missing_main_file_is_named_as_clang_names_it(tmp_path, capsys):
    assert minicudac_main([str(tmp_path / "gone.cu")]) == 1
    assert capsys.readouterr().err == f"minicudac: error: no such file or directory: '{tmp_path / 'gone.cu'}'\n"


@pytest.mark.skipif(AS_ROOT, reason="root reads any file")
def test_an_unreadable_main_file_is_one_error(program, capsys):
    program.chmod(0)
    assert minicudac_main([str(program)]) == 1
    assert capsys.readouterr().err == f"minicudac: error: cannot open file '{program}': Permission denied\n"


def test_a_fifo_as_the_main_file_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.cu"
    os.mkfifo(fifo)
    for command, args in [("minicudac", [fifo]), ("minicuda", ["run", fifo])]:
        r = run_process(command, *args, timeout=60)
        assert (r.returncode, r.stderr.decode()) == (1, f"{command}: error: '{fifo}' is not a regular file (a FIFO)\n")


def test_a_main_file_over_the_size_cap_is_refused(program, monkeypatch, capsys):
    monkeypatch.setattr(sourcefile, "MAX_SOURCE_BYTES", 16)
    assert minicudac_main([str(program)]) == 1
    assert capsys.readouterr().err == \
        f"minicudac: error: '{program}' is too large to be a source file (more than 0 MiB)\n"


def test_the_python_api_raises_compile_error_for_a_file_that_is_not_text(not_text):
    with pytest.raises(CompileError, match="is a binary file, not text"):
        minicuda.compile(str(not_text["binary"][0]))


# ---- outputs -----------------------------------------------------------------------

@pytest.mark.parametrize("argv, given", [(["minicudac", "{in}", "-o", "{in}"], "{in}"),
                                         (["minicudac", "{in}", "-E", "-o", "{in}"], "{in}"),
                                         (["minicudac", "{in}", "-o", "{link}"], "{in}"),
                                         (["minicudac", "{link}", "-o", "{in}"], "{link}"),
                                         (["minicuda", "run", "{in}", "--metrics-json", "{in}"], "{in}")])
def test_an_output_that_is_the_input_is_refused_before_anything_is_written(program, argv, given, capsys):
    link = program.parent / "link.cu"
    link.symlink_to(program)
    names = {"in": program, "link": link}
    argv = [a.format(**names) for a in argv]
    main = minicudac_main if argv[0] == "minicudac" else minicuda_main
    assert main(argv[1:]) == 1
    assert capsys.readouterr().err == f"{argv[0]}: error: input file '{given.format(**names)}' is the same as output file\n"
    assert program.read_text() == PROGRAM


@pytest.mark.parametrize("target, reason", [("{dir}", "Is a directory"), ("{dir}/missing/out.s", "No such file or directory"),
                                            ("/dev/full", "No space left on device")])
def test_an_output_that_cannot_be_written_is_one_line(program, tmp_path, target, reason, capsys):
    target = target.format(dir=tmp_path)
    assert minicudac_main([str(program), "-o", target]) == 1
    assert capsys.readouterr().err == f"minicudac: error: cannot write '{target}': {reason}\n"
    assert minicuda_main(["run", str(program), "--metrics-json", target]) == 1
    assert capsys.readouterr().err.endswith(f"minicuda: error: cannot write '{target}': {reason}\n")


@pytest.mark.skipif(AS_ROOT, reason="root writes any file")
def test_a_read_only_output_is_one_line_and_kept(program, tmp_path, capsys):
    out = tmp_path / "out.s"
    out.write_text("old\n")
    out.chmod(0o444)
    assert minicudac_main([str(program), "-o", str(out)]) == 1
    assert capsys.readouterr().err == f"minicudac: error: cannot write '{out}': Permission denied\n"
    assert out.read_text() == "old\n"


def test_an_output_is_renamed_into_place_keeping_its_mode_and_its_link(program, tmp_path):
    out = tmp_path / "out.s"
    out.write_text("old\n")
    out.chmod(0o640)
    link = tmp_path / "link.s"
    link.symlink_to(out)
    assert minicudac_main([str(program), "-o", str(link)]) == 0
    assert link.is_symlink() and "main" in out.read_text()
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.cu", "link.s", "out.s"]


def test_a_write_that_fails_half_way_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    out = tmp_path / "out.s"
    out.write_text("old\n")
    with pytest.raises(UnicodeEncodeError):
        write_output("new text " * 1000 + "\ud800", str(out))   # fails after a first buffer is written
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.s"]


def test_special_files_are_written_directly(program):
    r = run_process("minicudac", program, "-o", "/dev/stdout")
    assert r.returncode == 0 and b"main" in r.stdout and r.stderr == b""
    assert minicudac_main([str(program), "-o", "/dev/null"]) == 0


def test_a_closed_stdout_is_one_line(program):
    r = run_process("minicudac", program, shell_suffix=" >&-")
    assert (r.returncode, r.stderr.decode()) == (1, "minicudac: error: cannot write to standard output: Bad file descriptor\n")


def test_a_program_run_with_stdout_closed_loses_its_output_as_a_c_program_does(program):
    r = run_process("minicuda", "run", program, shell_suffix=" >&-")
    assert (r.returncode, r.stderr) == (0, b"")


def test_a_reader_that_goes_away_is_quiet_as_for_cat(tmp_path):
    f = tmp_path / "long.cu"
    f.write_text("".join(f"int v{i};\n" for i in range(20000)))
    r = run_process("minicudac", f, "-E", shell_suffix=" | head -1 >/dev/null")
    assert r.returncode == 0 and r.stderr == b""
    (tmp_path / "many.cu").write_text(
        '#include <stdio.h>\nint main() { for (int i = 0; i < 100000; i++) printf("%d\\n", i); return 0; }\n')
    r = run_process("minicuda", "run", tmp_path / "many.cu", shell_suffix=" | head -1 >/dev/null")
    assert r.returncode == 0 and r.stderr == b""


def test_bench_json_onto_a_directory_is_refused_before_the_benchmark_runs(tmp_path, capsys):
    assert bench_main(["--quick", "--json", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"minicuda bench: error: cannot write '{tmp_path}': Is a directory\n"


# ---- numbers and program arguments ---------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["run", "{f}", "--max-steps", "999999999999999999999999999"],
     "argument --max-steps: must be at most 9223372036854775807, not 999999999999999999999999999"),
    (["run", "{f}", "--max-steps", "0"], "argument --max-steps: must be at least 1, not 0"),
    (["run", "{f}", "-j", "0"], "argument --jobs/-j: must be at least 1, not 0"),
    (["run", "{f}", "-j", "100000"], "argument --jobs/-j: must be at most 1024, not 100000"),
    (["run", "{f}", "--sched-seed", "1" + "0" * 30], f"argument --sched-seed: must be at most {2**64 - 1}, not 1{'0' * 30}"),
    (["run", "{f}", "--sched-seed", "x"], "argument --sched-seed: 'x' is not a number"),
    (["{f}", "--uniform-threshold", "-1"], "argument --uniform-threshold: must be at least 0, not -1"),
    (["{f}", "--divergent-threshold", "-3"], "argument --divergent-threshold: must be at least 0, not -3"),
])
def test_numbers_on_the_command_line_are_range_checked_by_the_parser(program, argv, message, capsys):
    argv = [a.format(f=program) for a in argv]
    main, prog = (minicuda_main, "minicuda run") if argv[0] == "run" else (minicudac_main, "minicudac")
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"{prog}: error: {message}"


@pytest.mark.parametrize("argv, message", [(["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
                                           (["--timeout", "-1"], "argument --timeout: must be a positive number of seconds, not -1"),
                                           (["--timeout", "inf"], "argument --timeout: must be a positive number of seconds, not inf")])
def test_bench_numbers_are_range_checked(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        bench_main(argv)
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"minicuda bench: error: {message}"


ARGV_BYTES = r"""#include <stdio.h>
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        for (const char *p = argv[i]; *p; p++) printf("%d ", (unsigned char)*p);
        printf("\n");
    }
    return 0;
}
"""


def test_program_arguments_reach_main_as_the_bytes_given(tmp_path, capfd):
    f = tmp_path / "argv.cu"
    f.write_text(ARGV_BYTES)
    assert minicuda_main(["run", str(f), "ok", os.fsdecode(b"\xff\xfe"), os.fsdecode("é".encode())]) == 0
    assert capfd.readouterr().out == "111 107 \n255 254 \n195 169 \n"


def test_crlf_and_a_byte_order_mark_read_as_text_files_do(tmp_path, capsys):
    (tmp_path / "h.h").write_bytes(b"\xef\xbb\xbfint h = 1;\r\n")
    f = tmp_path / "crlf.cu"
    f.write_bytes(b'\xef\xbb\xbf#include "h.h"\r\nint main() {\r\n    return x;\r\n}\r\n')
    assert minicudac_main([str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:3:12: error: use of undeclared identifier 'x'\n    3 |     return x;\n") and "\r" not in err

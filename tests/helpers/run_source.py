"""A program's text run whole by `minicuda run` on one engine, in a test: what the
runtime tests of vm/ share (tests/vm/test_streams_and_host_memory.py and
test_runtime_api_extras.py, test_jit_host_callees.py)."""
from minicuda.cli import minicuda_main


def run(tmp_path, capsys, engine: str, source: str, *args: str, options=()) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `source`, with <stdio.h> included, as prog.cu, run
    with the program arguments `args` and `minicuda run` options `options`."""
    f = tmp_path / "prog.cu"
    f.write_text("#include <stdio.h>\n" + source)
    code = minicuda_main(["run", "--engine", engine, *options, str(f), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_on_both_engines(tmp_path, capsys, source: str, *args: str, options=()) -> tuple[int, str, str]:
    """`run` on the JIT, checked equal to the interpreter's (the specification): its result."""
    native = run(tmp_path, capsys, "jit", source, *args, options=options)
    assert native == run(tmp_path, capsys, "interp", source, *args, options=options)
    return native
